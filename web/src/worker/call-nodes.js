// @ts-check
// What the worker derives from the core's call tree for the views (pure functions, unit-tested).
// The tree is in depth-first order with a subtree end per node (wasm/profscope.d.ts
// CallTreeColumns): a node's subtree is the range [n, subtreeEnd[n]), so "under a node" is a
// range check and per-function totals are one pass.
//
// layoutFlame(tree) -> the flame graph layout (preorder, left-heavy: children by total desc),
//   what the flame graph draws (views/flame-graph/flame-draw.js).

/** @typedef {import('../../../wasm/profscope').CallTreeColumns} CallTreeColumns */

/**
 * Children lists (CSR) sorted by total descending, then name.
 * @param {CallTreeColumns} tree
 * @param {ArrayLike<string>} names
 */
export function childrenOf(tree, names) {
  const { parent, total, func, count } = tree;
  const start = new Int32Array(count + 1);
  for (let n = 1; n < count; n++) start[parent[n] + 1]++;
  for (let i = 1; i <= count; i++) start[i] += start[i - 1];
  const kids = new Int32Array(Math.max(0, count - 1));
  const fill = start.slice(0, count);
  for (let n = 1; n < count; n++) kids[fill[parent[n]]++] = n;
  /** @param {number} n */
  const nm = (n) => names[func[n]] ?? '';
  for (let n = 0; n < count; n++) {
    const a = start[n];
    const b = start[n + 1];
    if (b - a > 1) {
      const sub = Array.from(kids.subarray(a, b));
      sub.sort((x, y) => total[y] - total[x] || (nm(x) < nm(y) ? -1 : nm(x) > nm(y) ? 1 : x - y));
      kids.set(sub, a);
    }
  }
  return { start, kids };
}

/**
 * Flame graph layout (left-heavy). Nodes with total 0 are left out.
 * @param {CallTreeColumns} tree
 * @param {ArrayLike<string>} names
 * @param {number} [event]
 */
export function layoutFlame(tree, names, event = 0) {
  const { total, self, func, count } = tree;
  const { start: ks, kids } = childrenOf(tree, names);
  let m = 0;
  for (let n = 0; n < count; n++) if (total[n] > 0 || n === 0) m++;
  const out = {
    event,
    total: total[0] || 0,
    maxDepth: 0,
    func: new Int32Array(m),
    depth: new Int32Array(m),
    start: new Float64Array(m),
    total_: new Float64Array(m),
    self: new Float64Array(m),
    end: new Int32Array(m),
    node: new Int32Array(m),
    layoutOf: new Int32Array(count).fill(-1),
  };
  /** @type {[number, number, number][]} node, depth, start; negative node = close marker */
  const st = [[0, 0, 0]];
  let k = 0;
  while (st.length) {
    const [n, d, s] = /** @type {[number, number, number]} */ (st.pop());
    if (n < 0) {
      out.end[-n - 1] = k;
      continue;
    }
    const oi = k++;
    out.func[oi] = func[n];
    out.depth[oi] = d;
    out.start[oi] = s;
    out.total_[oi] = total[n];
    out.self[oi] = self[n];
    out.node[oi] = n;
    out.layoutOf[n] = oi;
    if (d > out.maxDepth) out.maxDepth = d;
    st.push([-oi - 1, 0, 0]);
    const a = ks[n];
    const b = ks[n + 1];
    const starts = [];
    let x = s;
    for (let i = a; i < b; i++) {
      starts.push(x);
      x += total[kids[i]];
    }
    for (let i = b - 1; i >= a; i--) if (total[kids[i]] > 0) st.push([kids[i], d + 1, starts[i - a]]);
  }
  return out;
}

/**
 * Root->node func path of call node n.
 * @param {CallTreeColumns} tree
 * @param {number} n
 */
export function nodePath(tree, n) {
  const out = [];
  while (n > 0) {
    out.push(tree.func[n]);
    n = tree.parent[n];
  }
  return out.reverse();
}

/**
 * Is call node n in the subtree of node a?
 * @param {CallTreeColumns} tree
 * @param {number} n
 * @param {number} a
 */
export function isUnder(tree, n, a) {
  return n >= a && n < tree.subtreeEnd[a];
}

/**
 * Self and total weight per function of a call tree. A function's total counts each sample once
 * even when it recurses: a node adds its total only when no ancestor has the same function, i.e.
 * when it is not inside the subtree of the last outermost node of its function (preorder).
 * @param {CallTreeColumns} tree
 * @param {number} nFuncs
 */
export function functionTotals(tree, nFuncs) {
  const self = new Float64Array(nFuncs);
  const total = new Float64Array(nFuncs);
  const openUntil = new Int32Array(nFuncs); // subtree end of the function's last outermost node
  const n = tree.count;
  for (let i = 0; i < n; i++) {
    const f = tree.func[i];
    if (f < 0 || f >= nFuncs) continue;
    self[f] += tree.self[i];
    if (i >= openUntil[f]) {
      total[f] += tree.total[i];
      openUntil[f] = tree.subtreeEnd[i];
    }
  }
  return { self, total };
}

/**
 * Matches of a search (substring, case-insensitive, or /regex/flags) among names -> Uint8Array per func.
 * @param {ArrayLike<string>} names
 * @param {string} query
 */
export function searchFuncs(names, query) {
  const out = new Uint8Array(names.length);
  if (!query) return out;
  /** @type {(s: string) => boolean} */
  let test;
  const m = /^\/(.*)\/([a-z]*)$/.exec(query);
  if (m) {
    let re;
    try {
      re = new RegExp(m[1], m[2].includes('i') ? m[2] : m[2] + 'i');
    } catch {
      return out;
    }
    test = (s) => re.test(s);
  } else {
    const q = query.toLowerCase();
    test = (s) => s.toLowerCase().includes(q);
  }
  for (let i = 0; i < names.length; i++) if (test(String(names[i]))) out[i] = 1;
  return out;
}
