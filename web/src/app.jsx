// profscope page: opens a profiler file in the decoding worker and shows its
// summary, record tree, hex view, flame graph and diagnostics. Nothing is uploaded.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DecoderClient } from './worker/client.js';
import { ByteSource } from './lib/byte-source.js';
import { fallbackLabel, fileRow, findRowAt, RecordKind } from './lib/records.js';
import { formatBytes, formatPercent } from './lib/format.js';
import { fieldAtPath } from './views/record-tree/tree-model.js';
import { HexView } from './views/hex-view/hex-view.jsx';
import { RecordTree } from './views/record-tree/record-tree.jsx';
import { FlameGraph } from './views/flame-graph/flame-graph.jsx';
import { Diagnostics } from './views/diagnostics/diagnostics.jsx';
import { Summary } from './views/summary/summary.jsx';
import { FlameChart } from './views/flame-chart/flame-chart.jsx';
import { CallTree } from './views/call-tree/call-tree.jsx';
import { AnalysisBar, SamplesStrip, describeTransform } from './views/analysis/analysis-bar.jsx';
import { KeyMap } from './views/analysis/keymap.jsx';
import { Functions } from './views/functions/functions.jsx';
import { Composition } from './views/composition/composition.jsx';
import { DecoderOptions } from './views/analysis/decoder-options.jsx';
import { droppedFiles, planFiles } from './lib/multi-file.js';
import { getTheme, setTheme } from './lib/theme.js';

export const SAMPLE_URL = 'samples/calltree.perf.data';
export const SAMPLE_NAME = 'calltree.perf.data';
// The recorded program, opened with the sample as a side file so its frames carry function names.
export const SAMPLE_BINARY_URL = 'samples/calltree';
const PARAMS = new URLSearchParams(location.search);
const EMBED = PARAMS.get('embed') === '1';
const URL_PARAM = PARAMS.get('url') || '';

function nameFromUrl(u) {
  try {
    const p = new URL(u, location.href).pathname;
    return decodeURIComponent(p.slice(p.lastIndexOf('/') + 1)) || 'profile';
  } catch {
    return 'profile';
  }
}

/**
 * Origins whose profscope:* messages are obeyed: this page's own origin, those listed in
 * ?origins=a,b (exact origins, or * for any), and window.PROFSCOPE_ALLOWED_ORIGINS
 * (an array a deployment can set in a script before the app).
 */
function allowedOrigins() {
  const set = new Set([location.origin]);
  for (const o of (PARAMS.get('origins') || '').split(',')) if (o.trim()) set.add(o.trim());
  const g = /** @type {any} */ (window).PROFSCOPE_ALLOWED_ORIGINS;
  if (Array.isArray(g)) for (const o of g) set.add(String(o));
  return set;
}

// The views below the panes, in number-key order (1-7).
const TABS = [
  ['flame', 'Flame graph'],
  ['chart', 'Flame chart'],
  ['calltree', 'Call tree'],
  ['sandwich', 'Sandwich'],
  ['functions', 'Functions'],
  ['composition', 'Composition'],
  ['diag', 'Diagnostics'],
];

