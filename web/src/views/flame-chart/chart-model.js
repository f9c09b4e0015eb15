// Flame chart model (pure; unit-tested): lane order and sampling intervals, the sample covering a
// time, the boxes of one lane for a view window (merged across adjacent pixel columns), ruler ticks
// and the overview track's activity.
import { intKey } from '../../lib/keyed-hash.js';

/** Index of the last element of sorted `times` <= t, or -1. */
export function lastAtOrBefore(times, t) {
  let lo = 0;
  let hi = times.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** Typical gap between samples of a lane (median of up to 2000 deltas); 0 when it has fewer than 2 samples. */
export function typicalGap(times) {
  const n = times.length;
  if (n < 2) return 0;
  const step = Math.max(1, Math.floor((n - 1) / 2000));
  const d = [];
  for (let i = 1; i < n; i += step) d.push(times[i] - times[i - 1]);
  d.sort((a, b) => a - b);
  return Math.max(d[d.length >> 1], 0);
}

/**
 * How long one sample of a lane lasts on the chart (its sampling interval), and where that comes from:
 *  - 'period' / 'frequency': the event says (perf cpu-clock/task-clock: the fixed period in ns; perf
 *    attr.freq: 1 / frequency; gperftools: the header's period), `event` = {interval_ns, interval_from};
 *  - 'gap': the median gap between this lane's samples;
 *  - 'file gap': a lane with one sample and an event that does not say: the median gap of the whole file
 *    (`fileGap`);
 *  - 'span': nothing better: 1/1000 of the profile's span (a one-sample file).
 * Never 0, so a thread with one sample draws a box.
 * @param {ArrayLike<number>} times the lane's sorted sample times
 * @param {{interval_ns?: number, interval_from?: string}|null|undefined} event
 * @param {number | (() => number)} fileGap median gap of the file's samples (0 = unknown), or what makes it
 *   (asked only when the lane's own gap does not say: it sorts every sample's time)
 * @param {number} span the profile's time span
 * @returns {{ns: number, from: string}}
 */
export function laneInterval(times, event, fileGap, span) {
  return intervalOf(() => typicalGap(times), event, fileGap, span);
}

/**
 * laneInterval of a lane whose median gap is known, or made when asked (`gap`: a number or what makes it).
 * @param {number | (() => number)} gap
 * @param {{interval_ns?: number, interval_from?: string}|null|undefined} event
 * @param {number | (() => number)} fileGap
 * @param {number} span
 * @returns {{ns: number, from: string}}
 */
export function intervalOf(gap, event, fileGap, span) {
  const given = event ? Number(event.interval_ns) : 0;
  if (event && given > 0 && (event.interval_from === 'period' || event.interval_from === 'frequency'))
    return { ns: given, from: String(event.interval_from) };
  const g = typeof gap === 'function' ? gap() : gap;
  if (g > 0) return { ns: g, from: 'gap' };
  const fg = typeof fileGap === 'function' ? fileGap() : fileGap;
  if (fg > 0) return { ns: fg, from: 'file gap' };
  return { ns: span > 0 ? span / 1000 : 1, from: 'span' };
}

/**
 * laneInterval of a tracer's lane (worker/derive.js CallLane: no times, its median gap made by the worker,
 * the file's when its own is 0): the same answer as laneInterval of its calls' times.
 * @param {{gap: number, gapFrom: string}} lane
 * @param {{interval_ns?: number, interval_from?: string}|null|undefined} event
 * @param {number} span
 */
export function callLaneInterval(lane, event, span) {
  return lane.gapFrom === 'file gap' ? intervalOf(0, event, lane.gap, span) : intervalOf(lane.gap, event, 0, span);
}

/**
 * The sample rows of a lane (a tracer's lane: its calls, which it holds no entry of).
 * @param {{calls?: boolean, count?: number, samples?: ArrayLike<number>}} lane
 */
export function laneSamples(lane) {
  return lane.calls ? Number(lane.count) || 0 : lane.samples ? lane.samples.length : 0;
}

/**
 * The first and last time of a lane's samples (a tracer's lane: its calls' first and last start), or null
 * when it has none.
 * @param {{calls?: boolean, first?: number, last?: number, count?: number, times?: ArrayLike<number>}} lane
 * @returns {[number, number] | null}
 */
export function laneExtent(lane) {
  if (lane.calls) return lane.count ? [Number(lane.first), Number(lane.last)] : null;
  const t = lane.times;
  return t && t.length ? [t[0], t[t.length - 1]] : null;
}

/** Sample (index into lane) shown at time t, or -1 (none / gap): a sample lasts its interval `width`, or until the next one. */
export function sampleAt(lane, t, width) {
  const k = lastAtOrBefore(lane.times, t);
  if (k < 0) return -1;
  const next = k + 1 < lane.times.length ? lane.times[k + 1] : Infinity;
  const endT = Math.min(next, lane.times[k] + width);
  return t < endT || lane.times[k] === t ? k : -1;
}

/**
 * The sample a pixel column [a, b) shows: the one covering its middle, else the last one that starts
 * in it (a sample shorter than a column still gets its column: a thread with one sample is seen).
 */
export function sampleInColumn(lane, a, b, width) {
  const k = sampleAt(lane, (a + b) / 2, width);
  if (k >= 0) return k;
  const j = lastAtOrBefore(lane.times, b);
  return j >= 0 && lane.times[j] >= a && lane.times[j] < b ? j : -1;
}

/**
 * The lanes in display order: pinned ones first (in the order they were pinned), then the others by
 * samples, busiest first (ties: thread/CPU number); hidden ones apart, in the same order.
 * @template {{key: string, count: number, thread: number}} L
 * @param {L[]} lanes
 * @param {string[]} pinned lane keys, in pin order
 * @param {Set<string>} hidden lane keys
 * @returns {{shown: L[], hidden: L[]}}
 */
export function orderLanes(lanes, pinned, hidden) {
  const pin = new Map(pinned.map((k, i) => [k, i]));
  const rank = (/** @type {L} */ l) => (pin.has(l.key) ? /** @type {number} */ (pin.get(l.key)) : Infinity);
  const sorted = lanes.slice().sort((a, b) => {
    const pa = rank(a);
    const pb = rank(b);
    if (pa !== pb) return pa < pb ? -1 : 1;
    return b.count - a.count || a.thread - b.thread;
  });
  return { shown: sorted.filter((l) => !hidden.has(l.key)), hidden: sorted.filter((l) => hidden.has(l.key)) };
}

/**
 * The first lane of each process, where the markers of a thread without a lane go: pid -> lane index
 * (undefined when no lane is of that process). The pids are the file's: keyed (lib/keyed-hash.js), as
 * V8 hashes small integers without a seed.
 * @param {{thread: number}[]} lanes in display order
 * @param {{pid?: number}[]} threads the file's
 * @returns {(pid: number | undefined) => number | undefined}
 */
export function firstLaneOfPid(lanes, threads) {
  /** @type {Map<any, number>} */
  const byPid = new Map();
  lanes.forEach((l, i) => {
    const pid = l.thread >= 0 ? threads[l.thread]?.pid : undefined;
    const key = intKey(pid);
    if (pid != null && !byPid.has(key)) byPid.set(key, i);
  });
  return (pid) => byPid.get(intKey(pid));
}

/**
 * Ruler ticks for the window [t0, t1] with time zero `zero`: the values (t - zero) are multiples of a
 * round step (1, 2 or 5 times a power of ten) giving at most `maxTicks` ticks. Returns {step, ticks:
 * [{t, value}]} with t absolute and value = t - zero.
 */
export function niceTicks(t0, t1, zero, maxTicks) {
  const span = t1 - t0;
  if (!(span > 0) || !(maxTicks >= 1)) return { step: 0, ticks: [] };
  const raw = span / maxTicks;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw * (1 - 1e-9)) || 10 * p;
  const ticks = [];
  const first = Math.ceil((t0 - zero) / step - 1e-9);
  for (let i = first; ticks.length <= maxTicks + 1; i++) {
    // the value as a multiple of the step, rounded so 3 * 0.1 reads 0.3
    const value = Number((i * step).toPrecision(12));
    const t = zero + value;
    if (t > t1) break;
    ticks.push({ t, value });
  }
  return { step, ticks };
}

