// @ts-check
// The Export menu's action: the worker writes the open profile in another tool's format
// (core/api/export through Session.exportFile) and the page saves the bytes as a download.
// Nothing leaves the browser: the file is a Blob URL given to an <a download>.
import { useCallback, useState } from 'preact/hooks';

/** The formats, their menu labels and file name suffixes (core/api/export/exporter.cc FileSuffix). */
export const EXPORT_FORMATS = [
  { id: 'folded', label: 'Folded stacks (FlameGraph, speedscope)', suffix: '.folded', type: 'text/plain' },
  { id: 'speedscope', label: 'speedscope JSON', suffix: '.speedscope.json', type: 'application/json' },
  { id: 'gecko', label: 'Firefox Profiler (Gecko JSON)', suffix: '.gecko.json', type: 'application/json' },
  { id: 'pprof', label: 'pprof (profile.proto, gzip)', suffix: '.pb.gz', type: 'application/gzip' },
  { id: 'chrome', label: 'Chrome trace (Perfetto, chrome://tracing)', suffix: '.trace.json', type: 'application/json' },
  // perf.data only: perf script's default output, what FlameGraph's stackcollapse-perf.pl,
  // speedscope and the Firefox Profiler import (the same bytes as `profscope script`).
  { id: 'perf-script', label: 'perf script text (FlameGraph, speedscope, Firefox Profiler)', suffix: '.perf-script.txt', type: 'text/plain', only: 'perf.data' },
];

/**
 * The formats offered for a profile of format `format` (its summary's).
 * @param {string | undefined} format
 */
export function exportFormatsFor(format) {
  return EXPORT_FORMATS.filter((f) => !f.only || f.only === format);
}

/**
 * The download's name: the opened file's name with the format's suffix.
 * @param {string} name
 * @param {string} suffix
 */
export function exportName(name, suffix) {
  const base = String(name || 'profile').replace(/^.*[\\/]/, '') || 'profile';
  return base + suffix;
}

/** Saves bytes as a download named `name`. @param {Uint8Array} bytes @param {string} name @param {string} type */
export function saveBytes(bytes, name, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * @param {any} doc the open document
 * @param {import('../worker/client.js').DecoderClient} client
 * @param {(msg: string) => void} onError
 */
export function useExport(doc, client, onError) {
  const [busy, setBusy] = useState('');
  const exportAs = useCallback(
    async (/** @type {string} */ format) => {
      const f = EXPORT_FORMATS.find((x) => x.id === format);
      if (!doc || !f) return;
      setBusy(format);
      try {
        const r = await client.exportFile(format);
        if (r.error) onError(`Export ${format}: ${r.error}`);
        else saveBytes(r.bytes, exportName(doc.extras?.openName || doc.name, f.suffix), f.type);
      } catch (err) {
        onError(`Export ${format}: ${err?.message || err}`);
      } finally {
        setBusy('');
      }
    },
    [doc, client, onError],
  );
  return { exportAs, busy };
}
