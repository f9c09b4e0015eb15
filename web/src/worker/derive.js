// @ts-check
// Data the views need that the worker derives once per opened file from the session's columns
// (pure functions, unit-tested): flame chart lanes, samples per event and CPU, the record
// composition, record row -> sample, and source positions per function.
import { RecordKind } from '../lib/record-kind.js';

/**
 * @typedef {{thread: number, samples: Int32Array, times: Float64Array, count: number, weights?: Uint32Array}} Lane
 *   samples of one thread (or CPU) sorted by time; thread -1 = the samples without one; count =
 *   the samples they stand for (rows times their gperftools counts); weights = each row's count (gperftools only)
 */

/**
 * Lanes of the flame chart: the samples of each thread (or CPU: pass the CPU column and
 * max CPU + 1) sorted by time; empty lanes left out.
 * @param {Float64Array} sampleTimes
 * @param {Int32Array} laneOf sample -> thread row (or CPU)
 * @param {number} nLanes
 * @param {Uint32Array} [sampleCounts] samples each row stands for (gperftools); empty = 1 each
 * @returns {Lane[]}
 */
export function buildLanes(sampleTimes, laneOf, nLanes, sampleCounts) {
  const parts = laneSteps(sampleTimes, laneOf, nLanes, sampleCounts);
  for (;;) {
    const r = parts.next();
    if (r.done) return r.value;
  }
}

/**
 * buildLanes in parts: yields after sorting the samples out by lane and after each lane, returns the
 * lanes (the worker answers other requests between the parts: tables.js).
 * @param {Float64Array} sampleTimes
 * @param {Int32Array} laneOf
 * @param {number} nLanes
 * @param {Uint32Array} [sampleCounts]
 * @returns {Generator<void, Lane[], void>}
 */
export function* laneSteps(sampleTimes, laneOf, nLanes, sampleCounts) {
  const n = laneOf.length;
  const counted = !!(sampleCounts && sampleCounts.length);
  const counts = new Int32Array(nLanes + 1);
  for (let i = 0; i < n; i++) {
    const t = laneOf[i];
    counts[t >= 0 && t < nLanes ? t : nLanes]++;
  }
  /** @type {Int32Array[]} */
  const samplesOf = [];
  for (let t = 0; t <= nLanes; t++) samplesOf.push(new Int32Array(counts[t]));
  const fill = new Int32Array(nLanes + 1);
  for (let i = 0; i < n; i++) {
    const t = laneOf[i];
    const l = t >= 0 && t < nLanes ? t : nLanes;
    samplesOf[l][fill[l]++] = i;
  }
  /** @type {Lane[]} */
  const lanes = [];
  yield;
  for (let t = 0; t <= nLanes; t++) {
    let samples = samplesOf[t];
    const m = samples.length;
    if (!m) continue;
    if (lanes.length) yield;
    // the times in the lane's order, sorted when the samples are not in time order already
    let times = new Float64Array(m);
    let sorted = true;
    let prev = -Infinity;
    for (let k = 0; k < m; k++) {
      const v = sampleTimes[samples[k]];
      if (v < prev) sorted = false;
      times[k] = prev = v;
    }
    if (!sorted) {
      samples = sortByTime(samples, times);
      for (let k = 0; k < m; k++) times[k] = sampleTimes[samples[k]];
    }
    /** @type {Lane} */
    const lane = { thread: t < nLanes ? t : -1, samples, times, count: m };
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
 * `rows` ordered by their times (`times[k]` is rows[k]'s), equal times in the order given: a stable LSD
 * radix sort on the times' bits, 16 at a time (an XRay log's calls come in exit order: 4.8 M of them took
 * 3.9 s to sort with a comparator in random order). Lists under 2048 sort with a comparator (the radix's
 * 2 x 65536-entry histograms cost more there).
 * @param {Int32Array} rows
 * @param {Float64Array} times
 * @returns {Int32Array}
 */
export function sortByTime(rows, times) {
  const m = rows.length;
  if (m < 2048) {
    const order = Array.from({ length: m }, (_, k) => k);
    order.sort((a, b) => times[a] - times[b] || a - b);
    return Int32Array.from(order, (k) => rows[k]);
  }
  // each time as a 64-bit key that orders as the doubles do (negative: all bits flipped; else the sign bit set)
  const keys = Float64Array.from(times);
  for (let k = 0; k < m; k++) if (keys[k] === 0) keys[k] = 0; // -0 is 0
  const bits = new Uint32Array(keys.buffer); // [lo, hi] per time (little-endian)
  for (let k = 0; k < m; k++) {
    const hi = bits[2 * k + 1];
    if (hi & 0x80000000) {
      bits[2 * k] = ~bits[2 * k];
      bits[2 * k + 1] = ~hi;
    } else bits[2 * k + 1] = hi | 0x80000000;
  }
  let order = new Int32Array(m);
  for (let k = 0; k < m; k++) order[k] = k;
  let next = new Int32Array(m);
  const count = new Int32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let k = 0; k < m; k++) count[(bits[2 * k + word] >>> shift) & 0xffff]++;
    if (count[(bits[word] >>> shift) & 0xffff] === m) continue; // one digit everywhere: nothing moves
    for (let d = 0, sum = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let k = 0; k < m; k++) {
      const o = order[k];
      next[count[(bits[2 * o + word] >>> shift) & 0xffff]++] = o;
    }
    const t = order;
    order = next;
    next = t;
  }
  const out = new Int32Array(m);
  for (let k = 0; k < m; k++) out[k] = rows[order[k]];
  return out;
}