/**
 * Samples of one lane per column of [t0, t1) at `cols` columns (the overview track's activity):
 * out[c] = samples whose time falls in column c, each weighted by `sampleCounts` when given (gperftools).
 * @param {{times: ArrayLike<number>, samples: ArrayLike<number>}} lane
 * @param {number} t0
 * @param {number} t1
 * @param {number} cols
 * @param {ArrayLike<number>|null} [sampleCounts] samples each sample row stands for (empty/null = 1 each)
 */
export function laneActivity(lane, t0, t1, cols, sampleCounts) {
  const out = new Float32Array(cols);
  const dt = (t1 - t0) / cols;
  if (!(dt > 0)) return out;
  const weighted = !!(sampleCounts && sampleCounts.length);
  let lo = 0; // first sample at or after t0
  let hi = lane.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lane.times[mid] < t0) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < lane.times.length; k++) {
    const t = lane.times[k];
    if (t >= t1) break;
    const c = Math.min(cols - 1, Math.floor((t - t0) / dt));
    out[c] += weighted ? /** @type {ArrayLike<number>} */ (sampleCounts)[lane.samples[k]] || 1 : 1;
  }
  return out;
}

/**
 * The cells of a collapsed lane's activity strip in the view [view.t0, view.t1) drawn `width` px wide, from
 * activity `act` counted over q = [q.t0, q.t1) at act.length columns (a tracer's comes from the worker and
 * may be for a view a moment older: its columns are placed where their times are now; the same view: column
 * c at c * width / cols). [{x, w, v}]: px, and v = the column's count over the busiest column's (0..1].
 * @param {ArrayLike<number>} act
 * @param {{t0: number, t1: number}} q
 * @param {{t0: number, t1: number}} view
 * @param {number} width
 */