export function App() {
  const client = useMemo(() => new DecoderClient(), []);
  const [status, setStatus] = useState(/** @type {'idle'|'loading'|'decoding'|'ready'|'error'|'cancelled'} */ ('idle'));
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [pendingName, setPendingName] = useState('');
  const [error, setError] = useState('');
  const [doc, setDoc] = useState(/** @type {any} */ (null));
  const [source, setSource] = useState(/** @type {ByteSource | null} */ (null));
  const [selection, setSelection] = useState(/** @type {any} */ (null));
  const [cursor, setCursor] = useState(-1);
  const [revealNonce, setRevealNonce] = useState(0);
  const [scrollNonce, setScrollNonce] = useState(0);
  const [tab, setTab] = useState('flame');
  const [diagSelected, setDiagSelected] = useState(-1);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef(null);
  const openSeq = useRef(0);
  // analysis views: options sent to the worker, its answer, linked selection
  const [opts, setOpts] = useState(defaultOpts(0));
  const [undone, setUndone] = useState(/** @type {any[]} */ ([]));
  const [analysis, setAnalysis] = useState(/** @type {any} */ (null));
  const [analyzing, setAnalyzing] = useState(false);
  const [selNode, setSelNode] = useState(-1);
  const [hoverNode, setHoverNode] = useState(-1); // the call node under the pointer in any view
  const [frameSamples, setFrameSamples] = useState(/** @type {{node:number, samples:Int32Array, k:number, slot:any}|null} */ (null));
  const [sandwich, setSandwich] = useState(/** @type {any} */ (null));
  const [showKeys, setShowKeys] = useState(false);
  const searchRef = useRef(null);
  const chartApi = useRef(null);
  const analyzeSeq = useRef(0);

  const openFile = useCallback(
    async (file, name, extras = {}) => {
      const seq = ++openSeq.current;
      setPendingName(extras.label || name);
      setStatus('decoding');
      setError('');
      setProgress({ done: 0, total: file.size });
      // the bytes are shown at once, read straight from the File; records, shading and views
      // follow when the worker has decoded
      const src = new ByteSource(file);
      setDoc(null);
      setAnalysis(null);
      setSelection(null);
      setCursor(-1);
      setSource(src);
      try {
        const msg = await client.open(file, name, {
          dataFiles: (extras.dataFiles || []).map((f) => ({ file: f, name: f.name })),
          sideFiles: (extras.sideFiles || []).map((f) => ({ file: f, name: f.name })),
          options: extras.options || {},
          onProgress: (done, total) => {
            if (seq === openSeq.current) setProgress({ done, total });
          },
        });
        if (seq !== openSeq.current) return;
        const key = await fileKey(file, name);
        if (seq !== openSeq.current) return;
        const next = { ...msg, file, name: extras.label || name, key, extras: { ...extras, label: extras.label || name, openName: name }, fieldsCache: new Map(), labels: new Map() };
        setDoc(next);
        setAnalysis(msg.analysis || null);
        setOpts(defaultOpts(msg.defaultEvent ?? 0));
        setUndone([]);
        setSelNode(-1);
        setFrameSamples(null);
        setSandwich(null);
        setSource(src);
        setSelection(null);
        setCursor(-1);
        setDiagSelected(-1);
        setStatus('ready');
        const hasErrors = (msg.diagnostics || []).some((d) => /error|fatal/i.test(String(d.severity)));
        setTab(hasErrors || !msg.ok ? 'diag' : 'flame');
        restoreFor.current = key;
        return { ok: msg.ok !== false, summary: msg.summary, diagnostics: (msg.diagnostics || []).length };
      } catch (err) {
        if (seq !== openSeq.current) return { error: 'superseded by another file' };
        if (err && err.cancelled) {
          setStatus('cancelled');
          setDoc(null);
          setSource(null);
          return { error: 'cancelled' };
        }
        setDoc(null);
        setSource(null);
        setError(err?.message || String(err));
        setStatus('error');
        return { error: err?.message || String(err) };
      }
    },
    [client],
  );

  /** Several files (a dropped folder, a multi-selection): the profile, its data.N files, side files. */
  const openFiles = useCallback(
    (files) => {
      const plan = planFiles(Array.from(files));
      if (!plan.main) return;
      const extra = plan.dataFiles.length + plan.sideFiles.length;
      const label = extra ? `${plan.main.name} (+${extra} file${extra === 1 ? '' : 's'})` : plan.main.name;
      openFile(plan.main, plan.main.name, { label, dataFiles: plan.dataFiles, sideFiles: plan.sideFiles });
    },
    [openFile],
  );

  const cancel = () => {
    openSeq.current++;
    client.stop();
    setStatus('cancelled');
    setDoc(null);
    setSource(null);
  };

  // the bundled sample, from the page's own origin, when no file was given;
  // ?url=… loads that file instead; ?embed=1 waits for the host's profscope:open
  useEffect(() => {
    let stop = false;
    if (EMBED && !URL_PARAM) return undefined;
    const url = URL_PARAM || SAMPLE_URL;
    const name = URL_PARAM ? nameFromUrl(URL_PARAM) : SAMPLE_NAME;
    setStatus('loading');
    setPendingName(name);
    fetch(url)
      .catch((err) => {
        throw new Error(
          URL_PARAM
            ? `could not fetch ${url} (${err.message || err}); the server must allow this page's origin (CORS) and be reachable`
            : err.message || String(err),
        );
      })
      .then((r) => {
        if (!r.ok) throw new Error(URL_PARAM ? `${url} answered HTTP ${r.status}` : `could not load the sample (${r.status})`);
        return r.blob();
      })
      .then(async (blob) => {
        let sideFiles = [];
        if (!URL_PARAM) {
          // best effort: without the binary the sample still opens, with path+offset names
          const bin = await fetch(SAMPLE_BINARY_URL).then((r) => (r.ok ? r.blob() : null)).catch(() => null);
          if (bin) sideFiles = [new File([bin], 'calltree')];
        }
        if (stop || openSeq.current !== 0) return;
        if (sideFiles.length) openFile(new File([blob], name), name, { label: `${name} (+1 file)`, dataFiles: [], sideFiles });
        else openFile(new File([blob], name), name);
      })
      .catch((err) => {
        if (!stop && openSeq.current === 0) {
          setError(err.message || String(err));
          setStatus('error');
        }
      });
    return () => {
      stop = true;
    };
  }, [openFile]);

  useEffect(() => () => client.stop(), [client]);

  // ---- embedding: postMessage API (see docs/EMBEDDING.md)
  useEffect(() => {
    if (window.parent === window) return undefined;
    const allowed = allowedOrigins();
    const onMessage = async (e) => {
      const d = e.data;
      if (!d || typeof d !== 'object' || typeof d.type !== 'string' || !d.type.startsWith('profscope:')) return;
      if (!allowed.has(e.origin) && !allowed.has('*')) return; // not allowed: ignored
      const reply = (m) => e.source?.postMessage({ ...m, id: d.id }, e.origin === 'null' ? '*' : e.origin);
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

  // drop zone over the whole page
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e) => Array.from(e.dataTransfer?.types || []).includes('Files');
    const onEnter = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const onOver = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      droppedFiles(e.dataTransfer).then((files) => {
        if (files.length) openFiles(files);
      });
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [openFiles]);

  const select = useCallback((sel, opts = {}) => {
    setSelection(sel);
    if (opts.reveal) setRevealNonce((n) => n + 1);
    setScrollNonce((n) => n + 1);
  }, []);

  const onByteClick = useCallback(
    (off) => {
      if (!doc) return;
      setCursor(off);
      const row = findRowAt(doc, off);
      if (row >= 0) {
        select({ type: 'record', row }, { reveal: true });
        // name the field the byte is in (the hex status shows it)
        if (doc.records.kinds[row] !== RecordKind.Nested) {
          const cached = doc.fieldsCache.get(row);
          const named = (fields) => {
            const name = fieldNameAt(fields, off);
            if (name) setSelection((cur) => (cur && cur.type === 'record' && cur.row === row ? { ...cur, inField: name } : cur));
          };
          if (cached) named(cached.fields);
          else
            client
              .fields(row)
              .then((r) => {
                doc.fieldsCache.set(row, { label: r.label, fields: r.fields });
                doc.labels.set(row, r.label);
                named(r.fields);
              })
              .catch(() => {});
        }
      }
      else select({ type: 'bytes', start: off, end: off + 1, label: 'no record covers this byte' });
    },
    [doc, select, client],
  );

  // follow an offset like a link, with a back stack
  const [backStack, setBackStack] = useState(/** @type {number[]} */ ([]));
  const onFollow = useCallback(
    (off) => {
      if (!doc || !(off >= 0 && off < doc.size)) return;
      setBackStack((b) => [...b, cursor >= 0 ? cursor : 0]);
      onByteClick(off);
    },
    [doc, cursor, onByteClick],
  );
  const onBack = useCallback(() => {
    if (!backStack.length) return;
    const off = backStack[backStack.length - 1];
    setBackStack(backStack.slice(0, -1));
    onByteClick(off);
  }, [backStack, onByteClick]);
  // hover a decoded field in the record tree: its bytes light up in the hex view
  const [hoverRange, setHoverRange] = useState(/** @type {{start:number,end:number}|null} */ (null));
  const onTreeHover = useCallback(
    (e) => {
      if (!doc) return;
      const el = e.target.closest?.('.rt-field');
      if (!el) {
        if (hoverRange) setHoverRange(null);
        return;
      }
      const row = Number(el.getAttribute('data-row'));
      if (doc.records.kinds[row] === RecordKind.Nested) return;
      const f = fieldAtPath(doc.fieldsCache.get(row)?.fields || [], el.getAttribute('data-path'));
      if (!f) return;
      const start = Number(f.offset);
      const end = start + Math.max(1, Number(f.size));
      if (!hoverRange || hoverRange.start !== start || hoverRange.end !== end) setHoverRange({ start, end });
    },
    [doc, hoverRange],
  );

  const onPickDiagnostic = useCallback(
    (i, d) => {
      if (!doc) return;
      setDiagSelected(i);
      const size = doc.size;
      const off = Math.max(0, Number(d.offset) || 0);
      const start = Math.min(off, Math.max(0, size - 1));
      const len = Math.max(1, Number(d.length) || 0);
      const end = Math.min(size, Math.max(start + 1, off + len));
      setCursor(start);
      const note = off >= size ? `offset ${'0x' + off.toString(16)} is past the end of the file` : '';
      select({ type: 'bytes', start, end, label: `${String(d.code ?? 'diagnostic')}`, note });
    },
    [doc, select],
  );

  const range = useMemo(() => (doc ? selectionRange(doc, selection) : null), [doc, selection, revealNonce]);

  // ---- analysis: re-aggregate in the worker when the options change
  const restoreFor = useRef('');
  const reanalyze = useCallback(
    async (next) => {
      if (!doc) return;
      const seq = ++analyzeSeq.current;
      setAnalyzing(true);
      try {
        const res = await client.analyze(next);
        if (seq !== analyzeSeq.current) return;
        setAnalysis(res.analysis);
        setSelNode(-1);
        setHoverNode(-1);
        setFrameSamples(null);
        setSandwich(null);
      } catch (err) {
        if (seq === analyzeSeq.current && !err?.cancelled) setError(err?.message || String(err));
      } finally {
        if (seq === analyzeSeq.current) setAnalyzing(false);
      }
    },
    [doc, client],
  );
  const changeOpts = useCallback(
    (next, { keepRedo = false } = {}) => {
      setOpts(next);
      if (!keepRedo) setUndone([]);
      reanalyze(next);
    },
    [reanalyze],
  );
  const pushTransform = useCallback((t) => changeOpts({ ...opts, transforms: [...opts.transforms, t] }), [opts, changeOpts]);
  const undoTransform = useCallback(() => {
    if (!opts.transforms.length) return;
    const last = opts.transforms[opts.transforms.length - 1];
    setUndone([...undone, last]);
    changeOpts({ ...opts, transforms: opts.transforms.slice(0, -1) }, { keepRedo: true });
  }, [opts, undone, changeOpts]);
  const redoTransform = useCallback(() => {
    if (!undone.length) return;
    const t = undone[undone.length - 1];
    setUndone(undone.slice(0, -1));
    changeOpts({ ...opts, transforms: [...opts.transforms, t] }, { keepRedo: true });
  }, [opts, undone, changeOpts]);

  // record row -> sample index (for "select a byte or record: its sample")
  const recordSample = useMemo(() => {
    if (!doc) return null;
    const m = new Int32Array(doc.records.offsets.length).fill(-1);
    const sr = doc.profile.sampleRecords;
    for (let i = 0; i < sr.length; i++) if (sr[i] >= 0 && sr[i] < m.length && m[sr[i]] < 0) m[sr[i]] = i;
    return m;
  }, [doc]);
  const selectedRow = selection && (selection.type === 'record' || selection.type === 'field') ? selection.row : frameSamples && frameSamples.row >= 0 ? frameSamples.row : -1;
  const markedSample = recordSample && selectedRow >= 0 ? recordSample[selectedRow] : -1;
  const marked = useMemo(() => {
    if (!analysis || markedSample < 0) return null;
    const n0 = analysis.sampleNode[markedSample];
    if (n0 < 0) return null;
    const set = new Set();
    for (let n = n0; n >= 0; n = analysis.tree.parent[n]) {
      const li = analysis.layout.layoutOf[n];
      if (li >= 0) set.add(li);
    }
    return set;
  }, [analysis, markedSample]);

  // select a frame: its samples; the hex view jumps to the frame's callchain slot in the first
  const showSample = useCallback(
    async (node, samples, k) => {
      if (!doc || !samples.length) {
        setFrameSamples({ node, samples, k: 0, slot: null, row: -1 });
        return;
      }
      const sample = samples[k];
      setFrameSamples({ node, samples, k, slot: null, row: doc.profile.sampleRecords[sample], pending: true });
      try {
        const r = await client.slot(sample, node);
        doc.fieldsCache.set(r.row, { label: r.label, fields: r.fields });
        doc.labels.set(r.row, r.label);
        setFrameSamples({ node, samples, k, slot: r.slot, row: r.row, address: r.address });
        if (r.slot) {
          setCursor(r.slot.offset);
          select({ type: 'field', row: r.row, path: r.slot.path, name: r.slot.name, offset: r.slot.offset, size: r.slot.size }, { reveal: true });
        } else if (r.row >= 0) {
          select({ type: 'record', row: r.row }, { reveal: true });
        }
      } catch (err) {
        if (!err?.cancelled) setError(err?.message || String(err));
      }
    },
    [doc, client, select],
  );
  const selectNode = useCallback(
    async (node, sample = -1) => {
      setSelNode(node);
      if (node <= 0) {
        setFrameSamples(null);
        return;
      }
      try {
        const r = await client.samplesOf(node);
        let k = 0;
        if (sample >= 0) {
          const at = r.samples.indexOf(sample);
          if (at >= 0) k = at;
        }
        showSample(node, r.samples, k);
      } catch (err) {
        if (!err?.cancelled) setError(err?.message || String(err));
      }
    },
    [client, showSample],
  );
  const stepSample = useCallback(
    (delta) => {
      if (!frameSamples || !frameSamples.samples.length) return;
      const n = frameSamples.samples.length;
      showSample(frameSamples.node, frameSamples.samples, (frameSamples.k + delta + n) % n);
    },
    [frameSamples, showSample],
  );
  const openSandwich = useCallback(
    async (func) => {
      setTab('sandwich');
      try {
        const r = await client.sandwich(opts, func);
        setSandwich({ func, names: r.names, ...r.sandwich });
      } catch (err) {
        if (!err?.cancelled) setError(err?.message || String(err));
      }
    },
    [client, opts],
  );
  const selFunc = analysis && selNode > 0 ? analysis.tree.func[selNode] : -1;
  // a function picked in the Functions table: its heaviest call node
  const pickFunc = useCallback(
    (f) => {
      if (!analysis) return;
      const t = analysis.tree;
      let best = -1;
      for (let n = 1; n < t.func.length; n++) if (t.func[n] === f && (best < 0 || t.total[n] > t.total[best])) best = n;
      if (best > 0) selectNode(best);
    },
    [analysis, selectNode],
  );
  const selPath = useMemo(() => {
    if (!analysis || selNode <= 0) return [];
    const out = [];
    for (let n = selNode; n > 0; n = analysis.tree.parent[n]) out.push(analysis.tree.func[n]);
    return out.reverse();
  }, [analysis, selNode]);
  const selLib = useMemo(() => {
    if (!doc || selFunc < 0 || !analysis) return '';
    // library of the selected function: the mapping of the frame behind it, when known
    const name = analysis.names[selFunc];
    const p = doc.profile;
    for (let f = 0; f < p.funcNames.length; f++) {
      if (doc.strings[p.funcNames[f]] === name) {
        const m = p.funcMappings && f < p.funcMappings.length ? p.funcMappings[f] : -1;
        if (m >= 0 && doc.mappings[m]?.path) return String(doc.mappings[m].path);
      }
    }
    return '';
  }, [doc, analysis, selFunc]);
  const onTransform = useCallback(
    (type) => {
      if (type === 'focus-subtree') pushTransform({ type, path: selPath, label: selPath.map((f) => analysis.names[f]).join(' → ') });
      else if (type === 'collapse-library') pushTransform({ type, lib: selLib });
      else pushTransform({ type, func: selFunc, label: analysis.names[selFunc] });
    },
    [pushTransform, selPath, selLib, selFunc, analysis],
  );

  // ---- keyboard map
  useEffect(() => {
    const onKey = (e) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      const tag = t && t.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
        if (e.key === 'Escape') t.blur();
        return;
      }
      const k = e.key;
      if (k === '?') setShowKeys((v) => !v);
      else if (k === 'Escape' && showKeys) setShowKeys(false);
      else if (/^[1-7]$/.test(k)) setTab(TABS[Number(k) - 1][0]);
      else if (k === '/') searchRef.current?.focus();
      else if (k === 'Backspace') onBackRef.current?.();
      else if ((k === 'j' || k === 'k') && doc) {
        const n = doc.records.offsets.length;
        if (!n) return;
        const cur = selection && selection.row != null ? selection.row : -1;
        const next = k === 'j' ? Math.min(n - 1, cur + 1) : Math.max(0, cur - 1);
        select({ type: 'record', row: next }, { reveal: true });
      } else if (k === 'g' && doc) {
        const text = window.prompt('Go to offset (decimal or 0x hex)', '0x0');
        if (text == null) return;
        const off = Number(text.trim());
        if (!Number.isFinite(off) || off < 0 || off >= doc.size) {
          setError(`offset ${text} is not inside the file (0–${doc.size - 1})`);
          return;
        }
        onByteClickRef.current?.(Math.floor(off));
      } else if (tab === 'chart' && chartApi.current && ['+', '=', '-', '_', '0', 'ArrowLeft', 'ArrowRight', 'a', 'd', 'w', 's', 'W', 'A', 'S', 'D'].includes(k)) {
        chartApi.current.key(k);
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [doc, selection, select, tab, showKeys]);
  const onByteClickRef = useRef(null);
  onByteClickRef.current = onByteClick;
  const onBackRef = useRef(null);
  onBackRef.current = onBack;

  // ---- view state in the URL hash, tied to the file (name, size, hash of its first bytes)
  useEffect(() => {
    if (!doc || restoreFor.current !== doc.key) return;
    restoreFor.current = '';
    const st = readHashState();
    if (!st || st.k !== doc.key) return;
    if (typeof st.tab === 'string') setTab(st.tab);
    if (st.opts && st.opts.filter) {
      const o = { ...defaultOpts(doc.defaultEvent ?? 0), ...st.opts, filter: { ...defaultOpts(doc.defaultEvent ?? 0).filter, ...st.opts.filter } };
      changeOpts(o);
    }
    if (Number.isInteger(st.row) && st.row >= 0 && st.row < doc.records.offsets.length) select({ type: 'record', row: st.row }, { reveal: true });
  }, [doc, changeOpts, select]);
  useEffect(() => {
    if (!doc || restoreFor.current === doc.key) return;
    const row = selection && selection.row != null ? selection.row : -1;
    const st = { k: doc.key, tab, opts: { ...opts, transforms: opts.transforms }, row };
    const h = '#s=' + encodeURIComponent(JSON.stringify(st));
    if (location.hash !== h) history.replaceState(null, '', location.pathname + location.search + h);
  }, [doc, tab, opts, selection]);

  const busy = status === 'decoding' || status === 'loading';
  const pct = progress.total ? formatPercent(progress.done, progress.total) : '';
  const diagCount = doc?.diagnostics?.length ?? 0;

  return (
    <div class={`app${EMBED ? ' embed' : ''}${dragging ? ' dragging' : ''}${busy && doc ? ' stale' : ''}`} aria-busy={busy ? 'true' : 'false'}>
      <header class="topbar">
        <h1 class="brand">profscope</h1>
        <button type="button" class="primary" onClick={() => fileInput.current?.click()}>
          Open file…
        </button>
        <input
          ref={fileInput}
          type="file"
          class="visually-hidden"
          aria-label="Open a profiler file"
          data-testid="file-input"
          multiple
          onChange={(e) => {
            const fs = Array.from(e.currentTarget.files || []);
            if (fs.length) openFiles(fs);
            e.currentTarget.value = '';
          }}
        />
        <span class="file-name" data-testid="file-name" title={doc ? `${doc.name} (${doc.size} bytes)` : ''}>
          {busy ? pendingName : doc ? doc.name : ''}
          {doc && !busy ? <span class="muted"> · {formatBytes(doc.size)}</span> : null}
        </span>
        {busy ? (
          <div class="progress" role="status" aria-label="Decoding progress">
            <progress max={progress.total || 1} value={progress.done} />
            <span class="muted">
              {status === 'loading' ? 'Loading sample…' : `Decoding… ${pct}`}
            </span>
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        ) : null}
        <span class="privacy muted">Decoded in your browser · nothing is uploaded</span>
        <ThemePicker />
        <button type="button" class="keys-btn" onClick={() => setShowKeys(true)} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">
          ?
        </button>
      </header>

      {error ? (
        <div class="banner error" role="alert">
          Could not open {pendingName || 'the file'}: {error}
        </div>
      ) : null}
      {status === 'cancelled' ? (
        <div class="banner" role="status">
          Decoding cancelled. Drop a file or use “Open file…”.
        </div>
      ) : null}

      {doc ? <Summary doc={doc} /> : <div class="summary-placeholder" />}

      <main class="panes">
        <section class="pane tree-pane" aria-label="Records" onMouseOver={onTreeHover} onMouseLeave={() => setHoverRange(null)}>
          {doc ? (
            <RecordTree doc={doc} client={client} selection={selection} revealNonce={revealNonce} onSelect={select} />
          ) : (
            <Empty busy={busy} />
          )}
        </section>
        <section class="pane hex-pane" aria-label="Hex view">
          {source ? (
            <HexView
              doc={doc}
              source={source}
              range={range}
              cursor={cursor}
              scrollNonce={scrollNonce}
              onByteClick={onByteClick}
              onFollow={onFollow}
              onBack={onBack}
              canBack={backStack.length > 0}
              hoverRange={hoverRange}
            />
          ) : (
            <Empty busy={busy} />
          )}
        </section>
      </main>

      <section class="bottom">
        <div class="tabs" role="tablist" aria-label="Views">
          {TABS.map(([id, label], i) => (
            <button type="button" role="tab" key={id} aria-selected={tab === id ? 'true' : 'false'} onClick={() => setTab(id)} title={String(i + 1)}>
              {label}
              {id === 'diag' && doc ? <span class={`count${diagCount ? ' warn' : ''}`}>{diagCount}</span> : null}
            </button>
          ))}
        </div>
        {doc && doc.summary?.format === 'gperftools' && tab !== 'diag' ? (
          <DecoderOptions
            doc={doc}
            busy={busy}
            onChange={(options) => openFile(doc.file, doc.extras?.openName || doc.name, { ...doc.extras, options })}
          />
        ) : null}
        {doc && analysis && tab !== 'diag' && tab !== 'composition' ? (
          <AnalysisBar
            doc={doc}
            opts={opts}
            analysis={analysis}
            analyzing={analyzing}
            onChange={changeOpts}
            onUndo={undoTransform}
            onRedo={redoTransform}
            canRedo={undone.length > 0}
            searchRef={searchRef}
            selName={selFunc >= 0 ? String(analysis.names[selFunc]) : ''}
            selLib={selLib}
            onTransform={onTransform}
            onSandwich={() => selFunc >= 0 && openSandwich(selFunc)}
          />
        ) : null}
        {doc && analysis && frameSamples && tab !== 'diag' ? (
          <SamplesStrip doc={doc} analysis={analysis} info={frameSamples} onStep={stepSample} />
        ) : null}
        {tab === 'flame' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Flame graph">
            {doc ? (
              <FlameGraph
                doc={doc}
                analysis={analysis}
                matches={analysis?.matches}
                marked={marked}
                selectedNode={selNode}
                onSelectNode={selectNode}
                hoverNode={hoverNode}
                onHoverNode={setHoverNode}
              />
            ) : (
              <Empty busy={busy} />
            )}
          </section>
        ) : tab === 'chart' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Flame chart">
            {doc && analysis ? (
              <FlameChart
                doc={doc}
                analysis={analysis}
                matches={analysis.matches}
                markedSample={markedSample}
                selectedNode={selNode}
                onSelectNode={selectNode}
                onSelectRecord={(row) => select({ type: 'record', row }, { reveal: true })}
                hoverNode={hoverNode}
                onHoverNode={setHoverNode}
                range={opts.filter.t0 != null ? { t0: opts.filter.t0, t1: opts.filter.t1 } : null}
                onRange={(t0, t1) => changeOpts({ ...opts, filter: { ...opts.filter, t0, t1 } })}
                apiRef={chartApi}
              />
            ) : (
              <Empty busy={busy} />
            )}
          </section>
        ) : tab === 'calltree' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Call tree">
            {doc && analysis ? (
              <CallTree
                tree={analysis.tree}
                names={analysis.names}
                matches={analysis.matches}
                selectedNode={selNode}
                onSelectNode={selectNode}
                label={opts.invert ? 'Call tree (inverted, bottom-up)' : 'Call tree (top-down)'}
                inverted={opts.invert}
                hoverNode={hoverNode}
                onHoverNode={setHoverNode}
                testid="call-tree"
              />
            ) : (
              <Empty busy={busy} />
            )}
          </section>
        ) : tab === 'sandwich' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Sandwich">
            {doc && analysis ? (
              sandwich ? (
                <div class="sandwich">
                  <div class="sw-title">
                    Sandwich of <b class="mono">{String(sandwich.names[sandwich.func])}</b>
                  </div>
                  <div class="sw-half">
                    <div class="sw-label muted">Callers (who calls it; inverted)</div>
                    <CallTree tree={sandwich.callers} names={sandwich.names} label="Callers" testid="sandwich-callers" inverted />
                  </div>
                  <div class="sw-half">
                    <div class="sw-label muted">Callees (what it calls)</div>
                    <CallTree tree={sandwich.callees} names={sandwich.names} label="Callees" testid="sandwich-callees" />
                  </div>
                </div>
              ) : (
                <div class="placeholder muted">Select a frame in the flame graph, flame chart or call tree, then “Sandwich”.</div>
              )
            ) : (
              <Empty busy={busy} />
            )}
          </section>
        ) : tab === 'functions' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Functions">
            {doc && analysis ? (
              <Functions doc={doc} analysis={analysis} client={client} selectedFunc={selFunc} onPick={pickFunc} onSandwich={openSandwich} />
            ) : (
              <Empty busy={busy} />
            )}
          </section>
        ) : tab === 'composition' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Composition">
            {doc ? <Composition doc={doc} onSelectRecord={(row) => select({ type: 'record', row }, { reveal: true })} /> : <Empty busy={busy} />}
          </section>
        ) : (
          <section class="tabpanel" role="tabpanel" aria-label="Diagnostics">
            {doc ? <Diagnostics diagnostics={doc.diagnostics || []} selected={diagSelected} onPick={onPickDiagnostic} /> : <Empty busy={busy} />}
          </section>
        )}
      </section>

      {showKeys ? <KeyMap onClose={() => setShowKeys(false)} /> : null}
      {dragging ? (
        <div class="drop-overlay" aria-hidden="true">
          <div>Drop a perf.data file to open it</div>
        </div>
      ) : null}
    </div>
  );
}

