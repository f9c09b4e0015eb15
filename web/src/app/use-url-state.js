// The view state in the URL hash (#s=…: tab, analysis options — filters, range, transforms,
// search, invert, weight — and the selected record), tied to the file by its key (name, size,
// hash of its first bytes). Written on every change. A hash this page did not write (a shared
// link, a reload) is applied when a file with its key opens; while another file is open (the
// bundled sample a fresh browser shows first, any other file) it is held: not applied, not
// overwritten. Another file never inherits it.
import { useEffect, useRef } from 'preact/hooks';
import { defaultOpts } from './use-analysis-options.js';

/**
 * @param {{doc: any, tab: string, opts: any, selection: any, setTab: (t: string) => void,
 *   changeOpts: (o: any) => void, select: (sel: any, o?: any) => void}} p
 */
export function useUrlState({ doc, tab, opts, selection, setTab, changeOpts, select }) {
  const restored = useRef(/** @type {any} */ (null));
  // the hash this page last wrote: any other one came from outside (a link, a reload, a paste)
  const written = useRef('');
  // true while the hash holds the state of a file other than the open one
  const held = useRef(false);
  const latest = useRef({ doc, changeOpts, select, setTab, selection });
  latest.current = { doc, changeOpts, select, setTab, selection };
  // the hash's record row, kept until the document's record table has arrived (client.js 'tables')
  const rowDue = useRef(/** @type {{doc: any, row: number} | null} */ (null));

  /** Applies the hash's state to the open document when it was made for it; else holds it. */
  const applyHash = () => {
    const { doc: d, changeOpts: change, select: pick, setTab: show } = latest.current;
    if (!d) return;
    const st = readHashState();
    if (!st) {
      held.current = false;
      return;
    }
    if (st.k !== d.key) {
      // ours (the previous file's state): the new file overwrites it; from outside: held
      held.current = location.hash !== written.current;
      return;
    }
    held.current = false;
    applyState(st, d, { setTab: show, changeOpts: change });
    rowDue.current = Number.isInteger(st.row) && st.row >= 0 ? { doc: d, row: st.row } : null;
    selectDueRow();
  };
  const selectDueRow = () => {
    const due = rowDue.current;
    const d = latest.current.doc;
    if (!due || due.doc !== d || !d.records) return;
    rowDue.current = null;
    // (a selection made meanwhile wins: the link's row is dropped, not jumped to)
    if (!latest.current.selection && due.row < d.records.offsets.length) latest.current.select({ type: 'record', row: due.row }, { reveal: true });
  };
  useEffect(selectDueRow, [doc, doc?.records]);

  // restore first (this effect runs before the writer below on the document's first render)
  useEffect(() => {
    if (!doc || restored.current === doc) return;
    restored.current = doc;
    applyHash();
  }, [doc, changeOpts, select]);
  // a link pasted into this tab's address bar
  useEffect(() => {
    const onHash = () => {
      if (location.hash !== written.current) applyHash();
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (!doc || held.current) return;
    // (a link's row waiting for the record table stays in the hash, until the person selects something)
    if (selection && rowDue.current) rowDue.current = null;
    const due = rowDue.current && rowDue.current.doc === doc ? rowDue.current.row : -1;
    const row = selection && selection.row != null ? selection.row : due;
    const st = { k: doc.key, tab, opts: { ...opts, transforms: opts.transforms }, row };
    const h = '#s=' + encodeURIComponent(JSON.stringify(st));
    written.current = h;
    if (location.hash !== h) history.replaceState(null, '', location.pathname + location.search + h);
  }, [doc, tab, opts, selection]);
}

/**
 * The hash's tab and analysis options (its record row is selected once the record table is in).
 * @param {any} st the hash's state
 * @param {any} doc the document it was made for
 * @param {{setTab: (t: string) => void, changeOpts: (o: any) => void}} f
 */
function applyState(st, doc, { setTab, changeOpts }) {
  if (typeof st.tab === 'string') setTab(st.tab);
  if (st.opts && typeof st.opts === 'object') {
    const base = defaultOpts(doc.defaultEvent ?? 0, doc);
    const filter = { ...base.filter, ...(st.opts.filter || {}) };
    const threads = doc.threads?.length ?? Infinity;
    filter.threads = Array.isArray(filter.threads) ? filter.threads.filter((t) => Number.isInteger(t) && t >= 0 && t < threads) : [];
    changeOpts({ ...base, ...st.opts, transforms: Array.isArray(st.opts.transforms) ? st.opts.transforms : [], filter });
  }
}

export function readHashState() {
  const m = /^#s=(.*)$/.exec(location.hash);
  if (!m) return null;
  try {
    const st = JSON.parse(decodeURIComponent(m[1]));
    return st && typeof st === 'object' ? st : null;
  } catch {
    return null;
  }
}
