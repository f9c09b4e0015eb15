// Decoding worker: owns the WASM module and one Session at a time.
//
// Page -> worker:
//   {type:'open', file: File|Blob, name}
//   {type:'fields', id, row}        -> {type:'fields', id, row, label, fields}
//   {type:'labels', id, rows:[..]}  -> {type:'labels', id, rows, labels}
//   {type:'recordAt', id, offset}   -> {type:'recordAt', id, offset, row}
// Worker -> page:
//   {type:'progress', done, total}  (throttled)
//   {type:'decoded', ...}           (every typed array transferred)
//   {type:'error', id?, message}
// Cancel: the page terminates this worker and starts a new one.
import createProfscope from '@profscope-wasm/profscope_wasm.mjs';
import wasmUrl from '@profscope-wasm/profscope_wasm.wasm?url';
import { buildRecordIndex } from './record-index.js';
import { functionTotals } from '../views/functions/function-table.js';
import {
  buildLanes,
  callchainSlot,
  frameAddressFor,
  layoutFlame,
  samplesOf,
  searchFuncs,
} from './analysis.js';

/** @type {Promise<any> | null} */
let modulePromise = null;
/** @type {any} */
let mod = null;
/** @type {any} */
let session = null;
/** analysis state of the open file: ctx (coreContext()), the last analysis and its options */
let actx = null;
let lastTree = null;
let lastOpts = null;

function getModule() {
  if (!modulePromise) {
    modulePromise = createProfscope({
      locateFile: (path, prefix) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    }).then((m) => {
      mod = m;
      return m;
    });
    modulePromise.catch(() => {
      modulePromise = null;
    });
  }
  return modulePromise;
}

/** Turns whatever the module threw into a message. */
function errorMessage(err) {
  if (err == null) return 'unknown error';
  if (typeof err === 'number' || typeof err === 'bigint') {
    // A C++ exception pointer (no JS exception support in the build).
    try {
      if (mod && typeof mod.getExceptionMessage === 'function') {
        const m = mod.getExceptionMessage(err);
        return Array.isArray(m) ? m.filter(Boolean).join(': ') : String(m);
      }
    } catch {
      /* fall through */
    }
    return `decoder error (C++ exception ${err})`;
  }
  if (err instanceof Error) return err.message || String(err);
  if (typeof err === 'object' && 'message' in err) return String(err.message);
  return String(err);
}