export function stripCells(act, q, view, width) {
  const cols = act.length;
  /** @type {{x: number, w: number, v: number}[]} */
  const out = [];
  let mx = 0;
  for (let c = 0; c < cols; c++) if (act[c] > mx) mx = act[c];
  if (!mx) return out;
  const same = q.t0 === view.t0 && q.t1 === view.t1;
  const scaleX = width / cols;
  const dt = (q.t1 - q.t0) / cols;
  const px = width / (view.t1 - view.t0);
  for (let c = 0; c < cols; c++) {
    if (!act[c]) continue;
    if (same) {
      out.push({ x: c * scaleX, w: Math.max(1, scaleX), v: act[c] / mx });
      continue;
    }
    const x = (q.t0 + c * dt - view.t0) * px;
    const w = Math.max(1, dt * px);
    if (x + w < 0 || x > width) continue;
    out.push({ x, w, v: act[c] / mx });
  }
  return out;
}

/** Ancestor of call node n at depth d (root = depth 0), or -1. */
export function ancestorAt(tree, n, d) {
  while (n >= 0 && tree.depth[n] > d) n = tree.parent[n];
  return n >= 0 && tree.depth[n] === d ? n : -1;
}

/**
 * Boxes of one lane for the window [t0, t1) drawn `width` columns wide: for each pixel column
 * the sample at the column's time; runs of columns with the same call node at a depth merge
 * into one box. Returns [{depth, node, x0, x1}] (depth >= 1; x in columns).
 */
export function laneBoxes(lane, sampleNode, tree, t0, t1, width, interval) {
  const out = [];
  const open = []; // open[d] = {node, x0}
  const chain = [];
  const dt = (t1 - t0) / width;
  let prevNode = -2;
  const flush = (fromDepth, x) => {
    for (let d = open.length - 1; d >= fromDepth; d--) {
      const o = open[d];
      if (o) out.push({ depth: d, node: o.node, x0: o.x0, x1: x });
    }
    open.length = Math.min(open.length, fromDepth);
  };
  for (let x = 0; x < width; x++) {
    const k = sampleInColumn(lane, t0 + x * dt, t0 + (x + 1) * dt, interval);
    const n = k >= 0 ? (sampleNode[lane.samples[k]] ?? -1) : -1; // (a sample the array does not reach: none)
    if (n === prevNode) continue;
    prevNode = n;
    if (n < 0) {
      flush(1, x);
      continue;
    }
    chain.length = 0;
    for (let m = n; m > 0; m = tree.parent[m]) chain.push(m);
    chain.reverse(); // chain[d-1] = node at depth d
    let d = 1;
    while (d < open.length && open[d] && d - 1 < chain.length && open[d].node === chain[d - 1]) d++;
    flush(d, x);
    for (; d - 1 < chain.length; d++) open[d] = { node: chain[d - 1], x0: x };
  }
  flush(1, width);
  return out;
}

