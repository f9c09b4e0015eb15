// The view state in the URL hash (#s=…: tab, analysis options, selected record), tied to the
// file by its key (name, size, hash of its first bytes): written on every change, restored once
// when the same file is opened again.
import { useEffect, useRef } from 'preact/hooks';
import { defaultOpts } from './use-analysis-options.js';

/**
 * @param {{doc: any, tab: string, opts: any, selection: any, setTab: (t: string) => void,
 *   changeOpts: (o: any) => void, select: (sel: any, o?: any) => void}} p
 */
export function useUrlState({ doc, tab, opts, selection, setTab, changeOpts, select }) {
  const restored = useRef(/** @type {any} */ (null));
  // restore first (this effect runs before the writer below on the document's first render)
  useEffect(() => {
    if (!doc || restored.current === doc) return;
    restored.current = doc;
    const st = readHashState();
    if (!st || st.k !== doc.key) return;
    if (typeof st.tab === 'string') setTab(st.tab);
    if (st.opts && st.opts.filter) {
      const base = defaultOpts(doc.defaultEvent ?? 0);
      changeOpts({ ...base, ...st.opts, filter: { ...base.filter, ...st.opts.filter } });
    }
    if (Number.isInteger(st.row) && st.row >= 0 && st.row < doc.records.offsets.length) select({ type: 'record', row: st.row }, { reveal: true });
  }, [doc, changeOpts, select]);
  useEffect(() => {
    if (!doc) return;
    const row = selection && selection.row != null ? selection.row : -1;
    const st = { k: doc.key, tab, opts: { ...opts, transforms: opts.transforms }, row };
    const h = '#s=' + encodeURIComponent(JSON.stringify(st));
    if (location.hash !== h) history.replaceState(null, '', location.pathname + location.search + h);
  }, [doc, tab, opts, selection]);
}

function readHashState() {
  const m = /^#s=(.*)$/.exec(location.hash);
  if (!m) return null;
  try {
    return JSON.parse(decodeURIComponent(m[1]));
  } catch {
    return null;
  }
}
