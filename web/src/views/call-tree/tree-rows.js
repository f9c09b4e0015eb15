// Visible rows of a call tree table (pure; unit-tested): preorder over expanded nodes,
// the root hidden, siblings sorted by total, self or name.

/**
 * @param {{total: Float64Array, self: Float64Array, func: Int32Array}} tree
 * @param {number[][]} kids children per node (nodes with total 0 left out)
 * @param {string[]} names
 * @param {Set<number>} expanded
 * @param {{key: 'total'|'self'|'name', desc: boolean}} sort
 * @returns {number[]} node ids in display order
 */
export function visibleRows(tree, kids, names, expanded, sort) {
  const nm = (n) => String(names[tree.func[n]] ?? '');
  const cmp = (a, b) => {
    let c;
    if (sort.key === 'name') c = nm(a) < nm(b) ? -1 : nm(a) > nm(b) ? 1 : 0;
    else c = tree[sort.key][a] - tree[sort.key][b];
    if (sort.desc) c = -c;
    return c || tree.total[b] - tree.total[a] || a - b;
  };
  const out = [];
  const st = [];
  const push = (n) => {
    const k = kids[n].slice().sort(cmp);
    for (let i = k.length - 1; i >= 0; i--) st.push(k[i]);
  };
  if (kids.length) push(0);
  while (st.length) {
    const n = st.pop();
    out.push(n);
    if (expanded.has(n)) push(n);
  }
  return out;
}
