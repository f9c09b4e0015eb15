// @ts-check
// The Compare tab's model, made in the worker from Session.diff() (core/api/compare.h
// CompareProfiles): the labels decoded, and the differential flame graph's layout. The core
// builds the merged tree (parents before children, in the order samples met them); the
// layout orders each node's children by label (as flamegraph.pl does) and places them from
// their B totals (widths from B, as difffolded.pl + flamegraph.pl draw), so a frame that is
// only in A has no width in the graph (the functions table still lists it).

import { decodeStrings } from '../lib/strings.js';

/** @typedef {import('../../../wasm/profscope').DiffResult} DiffResult */

/**
 * @typedef {{order: Int32Array, x: Float64Array, maxDepth: number, maxAbsDelta: number}} DiffLayout
 *   order: nodes in depth-first order (root first, children by label);
 *   x: node -> start, in B's units (0 .. totalB[0]);
 *   maxAbsDelta: the largest |totalB - totalA| of a non-root node (the colour scale).
 */

/**
 * @param {Pick<DiffResult, 'parent' | 'func' | 'depth' | 'totalA' | 'totalB' | 'selfB'>} t
 * @param {string[]} labels func -> label
 * @returns {DiffLayout}
 */
export function diffLayout(t, labels) {
  const n = t.parent.length;
  /** @type {number[][]} */
  const kids = Array.from({ length: n }, () => []);
  for (let i = 1; i < n; i++) kids[t.parent[i]].push(i);
  const name = (/** @type {number} */ i) => labels[t.func[i]] ?? '';
  const cmp = (/** @type {number} */ p, /** @type {number} */ q) => {
    const a = name(p), b = name(q);
    return a < b ? -1 : a > b ? 1 : p - q;
  };
  const order = new Int32Array(n);
  const x = new Float64Array(n);
  let k = 0, maxDepth = 0, maxAbsDelta = 0;
  /** @type {number[]} */
  const stack = n ? [0] : [];
  while (stack.length) {
    const i = /** @type {number} */ (stack.pop());
    order[k++] = i;
    if (t.depth[i] > maxDepth) maxDepth = t.depth[i];
    if (i > 0) maxAbsDelta = Math.max(maxAbsDelta, Math.abs(t.totalB[i] - t.totalA[i]));
    const c = kids[i].sort(cmp);
    // children left to right from the parent's start; its self samples are the rest on the right
    let at = x[i];
    for (const ch of c) {
      x[ch] = at;
      at += t.totalB[ch];
    }
    for (let j = c.length - 1; j >= 0; j--) stack.push(c[j]);
  }
  return { order, x, maxDepth, maxAbsDelta };
}

/**
 * The page's model of a diff (everything transferable).
 * @param {DiffResult} d
 * @param {{nameA: string, nameB: string, normalize: boolean}} meta
 */
export function diffModel(d, meta) {
  const labels = decodeStrings(d.labels);
  const modules = decodeStrings(d.modules);
  return {
    ...meta,
    labels,
    modules,
    parent: d.parent,
    func: d.func,
    depth: d.depth,
    selfA: d.selfA,
    totalA: d.totalA,
    selfB: d.selfB,
    totalB: d.totalB,
    functions: d.functions,
    sumA: d.sumA,
    sumB: d.sumB,
    rawSumA: d.rawSumA,
    layout: diffLayout(d, labels),
  };
}
