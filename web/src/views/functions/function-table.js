// Per-function tables (pure; unit-tested).
//
// functionTotals(tree, nFuncs): self and total weight per function of an analysis tree
// (a call-node table: parent, func, self, total; parents before children). A function's
// total counts each sample once even when it recurses: a node adds its total only when no
// ancestor has the same function.
export function functionTotals(tree, nFuncs) {
  const self = new Float64Array(nFuncs);
  const total = new Float64Array(nFuncs);
  const n = tree.parent.length;
  for (let i = 0; i < n; i++) {
    const f = tree.func[i];
    if (f < 0 || f >= nFuncs) continue;
    self[f] += tree.self[i];
    let outer = true;
    for (let a = tree.parent[i]; a >= 0; a = tree.parent[a]) {
      if (tree.func[a] === f) {
        outer = false;
        break;
      }
    }
    if (outer) total[f] += tree.total[i];
  }
  return { self, total };
}

/** Rows {func, name, self, total} of the functions with weight, sorted by `key` ('self'|'total'|'name'), descending for numbers. */
export function functionRows(totals, names, key = 'self', desc = true) {
  const rows = [];
  for (let f = 0; f < totals.total.length; f++) {
    if (totals.total[f] > 0 || totals.self[f] > 0) rows.push({ func: f, name: String(names[f] ?? '[unknown]'), self: totals.self[f], total: totals.total[f] });
  }
  return sortRows(rows, key, desc);
}

/** Sorts rows by a column (numbers or strings), ties by name. */
export function sortRows(rows, key, desc = true) {
  const sign = desc ? -1 : 1;
  return rows.sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return c !== 0 ? sign * c : String(a.name ?? a.function).localeCompare(String(b.name ?? b.function));
  });
}
