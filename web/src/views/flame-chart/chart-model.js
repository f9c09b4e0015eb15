// Flame chart model (pure; unit-tested): lane order and sampling intervals, the sample covering a
// time, the boxes of one lane for a view window (merged across adjacent pixel columns), ruler ticks
// and the overview track's activity.

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
  const given = event ? Number(event.interval_ns) : 0;
  if (event && given > 0 && (event.interval_from === 'period' || event.interval_from === 'frequency'))
    return { ns: given, from: String(event.interval_from) };
  const g = typicalGap(times);
  if (g > 0) return { ns: g, from: 'gap' };
  const fg = typeof fileGap === 'function' ? fileGap() : fileGap;
  if (fg > 0) return { ns: fg, from: 'file gap' };
  return { ns: span > 0 ? span / 1000 : 1, from: 'span' };
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
    const n = k >= 0 ? sampleNode[lane.samples[k]] : -1;
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
 * Exact calls (XRay intervals) of one lane by depth: views of the session's rows (readIntervals: the calls
 * in rows by thread and depth, each row in entry order; calls at one depth of one thread do not overlap,
 * so their ends are sorted too). Returns [{start, end, first}] per depth (first: the row's first call in
 * the table; a depth without calls is a hole).
 * @param {{start: Float64Array, end: Float64Array, rows: {thread: Int32Array, depth: Int32Array, first: Int32Array}}} intervals
 * @param {number} thread
 */
export function intervalRows(intervals, thread) {
  const { thread: rowThread, depth, first } = intervals.rows;
  // the thread's first row (rows are by thread)
  let lo = 0;
  let hi = rowThread.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rowThread[mid] < thread) lo = mid + 1;
    else hi = mid;
  }
  /** @type {{start: Float64Array, end: Float64Array, first: number}[]} */
  const byDepth = [];
  for (let r = lo; r < rowThread.length && rowThread[r] === thread; r++) {
    const a = first[r];
    const b = first[r + 1];
    byDepth[depth[r]] = { start: intervals.start.subarray(a, b), end: intervals.end.subarray(a, b), first: a };
  }
  return byDepth;
}

/**
 * First index k >= from of a row with end[k] > t (binary search over the sorted ends), or the row length.
 * @param {{end: ArrayLike<number>}} row
 * @param {number} t
 * @param {number} [from]
 */
export function firstEndingAfter(row, t, from = 0) {
  let lo = from;
  let hi = row.end.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (row.end[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The interval (index into the IntervalTable) of a depth row covering time t, or -1. */
export function intervalAt(row, t) {
  if (!row) return -1;
  const k = firstEndingAfter(row, t);
  return k < row.end.length && row.start[k] <= t ? row.first + k : -1;
}

/**
 * The boxes of one depth row visible in [t0, t1) at `width` columns: intervals thinner than a column
 * that fall in a column already drawn are skipped. Returns [{i, x0, x1}] (x in columns).
 * The calls that end in a column already drawn are stepped over by a binary search, not one by one: a
 * draw costs the columns' count times a search, whatever the calls in view (an XRay log's row holds millions).
 */
export function intervalBoxes(row, t0, t1, width) {
  const out = [];
  if (!row) return out;
  const dt = (t1 - t0) / width;
  const n = row.start.length;
  let lastCol = -Infinity;
  for (let k = firstEndingAfter(row, t0); k < n && row.start[k] < t1; ) {
    const x0 = (row.start[k] - t0) / dt;
    const x1 = (row.end[k] - t0) / dt;
    if (x1 - x0 < 1 && Math.floor(x0) <= lastCol) {
      // (the calls ending in the drawn columns would all be skipped: on to the first ending after them)
      k = Math.max(k + 1, firstEndingAfter(row, t0 + (lastCol + 1) * dt, k + 1));
      continue;
    }
    lastCol = Math.floor(Math.max(x1 - 1, x0));
    out.push({ i: row.first + k, x0: Math.max(x0, -1), x1: Math.min(Math.max(x1, x0 + 1), width + 1) });
    k++;
  }
  return out;
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