function parseJson(text, fallback) {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function closeSession() {
  if (session) {
    try {
      session.delete();
    } catch {
      /* already deleted */
    }
    session = null;
  }
}

/** read(offset, length) over a File/Blob with FileReaderSync. */
function readerOf(file) {
  const size = file.size;
  const reader = new FileReaderSync();
  return (offset, length) => {
    const start = Math.max(0, Math.min(Number(offset), size));
    const end = Math.max(start, Math.min(start + Number(length), size));
    if (end <= start) return new Uint8Array(0);
    return new Uint8Array(reader.readAsArrayBuffer(file.slice(start, end)));
  };
}

async function open({ file, name, dataFiles = [], sideFiles = [], options = {} }) {
  const m = await getModule();
  closeSession();
  const size = file.size;
  const read = readerOf(file);
  session = new m.Session(read, size, name || file.name || 'file');
  // perf --threads data.N files (in order) and side files (ELF, jitdump, XRay map), before decode()
  for (const d of dataFiles) {
    session.addDataFile(readerOf(d.file), d.file.size, String(d.name));
  }
  for (const d of sideFiles) {
    session.addSideFile(readerOf(d.file), d.file.size, String(d.name));
  }

  // decoder options (gperftools: pprof's PC adjustments), applied by decode()
  for (const [k, v] of Object.entries(options || {})) {
    session.setOption(String(k), String(v));
  }
  let lastPost = 0;
  const progress = (done, total) => {
    const now = Date.now();
    if (now - lastPost >= 50 || done >= total) {
      lastPost = now;
      self.postMessage({ type: 'progress', done: Number(done), total: Number(total) });
    }
  };
  self.postMessage({ type: 'progress', done: 0, total: size });
  const ok = session.decode(progress);
  self.postMessage({ type: 'progress', done: size, total: size });

  const s = session;
  const summaryText = s.summaryJson();
  const summary = parseJson(summaryText, {});
  const diagnostics = parseJson(s.diagnosticsJson(), []);
  const events = parseJson(s.eventsJson(), []);
  const threads = parseJson(s.threadsJson(), []);
  const mappings = parseJson(s.mappingsJson(), []);
  const strings = parseJson(s.stringsJson(), []);

  const records = {
    offsets: s.recordOffsets(),
    sizes: s.recordSizes(),
    types: s.recordTypes(),
    kinds: s.recordKinds(),
    parents: s.recordParents(),
  };
  const index = buildRecordIndex(records);

  const profile = {
    funcNames: s.funcNames(),
    funcMappings: s.funcMappings(),
    frameAddresses: s.frameAddresses(),
    frameFuncs: s.frameFuncs(),
    frameMappings: s.frameMappings(),
    stackFrames: s.stackFrames(),
    stackPrefixes: s.stackPrefixes(),
    sampleTimes: s.sampleTimes(),
    sampleThreads: s.sampleThreads(),
    sampleCpus: s.sampleCpus(),
    sampleEvents: s.sampleEvents(),
    sampleWeights: s.sampleWeights(),
    sampleStacks: s.sampleStacks(),
    sampleRecords: s.sampleRecords(),
    sampleCounts: s.sampleCounts(),
  };
  // Times: every getter returns times minus timeOrigin() (XRay TSCs exceed 2^53); tracers
  // count in ticks, which become ns here with the file's cycle frequency.
  const timing = timeBase(s, summary, summaryText);
  scaleTimes(profile.sampleTimes, timing.scale);
  // events: those the file names, or as many as the samples use
  const eventCount = Math.max(events.length, maxPlusOne(profile.sampleEvents));
  // samples per event (rows times their counts): the filter bar's counts and the default event
  const eventTotals = new Float64Array(eventCount);
  for (let i = 0; i < profile.sampleEvents.length; i++) {
    const e = profile.sampleEvents[i];
    if (e >= 0 && e < eventCount) eventTotals[e] += profile.sampleCounts.length ? profile.sampleCounts[i] : 1;
  }

  // analysis views: the worker keeps its own copy of the profile columns (the getters
  // return fresh arrays; the page's copy is transferred away)
  const own = {};
  for (const k of Object.keys(profile)) own[k] = profile[k].slice();
  actx = coreContext(s, own, strings, timing.scale);
  const lanes = buildLanes(own, threads.length);
  // per-CPU lanes when the file has CPUs (sample_type CPU)
  let maxCpu = -1;
  for (let i = 0; i < own.sampleCpus.length; i++) if (own.sampleCpus[i] > maxCpu) maxCpu = own.sampleCpus[i];
  const cpuLanes = maxCpu >= 0 && maxCpu < 65536 ? buildLanes(own, maxCpu + 1, 'sampleCpus').filter((l) => l.thread >= 0) : [];
  const markers = coreMarkers(s, strings, timing.scale);
  const intervals = collectIntervals(s, actx, timing.scale);
  const account = parseJson(s.accountJson(), []);
  const funcSources = collectFuncSources(s, actx, strings);
  const composition = compose(s, records);
  let defaultEvent = 0;
  for (let e = 0; e < eventCount; e++) if (eventTotals[e] > eventTotals[defaultEvent]) defaultEvent = e;
  const analysis = runAnalysis({ filter: { event: eventCount ? defaultEvent : -1 }, transforms: [], invert: false });

  const msg = {
    type: 'decoded',
    ok: ok !== false,
    name,
    size,
    version: m.version(),
    dataFileNames: dataFiles.map((d) => String(d.name)),
    sideFileNames: sideFiles.map((d) => String(d.name)),
    options: { ...(options || {}) },
    summary,
    diagnostics,
    events,
    threads,
    mappings,
    strings,
    records,
    index,
    profile,
    eventTotals,
    lanes,
    cpuLanes,
    markers,
    intervals,
    account,
    funcSources,
    composition,
    timing,
    defaultEvent,
    analysis,
    heapBytes: (m.HEAP8 ?? m.HEAPU8)?.buffer.byteLength ?? 0, // WASM linear memory after decoding (bench)
  };
  self.postMessage(msg, transferables(msg));
}

function maxPlusOne(arr) {
  let mx = -1;
  for (let i = 0; i < arr.length; i++) if (arr[i] > mx) mx = arr[i];
  return mx + 1;
}

/** Every distinct ArrayBuffer under obj (typed arrays only). */
function transferables(obj) {
  const set = new Set();
  const walk = (v) => {
    if (!v || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && v.buffer.byteLength > 0) set.add(v.buffer);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === 'object') walk(x);
      return;
    }
    for (const k of Object.keys(v)) walk(v[k]);
  };
  walk(obj.records);
  walk(obj.index);
  walk(obj.profile);
  walk(obj.eventTotals);
  walk(obj.lanes);
  walk(obj.cpuLanes);
  walk(obj.markers);
  walk(obj.intervals);
  walk(obj.analysis);
  walk(obj.sandwich);
  return [...set];
}

