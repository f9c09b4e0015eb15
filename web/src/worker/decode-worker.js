// @ts-check
// Decoding worker: owns the WASM module and one Session at a time. The main file is decoded in steps
// (streamed-file.js reads it ahead in a second worker); a 'stop' between them ends the decode and what it
// read is answered as 'decoded' (a decoder that does not pause is stopped by the page terminating this
// worker). It reads the session's columns (session-columns.js),
// derives what the views need (derive.js, tables.js), runs the core's aggregation
// (file-analysis.js) and answers the page. Every typed array it posts is transferred.
//
// Page -> worker                                       worker -> page
//   {type:'open', file, name, dataFiles, sideFiles, sideFolders, options}
//                                                      {type:'progress', done, total, samples, records}  (throttled)
//                                                      {type:'decodeOver'}  (the decode is over; the tables follow)
//                                                      {type:'decoded', ...}  (see open() below; records: null)
//                                                      {type:'tables', records, index, typeNames, composition}
//                                                      {type:'timeline', lanes, intervals}
//                                                      {type:'account', account}
//                                                        (the record table and what is made from it, the flame
//                                                        chart's lanes, then XRay's account, right after 'decoded':
//                                                        the flame graph is drawn meanwhile)
//   {type:'stop'}  (Cancel while decoding)             {type:'stopping'} (in steps), then 'decoded' with what was read
//   {type:'fields', id, row}                           {type:'fields', id, row, label, fields}
//   {type:'labels', id, rows}                          {type:'labels', id, rows, labels}
//   {type:'searchRecords', id, query}                  {type:'searchRecords', id, rows: Int32Array}
//   {type:'analyze', id, opts}                         {type:'analyze', id, analysis}
//   {type:'sandwich', id, opts, func}                  {type:'sandwich', id, func, sandwich:{callers, callees}, names}
//   {type:'functionTotals', id}                        {type:'functionTotals', id, self, total}
//   {type:'nodeSamples', id, node, gen}                {type:'nodeSamples', id, node, samples, rows}  (a call node's samples, their records)
//   {type:'sampleNode', id, sample, gen}               {type:'sampleNode', id, sample, node}  (a sample's call node, -1: none)
//   {type:'recordSample', id, row}                     {type:'recordSample', id, row, sample, time, thread}
//   {type:'slot', id, sample, node}                    {type:'slot', id, sample, row, address, slot, fields, label, time}
//   {type:'library', id, func}                         {type:'library', id, func, lib}
//   {type:'cpuLanes', id}                              {type:'cpuLanes', id, lanes}  (the flame chart's lanes per CPU)
//   {type:'flameBoxes', id, rows, t0, t1, cols}        {type:'flameBoxes', id, boxes}  (the exact calls the flame chart draws)
//   {type:'callActivity', id, lanes, t0, t1, cols}     {type:'callActivity', id, activity: Float32Array, cols}  (calls started
//                                                        per column of a tracer's lanes: collapsed strips, the overview)
//   {type:'export', id, format, weight, event}  (format perf-script: `profscope script`)          {type:'export', id, format, bytes: Uint8Array, error}
//   {type:'openCompare', id, file, name, sideFiles}    {type:'openCompare', id, name, ok, format, samples, diagnostics}
//   {type:'compare', id, normalize, swap, event}       {type:'compare', id, model}  (diff-model.js; {error} in model)
//   {type:'closeCompare', id}                          {type:'closeCompare', id}
// Any request that fails is answered {type:'error', id, request, message}.
import createProfscope from '@profscope-wasm/profscope_wasm.mjs';
import wasmUrl from '@profscope-wasm/profscope_wasm.wasm?url';
import { decodeStrings } from '../lib/strings.js';
import { intAt } from '../lib/int-runs.js';
import { parseJson, readFlameBoxes, readKept, readMarkers, recordLabels } from './session-columns.js';
import { makeTables, nextTask } from './tables.js';
import { isModuleFault, moduleFaultMessage } from './module-fault.js';
import { funcInlined, funcSources, heaviestEvent, lanesFrom } from './derive.js';
import { FileAnalysis, ViewError, defaultWeight } from './file-analysis.js';
import { callchainSlot, frameAddressFor } from './record-slot.js';
import { diffModel } from './diff-model.js';
import { readerOf } from './file-reader.js';
import { streamedFiles } from './streamed-file.js';

