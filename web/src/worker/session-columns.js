// @ts-check
// Reading a decoded session's tables through the bindings (wasm/profscope.d.ts): which getters,
// into which objects. Each getter returns a fresh copy the worker owns. tests/node reads the
// same columns through these functions.

import { intAt } from '../lib/int-runs.js';
import { StringMap } from '../lib/keyed-hash.js';

/** @typedef {import('../../../wasm/profscope').Session} Session */

/** The profile columns the worker reads (getter names of the session). */
export const PROFILE_GETTERS = /** @type {const} */ ([
  'funcNames',
  'funcMappings',
  'frameAddresses',
  'frameFuncs',
  'frameMappings',
  'stackFrames',
  'stackPrefixes',
  'sampleTimes',
  'sampleThreads',
  'sampleCpus',
  'sampleEvents',
  'sampleWeights',
  'sampleStacks',
  'sampleRecords',
  'sampleCounts',
]);

/** @typedef {{[K in typeof PROFILE_GETTERS[number]]: ReturnType<Session[K]>}} ProfileColumns */

/**
 * The columns the worker keeps while a file is open (call nodes back to frames). No sample column is
 * kept (a 1 GB perf.data has 4 M samples: each 4-8 byte column is 16-32 MB of the page's memory): a
 * sample's stack and record are asked of the session (sampleStack, sampleRecord, sampleRecordsOf).
 */
export const KEPT_GETTERS = /** @type {const} */ ([
  'frameAddresses',
  'frameFuncs',
  'stackFrames',
  'stackPrefixes',
]);

/** @typedef {{[K in typeof KEPT_GETTERS[number]]: ReturnType<Session[K]>}} KeptColumns */

/**
 * The columns the worker keeps (KEPT_GETTERS).
 * @param {Session} s
 * @returns {KeptColumns}
 */
export function readKept(s) {
  const out = /** @type {any} */ ({});
  for (const k of KEPT_GETTERS) out[k] = s[k]();
  return out;
}

/**
 * The profile's columns (funcs, frames, stacks, samples).
 * @param {Session} s
 * @returns {ProfileColumns}
 */
export function readProfile(s) {
  const out = /** @type {any} */ ({});
  for (const k of PROFILE_GETTERS) out[k] = s[k]();
  return out;
}

/**
 * (each column is runs where that is much smaller, else the narrowest array that holds it: a Float64Array
 * past 4 GB; read them with lib/int-runs.js intAt, and their row count as .length)
 * @typedef {import('../lib/int-runs.js').NumColumn} NumColumn
 * @typedef {{offsets: NumColumn, sizes: NumColumn, types: NumColumn, kinds: NumColumn, parents: import('../lib/int-runs.js').IntColumn, files: NumColumn}} RecordColumns
 */

/** Runs a row at most for a column held as runs (12 bytes a run, 4 a row). */
export const RUNS_SHARE = 1 / 12;

/**
 * The record table's columns.
 * @param {Session} s
 * @returns {RecordColumns}
 */
export function readRecords(s) {
  return {
    offsets: s.recordOffsetRuns(),
    sizes: s.recordSizeRuns(),
    types: s.recordTypeRuns(),
    kinds: s.recordKindRuns(),
    parents: s.recordParentRuns(RUNS_SHARE),
    files: s.recordFileRuns(),
  };
}

/**
 * The record table's children lists and the main file's leaves by offset (lib/records.js reads them), made by
 * the session (core/analysis/record_index.h).
 * @param {Session} s
 */
export function readRecordIndex(s) {
  return s.recordIndex(RUNS_SHARE);
}

/**
 * The markers (perf MMAP/COMM/..., jitdump code loads, XRay custom events), times scaled to ns.
 * Their kinds become a small table (kind[i] indexes kindNames); label[i] is a string id.
 * @param {Session} s
 * @param {string[]} strings
 * @param {number} scale
 */
export function readMarkers(s, strings, scale) {
  const time = scaleTimes(s.markerTimes(), scale);
  const kindIds = s.markerKinds();
  const kindIndex = new Map();
  /** @type {string[]} */
  const kindNames = [];
  const kind = new Int32Array(time.length);
  for (let i = 0; i < time.length; i++) {
    let k = kindIndex.get(kindIds[i]);
    if (k === undefined) {
      k = kindNames.length;
      kindNames.push(stringAt(strings, kindIds[i]));
      kindIndex.set(kindIds[i], k);
    }
    kind[i] = k;
  }
  return { rows: s.markerRecords(), time, thread: s.markerThreads(), cpu: s.markerCpus(), kind, kindNames, label: s.markerLabels() };
}