/**
 * The time base of the file: origin (decimal text, subtracted by the module), scale (ns per
 * unit: 1 for perf/jitdump ns, 1e9/frequency for XRay TSC ticks), and the relative start/end.
 */
function timeBase(s, summary, raw) {
  const origin = String(s.timeOrigin());
  const freq = Number(summary?.facts?.['cycle frequency']);
  const scale = summary?.format === 'xray' && freq > 0 ? 1e9 / freq : 1;
  // exact relative span from the JSON text (the parsed numbers may have lost low bits)
  const rel = (key) => {
    const m = new RegExp(`"${key}":(\\d+)`).exec(raw);
    if (!m || m[1] === '0') return 0;
    try {
      return Number(BigInt(m[1]) - BigInt(origin)) * scale;
    } catch {
      return 0;
    }
  };
  return { origin, scale, start: rel('time_start'), end: rel('time_end'), unit: scale === 1 ? 'ns' : 'ticks' };
}

function scaleTimes(arr, scale) {
  if (scale !== 1) for (let i = 0; i < arr.length; i++) arr[i] *= scale;
  return arr;
}

/** The core's markers (perf MMAP/COMM/..., jitdump code loads, XRay custom events). */
function coreMarkers(s, strings, scale) {
  const time = scaleTimes(s.markerTimes(), scale);
  const kindIds = s.markerKinds();
  const labelIds = s.markerLabels();
  const str = (id) => (id >= 0 && id < strings.length ? String(strings[id]) : '');
  // kinds as a small table (index per marker), labels looked up by string id on the page
  const kindIndex = new Map();
  const kindNames = [];
  const kind = new Int32Array(time.length);
  for (let i = 0; i < time.length; i++) {
    let k = kindIndex.get(kindIds[i]);
    if (k === undefined) {
      k = kindNames.length;
      kindNames.push(str(kindIds[i]));
      kindIndex.set(kindIds[i], k);
    }
    kind[i] = k;
  }
  return { rows: s.markerRecords(), time, thread: s.markerThreads(), cpu: s.markerCpus(), kind, kindNames, label: labelIds, more: 0 };
}

/** Exact calls (XRay enter/exit pairs) with canonical funcs (the analysis' names); null when none. */
function collectIntervals(s, ctx, scale) {
  const start = scaleTimes(s.intervalStarts(), scale);
  if (start.length === 0) return null;
  const end = scaleTimes(s.intervalEnds(), scale);
  const func = s.intervalFuncs();
  for (let i = 0; i < func.length; i++) func[i] = func[i] >= 0 && func[i] < ctx.canon.length ? ctx.canon[func[i]] : -1;
  return { thread: s.intervalThreads(), func, start, end, depth: s.intervalDepths(), record: s.intervalRecords() };
}

/**
 * Bytes and counts per record kind and per feature section, for the composition dashboard:
 * [{label, kind, type, count, bytes, nested, first}] sorted by bytes (first = the group's first row) (nested = inside a decompressed
 * COMPRESSED stream, so not file bytes). One label per (kind, type), from its first row.
 */
function compose(s, records) {
  const { kinds, types, sizes, parents } = records;
  const groups = new Map();
  for (let r = 0; r < kinds.length; r++) {
    const k = kinds[r];
    // containers (data section, feature table) would count their children twice
    if (k === 4 || k === 6) continue;
    if (k === 5 && parents[r] >= 0 && kinds[parents[r]] === 5) continue; // pieces inside a record
    const key = k * 4294967296 + types[r];
    let g = groups.get(key);
    if (!g) {
      let label = String(s.recordLabel(r));
      const first = label.split(' ')[0];
      if ((k === 5 || k === 9) && /^[A-Z][A-Z0-9_]+$/.test(first)) label = first;
      g = { label, kind: k, type: types[r], count: 0, bytes: 0, nested: k === 9, first: r };
      groups.set(key, g);
    }
    g.count++;
    g.bytes += sizes[r];
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count);
}