/** Dotted name of the deepest decoded field covering `off` ("callchain.[3]"), or ''. */
function fieldNameAt(fields, off) {
  let list = fields;
  const names = [];
  for (;;) {
    const f = (list || []).find((x) => off >= Number(x.offset) && off < Number(x.offset) + Math.max(1, Number(x.size)));
    if (!f) break;
    names.push(String(f.name));
    if (!f.children || !f.children.length) break;
    list = f.children;
  }
  return names.join('.');
}

/** "name:size:fnv1a32 of the first 4 KiB" — identifies a file for the URL state. */
export async function fileKey(file, name) {
  let h = 0x811c9dc5;
  try {
    const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
    for (let i = 0; i < head.length; i++) {
      h ^= head[i];
      h = Math.imul(h, 0x01000193);
    }
  } catch {
    /* unreadable: the key is name + size */
  }
  return `${name}:${file.size}:${(h >>> 0).toString(16)}`;
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

function defaultOpts(event) {
  return { filter: { event, threads: [], cpus: [], t0: null, t1: null }, transforms: [], invert: false, search: '' };
}

function ThemePicker() {
  const [t, setT] = useState(getTheme);
  return (
    <select
      aria-label="Theme"
      value={t}
      onChange={(e) => {
        const v = e.currentTarget.value;
        setT(v);
        setTheme(v);
      }}
    >
      <option value="auto">Theme: system</option>
      <option value="light">Theme: light</option>
      <option value="dark">Theme: dark</option>
    </select>
  );
}

function Empty({ busy }) {
  return (
    <div class="placeholder muted">
      {busy ? 'Decoding…' : EMBED ? 'Waiting for a profile from the page that embeds this view.' : 'Drop a perf.data file anywhere, or use “Open file…”.'}
    </div>
  );
}

/** Bytes to highlight for a selection. */
function selectionRange(doc, sel) {
  if (!sel) return null;
  const { offsets, sizes, kinds, types } = doc.records;
  const labelOf = (row) => doc.labels.get(row) ?? fallbackLabel(kinds[row], types[row]);
  if (sel.type === 'bytes') return { start: sel.start, end: sel.end, label: sel.label, note: sel.note };
  if (sel.type === 'record') {
    const r = fileRow(doc, sel.row);
    if (r < 0) return null;
    const nested = r !== sel.row;
    return {
      start: offsets[r],
      end: offsets[r] + sizes[r],
      label: labelOf(sel.row) + (sel.inField ? ` · in field ${sel.inField}` : ''),
      note: nested
        ? `a record at z+0x${offsets[sel.row].toString(16)} of the decompressed stream; showing its ${labelOf(r)} container`
        : '',
    };
  }
  if (sel.type === 'field') {
    if (kinds[sel.row] === RecordKind.Nested) {
      const r = fileRow(doc, sel.row);
      if (r < 0) return null;
      return {
        start: offsets[r],
        end: offsets[r] + sizes[r],
        label: `${labelOf(sel.row)}.${sel.name}`,
        note: 'field of a decompressed record; showing the compressed container',
      };
    }
    const f = fieldAtPath(doc.fieldsCache.get(sel.row)?.fields || [], sel.path);
    const off = Number(f?.offset ?? sel.offset);
    const size = Number(f?.size ?? sel.size);
    return { start: off, end: off + Math.max(1, size), label: `${labelOf(sel.row)} · ${sel.name}` };
  }
  return null;
}
