// @ts-check
// Reading a decoded session's tables through the bindings (wasm/profscope.d.ts): which getters,
// into which objects. Each getter returns a fresh copy the worker owns. tests/node reads the
// same columns through these functions.

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
 * Exact calls (XRay enter/exit pairs) as the flame chart draws them (Session.flameIntervals: in rows by
 * thread and depth, each in entry order), times scaled to ns and funcs made canonical; null when none.
 * @param {Session} s
 * @param {Int32Array} canon func row -> canonical func
 * @param {number} scale
 */
export function readIntervals(s, canon, scale) {
  const iv = s.flameIntervals();
  if (iv.start.length === 0) return null;
  scaleTimes(iv.start, scale);
  scaleTimes(iv.end, scale);
  const { func } = iv;
  for (let i = 0; i < func.length; i++) func[i] = func[i] >= 0 && func[i] < canon.length ? canon[func[i]] : -1;
  return iv;
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
