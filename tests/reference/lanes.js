// @ts-check
// The flame chart's lanes and the per-event and per-CPU counts, made in JavaScript from whole sample
// columns: what the worker made before the core did (Session.sampleLanes, eventTotals, cpuRows;
// core/analysis/sample_lanes.cc), kept as the reference the core's answers are checked against
// (tests/node/lanes-parity.test.mjs).

/**
 * The samples of each lane (0 .. nLanes - 1; -1: the samples of no lane), each sorted by time (equal
 * times in sample order); empty lanes left out.
 * @param {Float64Array} sampleTimes
 * @param {Int32Array} laneOf sample -> thread row (or CPU)
 * @param {number} nLanes
 * @returns {{thread: number, samples: number[], times: number[]}[]}
 */
export function buildLanes(sampleTimes, laneOf, nLanes) {
  /** @type {number[][]} */
  const of = Array.from({ length: nLanes + 1 }, () => []);
  for (let i = 0; i < laneOf.length; i++) {
    const t = laneOf[i];
    of[t >= 0 && t < nLanes ? t : nLanes].push(i);
  }
  const lanes = [];
  for (let t = 0; t <= nLanes; t++) {
    if (!of[t].length) continue;
    const samples = of[t].sort((a, b) => sampleTimes[a] - sampleTimes[b] || a - b);
    lanes.push({ thread: t < nLanes ? t : -1, samples, times: samples.map((i) => sampleTimes[i]) });
  }
  return lanes;
}

/**
 * Per-CPU lanes (none when no sample names a CPU, or one passes 65535).
 * @param {Float64Array} sampleTimes
 * @param {Int32Array} sampleCpus
 */
export function cpuLanes(sampleTimes, sampleCpus) {
  let maxCpu = -1;
  for (let i = 0; i < sampleCpus.length; i++) if (sampleCpus[i] > maxCpu) maxCpu = sampleCpus[i];
  if (maxCpu < 0 || maxCpu >= 65536) return [];
  return buildLanes(sampleTimes, sampleCpus, maxCpu + 1).filter((l) => l.thread >= 0);
}

/**
 * Samples per event (rows times their counts): the events the file names, or as many as the samples use.
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
 * Sample rows per CPU, in CPU order.
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
 * The exact calls of one thread by depth (a negative depth as 0), each depth in entry order (equal entries
 * in call order): per depth, the calls' indices with their entries and exits (the page's code before the
 * session ordered them into rows: Session.flameRows).
 * @param {{thread: Int32Array, depth: Int32Array, start: Float64Array, end: Float64Array}} calls
 * @param {number} thread
 * @returns {{idx: number[], start: number[], end: number[]}[]}
 */
export function intervalRows(calls, thread) {
  /** @type {number[][]} */
  const byDepth = [];
  for (let i = 0; i < calls.start.length; i++) {
    if (calls.thread[i] !== thread) continue;
    (byDepth[Math.max(0, calls.depth[i])] ||= []).push(i);
  }
  return Array.from(byDepth, (list = []) => {
    list.sort((a, b) => calls.start[a] - calls.start[b] || a - b);
    return { idx: list, start: list.map((i) => calls.start[i]), end: list.map((i) => calls.end[i]) };
  });
}

/**
 * The boxes the flame chart draws of one row of exact calls (its calls' start and end, in start order)
 * in [t0, t1) at `cols` columns, walked call by call: a call thinner than a column that starts in a column
 * drawn already is left out. Returns the indexes of the calls drawn (the page's code before the session
 * made them: Session.flameBoxes).
 * @param {{start: ArrayLike<number>, end: ArrayLike<number>}} row
 * @param {number} t0
 * @param {number} t1
 * @param {number} cols
 * @returns {number[]}
 */
export function walkBoxes(row, t0, t1, cols) {
  const out = [];
  const dt = (t1 - t0) / cols;
  let lastCol = -Infinity;
  for (let k = 0; k < row.start.length && row.start[k] < t1; k++) {
    if (row.end[k] <= t0) continue;
    const x0 = (row.start[k] - t0) / dt;
    const x1 = (row.end[k] - t0) / dt;
    if (x1 - x0 < 1 && Math.floor(x0) <= lastCol) continue;
    lastCol = Math.floor(Math.max(x1 - 1, x0));
    out.push(k);
  }
  return out;
}
