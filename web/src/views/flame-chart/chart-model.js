// Flame chart model (pure; unit-tested): lane geometry, the sample covering a time,
// and the boxes of one lane for a view window, merged across adjacent pixel columns.

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

/** Typical gap between samples of a lane (median of up to 2000 deltas); a sample lasts until the next one, at most 4 gaps. */
export function typicalGap(times) {
  const n = times.length;
  if (n < 2) return 1;
  const step = Math.max(1, Math.floor((n - 1) / 2000));
  const d = [];
  for (let i = 1; i < n; i += step) d.push(times[i] - times[i - 1]);
  d.sort((a, b) => a - b);
  return Math.max(d[d.length >> 1], 1e-9);
}

/** Sample (index into lane) shown at time t, or -1 (none / gap). */
export function sampleAt(lane, t, gap) {
  const k = lastAtOrBefore(lane.times, t);
  if (k < 0) return -1;
  const next = k + 1 < lane.times.length ? lane.times[k + 1] : Infinity;
  const endT = Math.min(next, lane.times[k] + 4 * gap);
  return t < endT || lane.times[k] === t ? k : -1;
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
export function laneBoxes(lane, sampleNode, tree, t0, t1, width, gap) {
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
    const t = t0 + (x + 0.5) * dt;
    const k = sampleAt(lane, t, gap);
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
 * Exact calls (XRay intervals) of one lane grouped by depth, each depth sorted by start (calls at
 * one depth of one thread do not overlap, so ends are sorted too). Returns [{start, end, idx}] per depth.
 */
export function intervalRows(intervals, thread) {
  const byDepth = [];
  const n = intervals.start.length;
  for (let i = 0; i < n; i++) {
    if (intervals.thread[i] !== thread) continue;
    const d = Math.max(0, intervals.depth[i]);
    (byDepth[d] ||= []).push(i);
  }
  return byDepth.map((list = []) => {
    list.sort((a, b) => intervals.start[a] - intervals.start[b] || a - b);
    const idx = Int32Array.from(list);
    const start = new Float64Array(idx.length);
    const end = new Float64Array(idx.length);
    idx.forEach((i, k) => {
      start[k] = intervals.start[i];
      end[k] = intervals.end[i];
    });
    return { start, end, idx };
  });
}

/** First index k of a row with end[k] > t (binary search over the sorted ends), or the row length. */
export function firstEndingAfter(row, t) {
  let lo = 0;
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
  return k < row.end.length && row.start[k] <= t ? row.idx[k] : -1;
}

/**
 * The boxes of one depth row visible in [t0, t1) at `width` columns: intervals thinner than a column
 * that fall in a column already drawn are skipped. Returns [{i, x0, x1}] (x in columns).
 */
export function intervalBoxes(row, t0, t1, width) {
  const out = [];
  if (!row) return out;
  const dt = (t1 - t0) / width;
  let lastCol = -Infinity;
  for (let k = firstEndingAfter(row, t0); k < row.start.length && row.start[k] < t1; k++) {
    const x0 = (row.start[k] - t0) / dt;
    const x1 = (row.end[k] - t0) / dt;
    if (x1 - x0 < 1 && Math.floor(x0) <= lastCol) continue;
    lastCol = Math.floor(Math.max(x1 - 1, x0));
    out.push({ i: row.idx[k], x0: Math.max(x0, -1), x1: Math.min(Math.max(x1, x0 + 1), width + 1) });
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
