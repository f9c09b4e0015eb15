// Per-function table rows (pure; unit-tested). The totals come from the worker
// (worker/call-nodes.js functionTotals, for the current analysis).
import { StringMap } from '../../lib/keyed-hash.js';

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

/**
 * Name -> the first function of that name (a tracer's account rows name their functions). The names are
 * the file's: a StringMap (lib/keyed-hash.js), not a Map of them, which V8 may hash alike (names over 16383
 * characters by their length alone).
 * @param {ArrayLike<string>} names
 * @returns {StringMap<number>}
 */
export function firstIndexByName(names) {
  /** @type {StringMap<number>} */
  const m = new StringMap();
  for (let i = 0; i < names.length; i++) {
    const n = String(names[i]);
    if (!m.has(n)) m.set(n, i);
  }
  return m;
}