/**
 * The flame chart's rows of exact calls (XRay) of one thread: per depth, its row (an index of
 * `intervals.rows`, the worker's readFlameRows: rows by thread, then depth); a depth without calls is a
 * hole. The calls stay in the worker: the chart asks it for the boxes it draws (flameBoxes).
 * @param {{rows: {thread: Int32Array, depth: Int32Array}}} intervals
 * @param {number} thread
 * @returns {number[]}
 */
export function threadRows(intervals, thread) {
  const { thread: rowThread, depth } = intervals.rows;
  // the thread's first row (rows are by thread)
  let lo = 0;
  let hi = rowThread.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rowThread[mid] < thread) lo = mid + 1;
    else hi = mid;
  }
  /** @type {number[]} */
  const byDepth = [];
  for (let r = lo; r < rowThread.length && rowThread[r] === thread; r++) byDepth[depth[r]] = r;
  return byDepth;
}

/**
 * Where each row's boxes are in the worker's answer (flameBoxes: a row's boxes follow each other, in start
 * order): row -> [from, to).
 * @param {{row: Int32Array}} boxes
 * @returns {Map<number, [number, number]>}
 */
export function boxesByRow(boxes) {
  /** @type {Map<number, [number, number]>} */
  const out = new Map();
  const { row } = boxes;
  for (let k = 0; k < row.length; ) {
    let e = k + 1;
    while (e < row.length && row[e] === row[k]) e++;
    out.set(row[k], [k, e]);
    k = e;
  }
  return out;
}

/**
 * The boxes of one row, boxes [from, to) of the worker's answer, in the view [t0, t1) at `width` columns
 * (the answer may be for a view a moment older: what falls outside is left out): [{k, x0, x1}], x in
 * columns, a box at least a column wide.
 * @param {{start: Float64Array, end: Float64Array}} boxes
 * @param {[number, number]} range
 * @param {number} t0
 * @param {number} t1
 * @param {number} width
 */
export function rowBoxes(boxes, [from, to], t0, t1, width) {
  const out = [];
  const dt = (t1 - t0) / width;
  for (let k = from; k < to; k++) {
    const x0 = (boxes.start[k] - t0) / dt;
    const x1 = (boxes.end[k] - t0) / dt;
    if (x1 < 0 || x0 > width) continue;
    out.push({ k, x0: Math.max(x0, -1), x1: Math.min(Math.max(x1, x0 + 1), width + 1) });
  }
  return out;
}

/**
 * The box of a row (boxes [from, to)) under time t, `colDt` ns a column: the call covering t, or a thinner
 * one drawn a column wide over t; -1 when none.
 * @param {{start: Float64Array, end: Float64Array}} boxes
 * @param {[number, number] | undefined} range
 * @param {number} t
 * @param {number} colDt
 */
export function boxAt(boxes, range, t, colDt) {
  if (!range) return -1;
  // the first box whose drawn end is past t (drawn ends are in order: ends and starts both are)
  const drawnEnd = (/** @type {number} */ k) => Math.max(boxes.end[k], boxes.start[k] + colDt);
  let [lo, hi] = range;
  const to = hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (drawnEnd(mid) > t) hi = mid;
    else lo = mid + 1;
  }
  return lo < to && boxes.start[lo] <= t ? lo : -1;
}

/** Marker indices of one lane sorted by time, with their times, for binary search while drawing. */
export function sortMarkers(list, time) {
  const idx = Int32Array.from(list).sort((a, b) => time[a] - time[b] || a - b);
  const times = new Float64Array(idx.length);
  idx.forEach((k, j) => {
    times[j] = time[k];
  });
  return { idx, times };
}
