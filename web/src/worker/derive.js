// @ts-check
// Data the views need that the worker derives once per opened file from the session's columns
// (pure functions, unit-tested): flame chart lanes (from the session's order), the heaviest event, the
// record composition and source positions per function.
import { intAt, readerOf } from '../lib/int-runs.js';
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
 * The heaviest event (the first of equals), 0 when none.
 * @param {Float64Array} totals
 */
export function heaviestEvent(totals) {
  let best = 0;
  for (let e = 0; e < totals.length; e++) if (totals[e] > totals[best]) best = e;
  return best;
}

/**
 * The key of a row's (kind, type): rows with the same key have the same type name.
 * @param {number} kind
 * @param {number} type
 */
export function typeKey(kind, type) {
  return kind * 4294967296 + type;
}

/**
 * The type name of every (kind, type) of the table, named by its first row: what the page shows
 * for a row until its own label arrives, and the composition's group names.
 * @param {import('./session-columns.js').RecordColumns} records
 * @param {(row: number) => string} nameOf
 * @returns {Map<number, string>} typeKey -> name
 */
export function recordTypeNames(records, nameOf) {
  const { kinds, types } = records;
  const kindAt = readerOf(kinds);
  const typeAt = readerOf(types);
  /** @type {Map<number, string>} */
  const names = new Map();
  let last = -1; // rows come in runs of one type (a perf.data's SAMPLEs): one lookup per run
  for (let r = 0; r < kinds.length; r++) {
    const key = typeKey(kindAt(r), typeAt(r));
    if (key === last) continue;
    last = key;
    if (!names.has(key)) names.set(key, nameOf(r));
  }
  return names;
}

/**
 * @typedef {{label: string, kind: number, type: number, count: number, bytes: number, nested: boolean, first: number}} CompositionGroup
 */

/**
 * Bytes and counts per record kind and type (and per feature section), for the composition
 * dashboard and the record tree's kind filter: one group per (kind, type) named by its first
 * row, sorted by bytes. Containers (data section, feature table) and pieces inside a record are
 * left out (their bytes are counted by their children); `nested` groups (inside a decompressed
 * COMPRESSED stream) are not file bytes.
 * @param {import('./session-columns.js').RecordColumns} records
 * @param {Map<number, string>} typeNames recordTypeNames()
 * @returns {CompositionGroup[]}
 */
export function recordComposition(records, typeNames) {
  const { kinds, types, sizes, parents } = records;
  const kindAt = readerOf(kinds);
  const typeAt = readerOf(types);
  const sizeAt = readerOf(sizes);
  const parentAt = readerOf(parents);
  /** @type {Map<number, CompositionGroup>} */
  const groups = new Map();
  /** @type {CompositionGroup | undefined} */
  let g;
  let last = -1; // the group of the row before (rows come in runs of one type)
  let lastParent = -1; // and the kind of the last parent looked at (most rows share theirs)
  let parentKind = -1;
  for (let r = 0; r < kinds.length; r++) {
    const k = kindAt(r);
    if (k === RecordKind.DataSection || k === RecordKind.FeatureTable) continue;
    if (k === RecordKind.Record) {
      const p = parentAt(r);
      if (p !== lastParent) {
        lastParent = p;
        parentKind = p >= 0 ? intAt(kinds, p) : -1;
      }
      if (parentKind === RecordKind.Record) continue;
    }
    const key = typeKey(k, typeAt(r));
    if (key !== last) {
      last = key;
      g = groups.get(key);
    }
    if (!g) {
      g = { label: typeNames.get(key) ?? '', kind: k, type: typeAt(r), count: 0, bytes: 0, nested: k === RecordKind.Nested, first: r };
      groups.set(key, g);
    }
    g.count++;
    g.bytes += sizeAt(r);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count);
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