/**
 * Every row's label, as ids into the distinct labels (a record search tests each once). An XRay row's
 * label depends only on its kind and type (XRayDecoder::RecordLabel), so an XRay log asks the module once
 * per (kind, type), not once per record (a few hundred at most: a Map of them is safe). The labels hold the
 * file's names (a jitdump's code loads): made distinct by a StringMap (lib/keyed-hash.js), not by a Map of
 * them, which V8 may hash alike (labels over 16383 characters by their length alone).
 * @param {Session} s
 * @param {string} format
 */
export function recordLabels(s, format) {
  const n = s.recordCount();
  const ids = new Uint32Array(n);
  /** @type {string[]} */
  const names = [];
  /** @type {StringMap<number>} */
  const byName = new StringMap();
  const idOf = (/** @type {string} */ label) => {
    let id = byName.get(label);
    if (id === undefined) byName.set(label, (id = names.push(label) - 1));
    return id;
  };
  if (format === 'xray') {
    const kinds = s.recordKindRuns(), types = s.recordTypeRuns();
    /** @type {Map<number, number>} */
    const byType = new Map();
    for (let r = 0; r < n; r++) {
      const key = intAt(kinds, r) * 4294967296 + intAt(types, r);
      let id = byType.get(key);
      if (id === undefined) byType.set(key, (id = idOf(String(s.recordLabel(r)))));
      ids[r] = id;
    }
  } else {
    for (let r = 0; r < n; r++) ids[r] = idOf(String(s.recordLabel(r)));
  }
  return { ids, names };
}

/**
 * @typedef {{rows: {thread: Int32Array, depth: Int32Array, first: Int32Array}, calls: number, lo: number, hi: number}} FlameRows
 * @typedef {{row: Int32Array, start: Float64Array, end: Float64Array, func: Int32Array, record: Int32Array}} FlameBoxes
 */

/**
 * The flame chart's rows of exact calls (XRay enter/exit pairs: Session.flameRows, by thread and depth),
 * with their count and span in ns; null when the file has none. The calls stay in the session: the chart
 * asks for the boxes it draws (readFlameBoxes).
 * @param {Session} s
 * @param {number} scale ns per unit of the session's times
 * @returns {FlameRows | null}
 */
export function readFlameRows(s, scale) {
  const r = s.flameRows();
  if (!r.calls) return null;
  return { rows: { thread: r.thread, depth: r.depth, first: r.first }, calls: r.calls, lo: r.lo * scale, hi: r.hi * scale };
}

/**
 * The boxes of exact calls the flame chart draws (Session.flameBoxes): of rows `rows` (readFlameRows' rows)
 * in [t0, t1) ns at `cols` columns, each row's in start order; functions made canonical.
 * @param {Session} s
 * @param {Int32Array} canon func row -> canonical func
 * @param {number} scale
 * @param {{rows: Int32Array, t0: number, t1: number, cols: number}} q
 * @returns {FlameBoxes}
 */
export function readFlameBoxes(s, canon, scale, { rows, t0, t1, cols }) {
  const b = s.flameBoxes(rows, scale, t0, t1, cols);
  const { func } = b;
  for (let i = 0; i < func.length; i++) func[i] = func[i] >= 0 && func[i] < canon.length ? canon[func[i]] : -1;
  return b;
}

/**
 * Parses one of the session's small JSON tables; `fallback` when it is not JSON.
 * @template T
 * @param {string} text
 * @param {T} fallback
 * @returns {T}
 */
export function parseJson(text, fallback) {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/**
 * Multiplies times (in the file's units) by `scale` (ns per unit), in place.
 * @param {Float64Array} arr
 * @param {number} scale
 */
export function scaleTimes(arr, scale) {
  if (scale !== 1) for (let i = 0; i < arr.length; i++) arr[i] *= scale;
  return arr;
}

/**
 * @param {string[]} strings
 * @param {number} id
 */
export function stringAt(strings, id) {
  return id >= 0 && id < strings.length ? strings[id] : '';
}
