// The embedding API (docs/EMBEDDING.md): inside an iframe, the page announces profscope:ready
// to its parent and opens the profile a profscope:open message carries — one `buffer`, or
// `files: [{name, buffer}, ...]` (the profile with its side files: binaries, perf archive
// tarballs, jit dumps, XRay maps) — answering with its summary and each file's role (or the
// error); messages from origins not allowed are ignored.
import { useEffect } from 'preact/hooks';
import { allowedOrigins } from './page-params.js';
import { planFiles } from '../lib/multi-file.js';

/**
 * The files a profscope:open message carries, as Files, or the reason it carries none.
 * @param {any} d the message
 * @returns {{files: File[]} | {error: string}}
 */
export function messageFiles(d) {
  if (Array.isArray(d.files)) {
    if (!d.files.length) return { error: 'profscope:open `files` is empty' };
    /** @type {File[]} */
    const files = [];
    for (let i = 0; i < d.files.length; i++) {
      const f = d.files[i];
      if (!f || !(f.buffer instanceof ArrayBuffer)) return { error: `profscope:open files[${i}].buffer is not an ArrayBuffer` };
      const name = typeof f.name === 'string' && f.name ? f.name.slice(f.name.lastIndexOf('/') + 1) : `file${i}`;
      files.push(new File([f.buffer], name));
    }
    return { files };
  }
  if (!(d.buffer instanceof ArrayBuffer)) return { error: 'profscope:open needs `buffer`, an ArrayBuffer, or `files`, a list of {name, buffer}' };
  const name = typeof d.name === 'string' && d.name ? d.name : 'profile';
  return { files: [new File([d.buffer], name)] };
}

/**
 * @param {(file: Blob, name: string, extras?: any) => Promise<{error?: string, ok?: boolean, summary?: any, diagnostics?: number, files?: {name: string, role: string}[]}>} openFile
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
        const got = messageFiles(d);
        if ('error' in got) {
          reply({ type: 'profscope:error', message: got.error });
          return;
        }
        // one file: that is the profile whatever its name; several: told apart as a drop is
        const plan = got.files.length === 1 ? { main: got.files[0], dataFiles: [], sideFiles: [] } : planFiles(got.files);
        const main = /** @type {File} */ (plan.main);
        const extra = plan.dataFiles.length + plan.sideFiles.length;
        const label = extra ? `${main.name} (+${extra} file${extra === 1 ? '' : 's'})` : main.name;
        const r = await openFile(main, main.name, { label, dataFiles: plan.dataFiles, sideFiles: plan.sideFiles });
        const name = main.name;
        if (r.error) reply({ type: 'profscope:error', name, message: r.error });
        else reply({ type: 'profscope:summary', name, ok: r.ok, summary: r.summary, diagnostics: r.diagnostics, files: r.files });
      }
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ type: 'profscope:ready', version: 1 }, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [openFile]);
}
