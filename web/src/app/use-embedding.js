// The embedding API (docs/EMBEDDING.md): inside an iframe, the page announces profscope:ready
// to its parent and opens the profile a profscope:open message carries, answering with its
// summary (or the error); messages from origins not allowed are ignored.
import { useEffect } from 'preact/hooks';
import { allowedOrigins } from './page-params.js';

/**
 * @param {(file: Blob, name: string) => Promise<{error?: string, ok?: boolean, summary?: any, diagnostics?: number}>} openFile
 */
export function useEmbedding(openFile) {
  useEffect(() => {
    if (window.parent === window) return undefined;
    const allowed = allowedOrigins();
    /** @param {MessageEvent} e */
    const onMessage = async (e) => {
      const d = e.data;
      if (!d || typeof d !== 'object' || typeof d.type !== 'string' || !d.type.startsWith('profscope:')) return;
      if (!allowed.has(e.origin) && !allowed.has('*')) return; // not allowed: ignored
      const reply = (/** @type {object} */ m) => /** @type {Window | null} */ (e.source)?.postMessage({ ...m, id: d.id }, e.origin === 'null' ? '*' : e.origin);
      if (d.type === 'profscope:open') {
        const buf = d.buffer;
        if (!(buf instanceof ArrayBuffer)) {
          reply({ type: 'profscope:error', message: 'profscope:open needs `buffer`, an ArrayBuffer' });
          return;
        }
        const name = typeof d.name === 'string' && d.name ? d.name : 'profile';
        const r = await openFile(new File([buf], name), name);
        if (r.error) reply({ type: 'profscope:error', name, message: r.error });
        else reply({ type: 'profscope:summary', name, ok: r.ok, summary: r.summary, diagnostics: r.diagnostics });
      }
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ type: 'profscope:ready', version: 1 }, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [openFile]);
}
