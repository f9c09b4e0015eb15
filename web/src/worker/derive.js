// @ts-check
// Data the views need that the worker derives once per opened file from the session's columns
// (pure functions, unit-tested): flame chart lanes (from the session's order; a tracer's from its summary of
// each thread's calls), the heaviest event, the
// record types' names and the composition's groups named (the session counts them), and source positions
// per function.
import { RecordKind } from '../lib/record-kind.js';

/**
 * @typedef {{thread: number, samples: Int32Array, times: Float64Array, count: number, weights?: Uint32Array}} Lane
 *   samples of one thread (or CPU) sorted by time; thread -1 = the samples without one; count =
 *   the samples they stand for (rows times their gperftools counts); weights = each row's count (gperftools only)
 */

/**
 * Lanes of the flame chart from the session's (Session.sampleLanes: the samples of each thread, or CPU,
 * in time order, and their times): empty lanes left out; by CPU, the samples without one too.
 * @param {{samples: Int32Array, start: Int32Array, times: Float64Array}} order the session's answer
 * @param {number} scale the session's times to ns (applied to `order.times` in place)
 * @param {Uint32Array} [sampleCounts] samples each row stands for (gperftools); empty = 1 each
 * @param {boolean} [byCpu]
 * @returns {Lane[]} (views of `order`'s arrays)
 */
export function lanesFrom({ samples: all, start, times: allTimes }, scale, sampleCounts, byCpu = false) {
  const counted = !!(sampleCounts && sampleCounts.length);
  if (scale !== 1) for (let k = 0; k < allTimes.length; k++) allTimes[k] *= scale;
  const nLanes = start.length - 2; // then the lane of the samples of no thread (CPU)
  /** @type {Lane[]} */
  const lanes = [];
  for (let l = 0; l <= nLanes; l++) {
    const m = start[l + 1] - start[l];
    if (!m || (byCpu && l === nLanes)) continue;
    const samples = all.subarray(start[l], start[l + 1]);
    /** @type {Lane} */
    const lane = { thread: l < nLanes ? l : -1, samples, times: allTimes.subarray(start[l], start[l + 1]), count: m };
    // samples the lane stands for: rows times their counts (gperftools), what the filter bar counts
    if (counted) {
      const weights = new Uint32Array(m);
      let c = 0;
      for (let k = 0; k < m; k++) c += weights[k] = sampleCounts[samples[k]];
      lane.count = c;
      lane.weights = weights;
    }
    lanes.push(lane);
  }
  return lanes;
}

/**
 * @typedef {{thread: number, calls: true, count: number, first: number, last: number, gap: number, gapFrom: 'gap' | 'file gap'}} CallLane
 *   a thread lane of a log whose exact calls are its samples (XRay), with no entry per call (the chart draws
 *   its calls from the worker: flameBoxes, callActivity): its calls, their first and last start (ns), and the
 *   gap the chart's end is padded by: the lane's median gap between starts (typicalGap of its times), or,
 *   when that is 0, the file's (gapFrom says which)
 */

/**
 * The flame chart's thread lanes of a log whose calls are its samples (Session.callLanes: per lane with
 * calls its thread, calls, first and last start and median gap, times already in ns; fileGap: the file's
 * median gap, given when some lane's is 0).
 * @param {{thread: Int32Array, count: Float64Array, first: Float64Array, last: Float64Array, gap: Float64Array, fileGap: number}} summary
 * @returns {CallLane[]}
 */
export function callLanesFrom({ thread, count, first, last, gap, fileGap }) {
  return Array.from(thread, (th, i) => ({
    thread: th,
    calls: /** @type {true} */ (true),
    count: count[i],
    first: first[i],
    last: last[i],
    gap: gap[i] > 0 ? gap[i] : Math.max(fileGap, 0),
    gapFrom: gap[i] > 0 ? /** @type {const} */ ('gap') : /** @type {const} */ ('file gap'),
  }));
}

/**
 * The heaviest event (the first of equals), 0 when none.
 * @param {Float64Array} totals
 */
export function heaviestEvent(totals) {
  let best = 0;
  for (let e = 0; e < totals.length; e++) if (totals[e] > totals[best]) best = e;
  return best;
}