/** Canonical func -> "file:line" (jitdump DEBUG_INFO), the first source of any of its frames. */
function collectFuncSources(s, ctx, strings) {
  const frames = s.frameSourceFrames();
  const srcs = s.frameSourceStrings();
  const ff = ctx.profile.frameFuncs;
  const out = {};
  for (let i = 0; i < frames.length; i++) {
    const f = ff[frames[i]];
    if (f == null || f < 0) continue;
    const c = ctx.canon[f];
    if (!(c in out)) out[c] = String(strings[srcs[i]] ?? '');
  }
  return out;
}

/** Labels of every row, made once per open file on the first record search. */
let allLabels = null;
let allLabelsSession = null;

/** Rows matching a record search: label substring (case-insensitive), /regex/flags, or exact 0x offset. */
function searchRecords(s, query) {
  if (allLabelsSession !== s) {
    const n = s.recordCount();
    allLabels = new Array(n);
    for (let r = 0; r < n; r++) allLabels[r] = String(s.recordLabel(r));
    allLabelsSession = s;
  }
  let test;
  const re = /^\/(.+)\/([a-z]*)$/.exec(query);
  if (re) {
    const rx = new RegExp(re[1], re[2].replace(/[gy]/g, ''));
    test = (label) => rx.test(label);
  } else {
    const q = query.toLowerCase();
    test = (label) => label.toLowerCase().includes(q);
  }
  const off = /^0x[0-9a-f]+$/i.test(query) ? Number(query) : -1;
  const offsets = off >= 0 ? s.recordOffsets() : null;
  const out = [];
  for (let r = 0; r < allLabels.length; r++) if (test(allLabels[r]) || (offsets && offsets[r] === off)) out.push(r);
  return Int32Array.from(out);
}

/**
 * The analysis context of the open file. Aggregation runs in the core (CallTreeBuilder through
 * session.analyze), so the context takes the core's canonical functions (merged by name) and
 * their names; ids agree everywhere. (analysis.js's prepare()/analyze() stay as the JavaScript
 * reference the node tests compare the core with.)
 */
function coreContext(s, profile, strings, scale) {
  const ids = s.analysisNameIds();
  const extra = parseJson(s.analysisExtraNamesJson(), {});
  const names = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) names[i] = ids[i] >= 0 ? String(strings[ids[i]] ?? '') : String(extra[i] ?? '[unknown]');
  const canon = s.analysisCanon();
  const unknown = names.lastIndexOf('[unknown]');
  const { stackFrames, frameFuncs } = profile;
  return {
    profile,
    names,
    canon,
    nCanon: names.length,
    core: { session: s, scale },
    // canonical function of a stack node's frame (frameAddressFor)
    stackCanon(st) {
      const fr = stackFrames[st];
      const f = fr >= 0 && fr < frameFuncs.length ? frameFuncs[fr] : -1;
      return f >= 0 && f < canon.length ? canon[f] : unknown;
    },
  };
}

/** The core's call tree for opts (times back to the module's units); names may grow ([lib] pseudo functions). */
function coreAnalyze(ctx, opts) {
  const { session: s, scale } = ctx.core;
  const f = opts.filter || {};
  const filter = { event: f.event ?? -1, threads: f.threads || [], cpus: f.cpus || [] };
  if (f.t0 != null) filter.t0 = f.t0 / scale;
  if (f.t1 != null) filter.t1 = f.t1 / scale;
  const o = { filter, transforms: opts.transforms || [], invert: !!opts.invert };
  if (opts.sandwich) o.sandwich = opts.sandwich;
  const tree = s.analyze(o);
  // pseudo functions of collapse-library transforms are appended to the core's names
  const ids = s.analysisNameIds();
  if (ids.length > ctx.names.length) {
    const extra = parseJson(s.analysisExtraNamesJson(), {});
    for (let i = ctx.names.length; i < ids.length; i++) ctx.names.push(String(extra[i] ?? ''));
    ctx.nCanon = ctx.names.length;
  }
  return tree;
}