/** @typedef {import('../../../wasm/profscope').ProfscopeModule} ProfscopeModule */
/** @typedef {import('../../../wasm/profscope').Session} Session */
/** @typedef {{file: Blob, name: string, folder?: string}} NamedFile */

/** @type {Promise<ProfscopeModule> | null} */
let modulePromise = null;
/** @type {ProfscopeModule | null} */
let mod = null;
/** @type {Session | null} */
let session = null;
/**
 * The open file: its analysis and the columns only the worker needs.
 * labels (made on the first record search): each row's label as an index into its distinct labels, so
 * millions of rows (an XRay log's function records) cost 4 bytes each, not a string each.
 * @type {{analysis: FileAnalysis, labels: {ids: Uint32Array, names: string[]} | null, format: string, name: string} | null}
 */
let file = null;
/**
 * The second profile of a comparison (Compare tab), decoded beside the open one.
 * @type {{session: Session, name: string} | null}
 */
let other = null;
/** A Cancel ('stop') arrived while a file decodes; wakeDecode ends the decode's wait for bytes. */
let stopRequested = false;
/** The open file is decoding (in steps: other messages are handled between them). */
let decoding = false;
/** @type {(() => void) | null} */
let wakeDecode = null;

function getModule() {
  if (!modulePromise) {
    modulePromise = createProfscope({
      locateFile: (/** @type {string} */ path, /** @type {string} */ prefix) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
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
// The module is compiled as soon as the worker starts: the page keeps a worker ready for the next file
// (client.js), so a dropped file does not wait for it.
getModule().catch(() => {});

/**
 * Turns whatever the module threw into a message.
 * @param {unknown} err
 */
function errorMessage(err) {
  if (err == null) return 'unknown error';
  if (typeof err === 'number' || typeof err === 'bigint') {
    // A C++ exception pointer (no JS exception support in the build).
    try {
      if (mod && typeof mod.getExceptionMessage === 'function') {
        const m = mod.getExceptionMessage(Number(err));
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

function closeOther() {
  if (other) {
    try {
      other.session.delete();
    } catch {
      /* already deleted */
    }
    other = null;
  }
}

function closeSession() {
  closeOther();
  if (session) {
    try {
      session.delete();
    } catch {
      /* already deleted */
    }
    session = null;
  }
  file = null;
}

/**
 * Side files before decode(): a side folder's files (NamedFile.folder) with their paths, others alone.
 * @param {any} s
 * @param {NamedFile[]} sideFiles
 */
function addSideFiles(s, sideFiles) {
  for (const d of sideFiles) {
    if (d.folder) s.addSideFolderFile(readerOf(d.file), d.file.size, String(d.name), String(d.folder));
    else s.addSideFile(readerOf(d.file), d.file.size, String(d.name));
  }
}

/**
 * Decodes a file (with its data and side files) and posts everything the page shows.
 * @param {{file: Blob & {name?: string}, name: string, dataFiles?: NamedFile[], sideFiles?: NamedFile[],
 *   sideFolders?: {folder: string, capped: boolean, offered: number}[], options?: Record<string, string>}} msg
 */
async function open({ file: main, name, dataFiles = [], sideFiles = [], sideFolders = [], options = {} }) {
  // one file per worker: a Cancel that comes while the module loads still counts
  const m = await getModule();
  closeSession();
  const size = main.size;
  const t0 = performance.now();
  const timed = { readMs: 0, reads: 0, bytes: 0 };
  // the main file (0) and the data.N files (1..), each read ahead while the decode is in it
  const stream = streamedFiles([main, ...dataFiles.map((d) => d.file)]);
  const readMain = stream.readerOf(0);
  const s = new m.Session(
    (/** @type {number} */ offset, /** @type {number} */ length, /** @type {Uint8Array | undefined} */ into) => {
      const r0 = performance.now();
      const bytes = readMain(offset, length, into);
      timed.readMs += performance.now() - r0;
      timed.reads++;
      timed.bytes += typeof bytes === 'number' ? bytes : bytes.length;
      return bytes;
    },
    size,
    name || main.name || 'file',
  );
  session = s;
  // perf --threads data.N files (in order), side files (ELF, jitdump, XRay map) and decoder options, before decode()
  dataFiles.forEach((d, k) => s.addDataFile(stream.readerOf(k + 1), d.file.size, String(d.name)));
  addSideFiles(s, sideFiles);
  for (const f of sideFolders) s.noteSideFolder(String(f.folder), !!f.capped, Number(f.offered) || 0);
  for (const [k, v] of Object.entries(options || {})) s.setOption(String(k), String(v));
  let lastPost = 0;
  const counts = { samples: 0, records: 0 }; // the latest, for the last progress message too
  // bytes decoded of the total, and the samples and record rows so far
  const progress = (/** @type {number} */ done, /** @type {number} */ total, /** @type {number} */ samples, /** @type {number} */ records) => {
    counts.samples = Number(samples) || 0;
    counts.records = Number(records) || 0;
    const now = Date.now();
    if (now - lastPost >= 250 || done >= total) {
      lastPost = now;
      self.postMessage({ type: 'progress', done: Number(done), total: Number(total), ...counts });
    }
  };
  self.postMessage({ type: 'progress', done: 0, total: size });
  // In steps: between them the read-ahead's chunks come in and a Cancel ('stop') is heard; a stopped
  // decode keeps what it read (a decode_stopped warning says where) and is shown like a whole one.
  wakeDecode = stream.interrupt;
  decoding = true;
  if (stopRequested) self.postMessage({ type: 'stopping' }); // a Cancel while the module loaded
  let paused;
  try {
    paused = s.decodeStart(progress, (/** @type {number} */ offset, /** @type {number} */ f) => stopRequested || stream.shouldPause(offset, f), 1 << 20);
    while (paused) {
      if (!stopRequested) await stream.resumeAt(s.pausedAt(), s.pausedFile());
      if (stopRequested) {
        s.decodeStop();
        break;
      }
      paused = s.decodeResume();
    }
  } finally {
    decoding = false;
    wakeDecode = null;
    stream.close();
  }
  const ok = s.decodeOk();
  const decodeMs = performance.now() - t0;
  self.postMessage({ type: 'progress', done: size, total: size, ...counts });
  self.postMessage({ type: 'decodeOver' });

  // (bench) where the time after the decode goes
  const { lap, laps } = lapTimer();
  const summary = parseJson(s.summaryJson(), /** @type {any} */ ({}));
  const events = parseJson(s.eventsJson(), /** @type {any[]} */ ([]));
  const threads = parseJson(s.threadsJson(), /** @type {any[]} */ ([]));
  const stringBlob = s.strings();
  const strings = decodeStrings(stringBlob);
  const profile = lap('summary, strings, kept columns', readKept(s));
  // times are relative to the session's origin (exact as doubles); tracers count ticks, which
  // become ns here with the session's scale
  const base = s.timeBase();
  // zero: the views' one time zero (Session::TimeZero), what "from the start of the file" means
  const timing = { scale: base.scale, start: base.start * base.scale, end: base.end * base.scale, zero: base.zero * base.scale, unit: base.scale === 1 ? 'ns' : 'ticks' };
  // (the page gets no sample times: the flame chart's lanes carry them, in each lane's order, and a
  // selected sample's comes with its slot)
  const sampleCounts = lap('sample columns', s.sampleCounts());

  const analysis = new FileAnalysis(s, profile, strings, base.scale, { pageDrawsSamples: !s.callsAreSamples() });
  file = { analysis, labels: null, format: String(summary.format ?? ''), name: String(name || main.name || 'file') };
  const totals = s.eventTotals();
  const decoderOptions = parseJson(s.decoderOptionsJson(), /** @type {any} */ ({}));
  const defaultEvent = lap('analysis, totals', heaviestEvent(totals));
  const msg = {
    type: 'decoded',
    ok: ok !== false,
    name,
    size,
    version: m.version(),
    dataFileNames: dataFiles.map((d) => String(d.name)),
    dataFileBytes: dataFiles.reduce((n, d) => n + d.file.size, 0), // (the main file's are `size`)
    sideFileNames: sideFiles.map((d) => String(d.name)),
    sideFileRoles: /** @type {{name: string, kind: string, role: string}[]} */ (parseJson(s.sideFilesJson(), [])),
    options: { ...(options || {}) },
    decoderOptions: decoderOptions.options ? decoderOptions : null, // {title, options: [{key, label, help, value}]}
    summary,
    diagnostics: parseJson(s.diagnosticsJson(), []),
    // what to drop so every frame is named (perf.data; null for other formats): wasm/profscope.d.ts MissingReport
    missing: /** @type {import('../../../wasm/profscope').MissingReport | null} */ (parseJson(s.missingJson(), null)),
    events,
    threads,
    strings: stringBlob, // the page decodes the few it shows (marker labels)
    // the record table and what is made from it follow in the 'tables' message, the lanes in 'timeline' (postTables)
    records: null,
    index: null,
    typeNames: null,
    composition: null,
    sampleRows: s.sampleCount(), // sample rows (gperftools: each may stand for several samples)
    eventTotals: totals,
    ...lap('cpus', perCpu(s.cpuRows())),
    lanes: null, // ('timeline')
    markers: lap('json answers, markers', readMarkers(s, strings, base.scale)),
    intervals: null, // ('timeline': the flame chart's exact calls, XRay)
    account: null, // ('account': llvm-xray account's rows, XRay)
    funcSources: funcSources(s.frameSourceFrames(), s.frameSourceStrings(), profile.frameFuncs, analysis.canon, strings),
    funcInlined: lap('sources', funcInlined(s.frameInlined(), profile.frameFuncs, analysis.canon)),
    timing,
    defaultEvent,
    analysis: lap('call tree', analysis.run({ filter: { event: totals.length ? defaultEvent : -1 }, transforms: [], invert: false, weight: defaultWeight(summary) })),
    heapBytes: (m.HEAP8 ?? m.HEAPU8)?.buffer.byteLength ?? 0, // WASM linear memory after decoding (bench)
    // (bench) the decode's time, the part of it spent reading the file, and the work after it
    benchTimes: { decodeMs, readMs: timed.readMs, reads: timed.reads, readBytes: timed.bytes, afterMs: performance.now() - t0 - decodeMs, ...stream.stats, laps: lap('rest', laps) },
  };
  const lanesOf = { scale: base.scale, counts: sampleCounts };
  postWithBytes(msg);
  await postTables(s, lanesOf, t0);
}

/**
 * Makes and posts the 'tables', 'timeline' and 'account' messages (tables.js) for session `s`: in steps, answering the
 * page's other messages between them; nothing more is posted when another file opened meanwhile.
 * @param {Session} s
 * @param {{scale: number, counts: any}} lanesOf see makeTables
 * @param {number} t0 when the open began (bench)
 */
async function postTables(s, lanesOf, t0) {
  let t = performance.now();
  let { lap, laps } = lapTimer(); // (bench)
  const post = (/** @type {any} */ msg) => {
    // (bench) the time this part took (with the other messages answered between its steps), and since the open began
    msg.benchTimes = { tablesMs: performance.now() - t, sinceOpenMs: performance.now() - t0, laps };
    postWithBytes(msg);
    t = performance.now();
    ({ lap, laps } = lapTimer());
  };
  const made = await makeTables(s, lanesOf, { between: nextTask, current: () => session === s, post, lap: (w, v) => lap(w, v) });
  // closed meanwhile: by the module's abort in a request answered between the steps (a page opens each
  // file in a worker of its own): the page's wait for the tables ends with this error
  if (!made && !session) self.postMessage({ type: 'error', request: 'open', message: 'the decoder stopped before the record table was made; open the file again' });
}

/**
 * (bench) lap(what, value) notes the time since the lap before (or since the timer was made) under `what`
 * in `laps`, and returns value.
 */
function lapTimer() {
  /** @type {Record<string, number>} */
  const laps = {};
  let at = performance.now();
  const lap = (/** @type {string} */ what, /** @type {any} */ value) => {
    const now = performance.now();
    laps[what] = Math.round(now - at);
    at = now;
    return value;
  };
  return { lap, laps };
}

/**
 * Posts an answer with its typed arrays transferred, and (bench) their bytes in its benchTimes.postedBytes:
 * what the page holds of it.
 * @param {any} msg
 */
function postWithBytes(msg) {
  const buffers = transferables(msg);
  msg.benchTimes.postedBytes = buffers.reduce((n, b) => n + b.byteLength, 0);
  self.postMessage(msg, buffers);
}

/**
 * Sample rows per CPU in CPU order (the filter bar's CPU list, the composition's bars), and how many
 * per-CPU lanes the flame chart can show (made when asked: 'cpuLanes'; none for absurd CPU numbers, as
 * Session.sampleLanes says).
 * @param {{cpus: Int32Array, rows: Uint32Array}} perCpuRows the session's cpuRows()
 */
function perCpu({ cpus: ids, rows }) {
  const cpus = Array.from(ids, (cpu, i) => ({ cpu, rows: rows[i] }));
  return { cpus, cpuLaneCount: cpus.length && cpus[cpus.length - 1].cpu < 65536 ? cpus.length : 0 };
}

/**
 * Decodes the second profile of a comparison (with its side files) beside the open one.
 * @param {{id: number, file: Blob & {name?: string}, name: string, sideFiles?: NamedFile[]}} msg
 */
async function openCompare({ id, file: blob, name, sideFiles = [] }) {
  const m = await getModule();
  requireSession();
  closeOther();
  const s = new m.Session(readerOf(blob), blob.size, name || blob.name || 'file');
  other = { session: s, name: String(name || blob.name || 'file') };
  addSideFiles(s, sideFiles);
  const ok = s.decode(() => {});
  const summary = parseJson(s.summaryJson(), /** @type {any} */ ({}));
  const diagnostics = parseJson(s.diagnosticsJson(), /** @type {any[]} */ ([]));
  self.postMessage({ type: 'openCompare', id, name: other.name, ok: ok !== false, format: String(summary.format ?? ''), samples: Number(summary.samples ?? 0), diagnostics: diagnostics.length });
}

/**
 * The diff of the open profile (A) and the second one (B), or B and A when swapped.
 * @param {boolean} normalize
 * @param {boolean} swap
 * @param {string} event "" = every event
 */
function compare(normalize, swap, event) {
  const s = requireSession();
  if (!other) throw new Error('no second profile to compare with');
  const names = [String(requireFile().name), other.name];
  const [a, b] = swap ? [other.session, s] : [s, other.session];
  const [nameA, nameB] = swap ? [names[1], names[0]] : names;
  const d = a.diff(b, event, normalize);
  if (d.error) return { error: String(d.error), nameA, nameB };
  return diffModel(/** @type {import('../../../wasm/profscope').DiffResult} */ (d), { nameA, nameB, normalize });
}

/**
 * Every distinct ArrayBuffer of the typed arrays under obj.
 * @param {any} obj
 * @returns {ArrayBuffer[]}
 */
function transferables(obj) {
  /** @type {Set<ArrayBuffer>} */
  const set = new Set();
  /** @param {any} v */
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
  walk(obj);
  return [...set];
}

/**
 * Rows matching a record search: label substring (case-insensitive), /regex/flags, or exact 0x offset.
 * The labels of every row are made once per open file, on the first search.
 * @param {Session} s
 * @param {string} query
 */
function searchRecords(s, query) {
  const f = requireFile();
  if (!f.labels) f.labels = recordLabels(s, f.format);
  const { ids, names } = f.labels;
  /** @type {(label: string) => boolean} */
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
  const offsets = off >= 0 ? s.recordOffsetRuns() : null;
  const hit = Uint8Array.from(names, (label) => (test(label) ? 1 : 0));
  const out = [];
  for (let r = 0; r < ids.length; r++) if (hit[ids[r]] || (offsets && intAt(offsets, r) === off)) out.push(r);
  return Int32Array.from(out);
}

function requireSession() {
  if (!session) throw new Error('no file is open');
  // between the decode's steps the session is mid-decode: nothing is asked of it until 'decoded'
  if (decoding) throw new Error('the file is still decoding');
  return session;
}

function requireFile() {
  if (!file) throw new Error('no file is open');
  return file;
}

/**
 * The last analysis's tree; `gen` (when given) is the analysis a request's node belongs to: a newer one
 * has replaced it (the page clicked a tree that was being remade), so the node means another call path.
 * @param {number} [gen]
 */
function requireTree(gen) {
  const f = requireFile();
  if (!f.analysis.lastTree) throw new Error('no file is open');
  if (gen != null && gen !== f.analysis.generation) throw new StaleRequest();
  return { ...f, tree: f.analysis.lastTree };
}

/** A request about an analysis the worker has since replaced: the page drops its answer. */
class StaleRequest extends Error {
  constructor() {
    super('the call tree was remade meanwhile');
  }
}

/**
 * @param {MessageEvent} e
 */
self.onmessage = async (e) => {
  const msg = e.data || {};
  try {
    switch (msg.type) {
      case 'open':
        await open(msg);
        break;
      case 'stop':
        // Cancel while decoding: the decode stops at its next step and what it read is shown
        stopRequested = true;
        if (wakeDecode) {
          self.postMessage({ type: 'stopping' });
          wakeDecode();
        }
        break;
      case 'fields': {
        const s = requireSession();
        const fields = parseJson(s.recordFieldsJson(msg.row), /** @type {any[]} */ ([]));
        self.postMessage({ type: 'fields', id: msg.id, row: msg.row, label: s.recordLabel(msg.row), fields });
        break;
      }
      case 'containerBytes': {
        // a COMPRESSED container's decompressed bytes (the stream its nested records' offsets count in)
        const bytes = requireSession().containerBytes(Number(msg.row));
        self.postMessage({ type: 'containerBytes', id: msg.id, row: msg.row, bytes }, [bytes.buffer]);
        break;
      }
      case 'labels': {
        const s = requireSession();
        const rows = /** @type {number[]} */ (msg.rows || []);
        self.postMessage({ type: 'labels', id: msg.id, rows, labels: rows.map((r) => s.recordLabel(r)) });
        break;
      }
      case 'searchRecords': {
        const rows = searchRecords(requireSession(), String(msg.query || ''));
        self.postMessage({ type: 'searchRecords', id: msg.id, rows }, [rows.buffer]);
        break;
      }
      case 'analyze': {
        const out = { type: 'analyze', id: msg.id, analysis: requireFile().analysis.run(msg.opts || {}) };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'sandwich': {
        const { analysis } = requireTree();
        const sandwich = analysis.sandwich(msg.opts || analysis.lastOpts || {}, msg.func);
        const out = { type: 'sandwich', id: msg.id, func: msg.func, sandwich, names: analysis.names.slice() };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'functionTotals': {
        const { analysis } = requireTree(msg.gen);
        const t = analysis.functionTotals();
        self.postMessage({ type: 'functionTotals', id: msg.id, self: t.self, total: t.total }, [t.self.buffer, t.total.buffer]);
        break;
      }
      case 'nodeSamples': {
        // the samples of call node `node` of analysis `gen` (the worker keeps each sample's node) and their
        // record rows (the session has every sample's)
        const { analysis } = requireTree(msg.gen);
        const samples = analysis.nodeSamples(Number(msg.node));
        const rows = requireSession().sampleRecordsOf(samples);
        self.postMessage({ type: 'nodeSamples', id: msg.id, node: msg.node, samples, rows }, [samples.buffer, rows.buffer]);
        break;
      }
      case 'sampleNode': {
        // the call node of sample `sample` in analysis `gen` (a selected record's stack, marked in the graphs)
        const { analysis } = requireTree(msg.gen);
        self.postMessage({ type: 'sampleNode', id: msg.id, sample: msg.sample, node: analysis.sampleNode(Number(msg.sample)) });
        break;
      }
      case 'recordSample': {
        // the first sample of record row `row` (-1 when it has none), asked when a record is selected (a
        // column of every row's sample would be 4 bytes a row on the page); with its time (ns) and thread
        // lane, where the flame chart marks it in a lane that holds no samples (a tracer's: CallLane)
        const s = requireSession();
        const sample = s.recordSample(Number(msg.row));
        const time = sample >= 0 ? s.sampleTime(sample) * requireFile().analysis.scale : 0;
        self.postMessage({ type: 'recordSample', id: msg.id, row: msg.row, sample, time, thread: s.sampleLane(sample) });
        break;
      }
      case 'slot': {
        // the callchain slot of call node `node` in sample `sample` (its record's bytes)
        const s = requireSession();
        const { analysis, tree } = requireTree(msg.gen);
        const row = s.sampleRecord(msg.sample);
        const o = analysis.lastOpts;
        const plain = !o?.transforms?.length && !o?.invert;
        const address = frameAddressFor(analysis, tree, s.sampleStack(msg.sample), msg.node, plain);
        const fields = row >= 0 ? parseJson(s.recordFieldsJson(row), /** @type {any[]} */ ([])) : [];
        const slot = address == null ? null : callchainSlot(fields, address);
        const time = s.sampleTime(msg.sample) * analysis.scale; // (ns)
        self.postMessage({ type: 'slot', id: msg.id, sample: msg.sample, row, address, slot, fields, label: row >= 0 ? s.recordLabel(row) : '', time });
        break;
      }
      case 'cpuLanes': {
        // the flame chart's lanes per CPU, made when it first shows them (12 bytes a sample the page
        // holds only then), from the session's columns
        const s = requireSession();
        const out = { type: 'cpuLanes', id: msg.id, lanes: lanesFrom(s.sampleLanes(true), s.timeBase().scale, s.sampleCounts(), true) };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'flameBoxes': {
        // the boxes of exact calls the flame chart draws in its view (the page holds no call of its own)
        const s = requireSession();
        const { analysis } = requireFile();
        const boxes = readFlameBoxes(s, analysis.canon, analysis.scale, { rows: msg.rows, t0: Number(msg.t0), t1: Number(msg.t1), cols: Math.max(0, Math.min(Number(msg.cols) | 0, 1 << 16)) });
        const out = { type: 'flameBoxes', id: msg.id, boxes };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'callActivity': {
        // the calls started per column of [t0, t1) ns of thread lanes `lanes` (a tracer's: a collapsed lane's
        // strip, the overview track), counted where the calls are: lane j's columns are activity[j * cols ..]
        const s = requireSession();
        const { analysis } = requireFile();
        const cols = Math.max(1, Math.min(Number(msg.cols) | 0, 1 << 16));
        const activity = s.callActivity(msg.lanes, analysis.scale, Number(msg.t0), Number(msg.t1), cols);
        self.postMessage({ type: 'callActivity', id: msg.id, activity, cols }, [activity.buffer]);
        break;
      }
      case 'library': {
        const { analysis } = requireFile();
        self.postMessage({ type: 'library', id: msg.id, func: msg.func, lib: analysis.libraryOf(msg.func) });
        break;
      }
      case 'export': {
        // the file is made here, from the decoded session; the page only saves it
        const s = requireSession();
        const r = msg.format === 'perf-script' ? s.scriptFile() : s.exportFile(String(msg.format), String(msg.weight || ''), String(msg.event || ''));
        const out = { type: 'export', id: msg.id, format: msg.format, bytes: r.bytes, error: String(r.error) };
        self.postMessage(out, [r.bytes.buffer]);
        break;
      }
      case 'openCompare':
        await openCompare(msg);
        break;
      case 'compare': {
        const model = compare(!!msg.normalize, !!msg.swap, String(msg.event || ''));
        const out = { type: 'compare', id: msg.id, model };
        self.postMessage(out, transferables(out));
        break;
      }
      case 'closeCompare':
        closeOther();
        self.postMessage({ type: 'closeCompare', id: msg.id });
        break;
      default:
        throw new Error(`unknown request ${String(msg.type)}`);
    }
  } catch (err) {
    let message = errorMessage(err);
    if (isModuleFault(err)) {
      // An aborted module (an allocation failed past the memory budget; a stack overflow inside it) is
      // poisoned: drop it, so the next file opens in a fresh one.
      session = null;
      file = null;
      mod = null;
      modulePromise = null;
      message = moduleFaultMessage(err, message);
    }
    // a view the core could not make (ViewError) is the options' fault, not the file's: the page takes them back
    const mark = err instanceof ViewError ? { view: true } : err instanceof StaleRequest ? { stale: true } : {};
    self.postMessage({ type: 'error', id: msg.id, request: msg.type, message, ...mark });
  }
};