/**
 * Per-CPU lanes when the file records CPUs (none otherwise, or for absurd CPU numbers).
 * @param {Float64Array} sampleTimes
 * @param {Int32Array} sampleCpus
 * @param {Uint32Array} [sampleCounts]
 */
export function cpuLanes(sampleTimes, sampleCpus, sampleCounts = new Uint32Array(0)) {
  let maxCpu = -1;
  for (let i = 0; i < sampleCpus.length; i++) if (sampleCpus[i] > maxCpu) maxCpu = sampleCpus[i];
  if (maxCpu < 0 || maxCpu >= 65536) return [];
  return buildLanes(sampleTimes, sampleCpus, maxCpu + 1, sampleCounts).filter((l) => l.thread >= 0);
}

/**
 * Samples per event (rows times their counts): the filter bar's counts and the default event.
 * Events are those the file names, or as many as the samples use.
 * @param {Int32Array} sampleEvents
 * @param {Uint32Array} sampleCounts empty when every row is one sample
 * @param {number} namedEvents
 */
export function eventTotals(sampleEvents, sampleCounts, namedEvents) {
  let used = -1;
  for (let i = 0; i < sampleEvents.length; i++) if (sampleEvents[i] > used) used = sampleEvents[i];
  const totals = new Float64Array(Math.max(namedEvents, used + 1));
  for (let i = 0; i < sampleEvents.length; i++) {
    const e = sampleEvents[i];
    if (e >= 0 && e < totals.length) totals[e] += sampleCounts.length ? sampleCounts[i] : 1;
  }
  return totals;
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
 * Sample rows per CPU, in CPU order (the filter bar's CPU list, the composition's bars).
 * @param {Int32Array} sampleCpus
 * @returns {{cpu: number, rows: number}[]}
 */
export function cpuRows(sampleCpus) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (let i = 0; i < sampleCpus.length; i++) if (sampleCpus[i] >= 0) counts.set(sampleCpus[i], (counts.get(sampleCpus[i]) || 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([cpu, rows]) => ({ cpu, rows }));
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
  /** @type {Map<number, string>} */
  const names = new Map();
  let last = -1; // rows come in runs of one type (a perf.data's SAMPLEs): one lookup per run
  for (let r = 0; r < kinds.length; r++) {
    const key = typeKey(kinds[r], types[r]);
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
  /** @type {Map<number, CompositionGroup>} */
  const groups = new Map();
  /** @type {CompositionGroup | undefined} */
  let g;
  let last = -1; // the group of the row before (rows come in runs of one type)
  for (let r = 0; r < kinds.length; r++) {
    const k = kinds[r];
    if (k === RecordKind.DataSection || k === RecordKind.FeatureTable) continue;
    if (k === RecordKind.Record && parents[r] >= 0 && kinds[parents[r]] === RecordKind.Record) continue;
    const key = typeKey(k, types[r]);
    if (key !== last) {
      last = key;
      g = groups.get(key);
    }
    if (!g) {
      g = { label: typeNames.get(key) ?? '', kind: k, type: types[r], count: 0, bytes: 0, nested: k === RecordKind.Nested, first: r };
      groups.set(key, g);
    }
    g.count++;
    g.bytes += sizes[r];
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count);
}

/**
 * Record row -> its first sample (-1 when it has none): "select a byte or record: its sample".
 * @param {Int32Array} sampleRecords
 * @param {number} rows
 */
export function recordSamples(sampleRecords, rows) {
  const m = new Int32Array(rows).fill(-1);
  for (let i = 0; i < sampleRecords.length; i++) {
    const r = sampleRecords[i];
    if (r >= 0 && r < rows && m[r] < 0) m[r] = i;
  }
  return m;
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