/** Aggregation of the filtered, transformed samples (+ flame layout and search matches). */
function runAnalysis(opts) {
  const t0 = performance.now();
  const tree = coreAnalyze(actx, opts);
  lastTree = tree;
  lastOpts = opts;
  const layout = layoutFlame(tree, actx.names, opts.filter?.event ?? 0);
  const matches = searchFuncs(actx.names, opts.search || '');
  return {
    // copies: the worker keeps lastTree for samplesOf/slot, the page gets transferred copies
    tree: { parent: tree.parent.slice(), func: tree.func.slice(), depth: tree.depth.slice(), self: tree.self.slice(), total: tree.total.slice(), count: tree.count },
    sampleNode: tree.sampleNode.slice(),
    samples: tree.samples,
    layout,
    names: actx.names.slice(),
    matches,
    opts,
    ms: performance.now() - t0,
  };
}

function requireAnalysis() {
  if (!actx || !lastTree) throw new Error('no file is open');
}

function requireSession() {
  if (!session) throw new Error('no file is open');
  return session;
}

self.onmessage = async (e) => {
  const msg = e.data || {};
  try {
    switch (msg.type) {
      case 'open':
        await open(msg);
        break;
      case 'fields': {
        const s = requireSession();
        const fields = parseJson(s.recordFieldsJson(msg.row), []);
        const label = s.recordLabel(msg.row);
        self.postMessage({ type: 'fields', id: msg.id, row: msg.row, label, fields });
        break;
      }
      case 'labels': {
        const s = requireSession();
        const rows = msg.rows || [];
        const labels = rows.map((r) => s.recordLabel(r));
        self.postMessage({ type: 'labels', id: msg.id, rows, labels });
        break;
      }
      case 'searchRecords': {
        const s = requireSession();
        const rows = searchRecords(s, String(msg.query || ''));
        self.postMessage({ type: 'searchRecords', id: msg.id, rows }, [rows.buffer]);
        break;
      }
      case 'recordAt': {
        const s = requireSession();
        self.postMessage({ type: 'recordAt', id: msg.id, offset: msg.offset, row: s.recordAt(msg.offset) });
        break;
      }
      case 'analyze': {
        requireAnalysis();
        const analysis = runAnalysis(msg.opts || {});
        const out = { type: 'analyze', id: msg.id, analysis };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'sandwich': {
        requireAnalysis();
        const so = msg.opts || lastOpts || {};
        const sw = {
          callers: coreAnalyze(actx, { ...so, sandwich: { mode: 'callers', func: msg.func } }),
          callees: coreAnalyze(actx, { ...so, sandwich: { mode: 'callees', func: msg.func } }),
        };
        const pack = (t) => ({ parent: t.parent, func: t.func, depth: t.depth, self: t.self, total: t.total, count: t.count });
        const out = { type: 'sandwich', id: msg.id, func: msg.func, sandwich: { callers: pack(sw.callers), callees: pack(sw.callees) }, names: actx.names.slice() };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'functionTotals': {
        // O(nodes x depth): done here, not on the page, and only when the Functions table asks
        requireAnalysis();
        const t = functionTotals(lastTree, actx.names.length);
        self.postMessage({ type: 'functionTotals', id: msg.id, self: t.self, total: t.total }, [t.self.buffer, t.total.buffer]);
        break;
      }
      case 'samplesOf': {
        requireAnalysis();
        const samples = samplesOf(lastTree, msg.node);
        const out = { type: 'samplesOf', id: msg.id, node: msg.node, samples };
        self.postMessage(out, [samples.buffer]);
        break;
      }
      case 'slot': {
        // the callchain slot of call node `node` in sample `sample` (its record's bytes)
        requireAnalysis();
        const s = requireSession();
        const row = actx.profile.sampleRecords[msg.sample];
        const plain = !(lastOpts?.transforms?.length) && !lastOpts?.invert;
        const addr = frameAddressFor(actx, lastTree, msg.sample, msg.node, plain);
        const fields = row >= 0 ? parseJson(s.recordFieldsJson(row), []) : [];
        const slot = addr == null ? null : callchainSlot(fields, addr);
        self.postMessage({ type: 'slot', id: msg.id, sample: msg.sample, row, address: addr, slot, fields, label: row >= 0 ? s.recordLabel(row) : '' });
        break;
      }
      default:
        throw new Error(`unknown request ${String(msg.type)}`);
    }
  } catch (err) {
    self.postMessage({ type: 'error', id: msg.id, request: msg.type, message: errorMessage(err) });
  }
};