/**
 * The key of a row's (kind, type): rows with the same key have the same type name. A string ("5:9"), not
 * kind * 2^32 + type: V8 hashes a Map's number keys without a seed (that double with ComputeLongHash), so
 * a perf.data of 8-byte records of chosen types put them all in one bucket of typeNames (in the worker, and
 * again on the page when it receives it). V8 hashes this string with its per-isolate seed (it is no array
 * index, and its digits cannot make Chromium's rapidhash ignore the seed).
 * @param {number} kind
 * @param {number} type
 */
export function typeKey(kind, type) {
  return `${kind}:${type}`;
}

/**
 * The kind of a typeKey().
 * @param {string} key
 */
export function typeKeyKind(key) {
  return Number(key.slice(0, key.indexOf(':')));
}

/**
 * The type name of every (kind, type) of the record table, named by its first row: what the page shows
 * for a row until its own label arrives, and the composition's group names.
 * @param {{kind: Uint8Array, type: Uint32Array, first: Int32Array}} types the session's recordTypeList()
 * @param {(row: number, kind: number) => string} nameOf
 * @returns {Map<string, string>} typeKey -> name
 */
export function recordTypeNames(types, nameOf) {
  /** @type {Map<string, string>} */
  const names = new Map();
  for (let i = 0; i < types.first.length; i++) names.set(typeKey(types.kind[i], types.type[i]), nameOf(types.first[i], types.kind[i]));
  return names;
}

/**
 * @typedef {{label: string, kind: number, type: number, count: number, bytes: number, nested: boolean, first: number}} CompositionGroup
 */

/**
 * Bytes and counts per record kind and type (and per feature section), for the composition dashboard and
 * the record tree's kind filter: the session's groups (Session.recordComposition: containers and pieces
 * inside a record left out, sorted by bytes), named; `nested` groups (inside a decompressed COMPRESSED
 * stream) are not file bytes.
 * @param {{kind: Uint8Array, type: Uint32Array, count: Float64Array, bytes: Float64Array, first: Int32Array}} groups
 * @param {Map<string, string>} typeNames recordTypeNames()
 * @returns {CompositionGroup[]}
 */
export function recordComposition(groups, typeNames) {
  return Array.from(groups.first, (first, i) => {
    const kind = groups.kind[i];
    const type = groups.type[i];
    return { label: typeNames.get(typeKey(kind, type)) ?? '', kind, type, count: groups.count[i], bytes: groups.bytes[i], nested: kind === RecordKind.Nested, first };
  });
}

/**
 * Canonical func -> how DWARF says it was called: 1 = inlined wherever it appears (perf's
 * "(inlined)"), 2 = inlined at some of its frames only; absent = never inlined.
 * @param {Uint8Array} frameInlined frame -> 1 (may be shorter than the frames)
 * @param {Int32Array} frameFuncs
 * @param {Int32Array} canon
 * @returns {Record<number, 1 | 2>}
 */
export function funcInlined(frameInlined, frameFuncs, canon) {
  /** @type {Record<number, 1 | 2>} */
  const out = {};
  if (!frameInlined.length) return out;
  /** @type {Record<number, true>} */
  const direct = {};
  for (let f = 0; f < frameFuncs.length; f++) {
    const fn = frameFuncs[f];
    if (fn < 0) continue;
    const c = canon[fn];
    if (f < frameInlined.length && frameInlined[f]) out[c] = 1;
    else direct[c] = true;
  }
  for (const c of Object.keys(out)) if (direct[Number(c)]) out[Number(c)] = 2;
  return out;
}

/**
 * Canonical func -> "file:line" (jitdump DEBUG_INFO): the first source of any of its frames.
 * @param {Int32Array} sourceFrames
 * @param {Int32Array} sourceStrings
 * @param {Int32Array} frameFuncs
 * @param {Int32Array} canon
 * @param {string[]} strings
 * @returns {Record<number, string>}
 */
export function funcSources(sourceFrames, sourceStrings, frameFuncs, canon, strings) {
  /** @type {Record<number, string>} */
  const out = {};
  for (let i = 0; i < sourceFrames.length; i++) {
    const f = frameFuncs[sourceFrames[i]];
    if (f == null || f < 0) continue;
    const c = canon[f];
    if (!(c in out)) out[c] = String(strings[sourceStrings[i]] ?? '');
  }
  return out;
}
