// @ts-check
// A column of integers read by position, held as runs of a constant step when that is much smaller
// than the column: the record table's parents (millions of records share one data section), its
// children lists and leaf order (row numbers counting up) are a few runs in nearly every file, 4 bytes
// a row as arrays. A run is (start position, first value, step): value i = first + step * (i - start).
// Made by the session (core/model/packed_column.h, handed over by wasm/bindings.cc), read on the page
// (intAt): a plain object of typed arrays, so it crosses postMessage as it is. Columns with many short runs stay plain Int32Arrays.

/**
 * @typedef {{length: number, starts: Int32Array, firsts: Int32Array | Float64Array, steps: Int32Array, k?: number}} IntRuns
 * @typedef {Int32Array | IntRuns} IntColumn
 * @typedef {IntColumn | Uint8Array | Uint16Array | Uint32Array | Float64Array} NumColumn (any column intAt reads)
 */

/**
 * Value `i` of the column (undefined outside it, as for an array). Sequential reads cost O(1): the
 * last run read is remembered on the column.
 * @param {NumColumn} col
 * @param {number} i
 * @returns {number}
 */
export function intAt(col, i) {
  if (ArrayBuffer.isView(col)) return col[i];
  if (!(i >= 0 && i < col.length)) return /** @type {any} */ (undefined);
  const { starts } = col;
  let k = col.k ?? 0;
  if (!(starts[k] <= i && (k + 1 === starts.length || i < starts[k + 1]))) {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    k = lo;
    col.k = k;
  }
  return col.firsts[k] + col.steps[k] * (i - starts[k]);
}

/**
 * Values [from, to) of the column as an array (tests, short ranges).
 * @param {NumColumn} col
 * @param {number} [from]
 * @param {number} [to]
 */
export function intsOf(col, from = 0, to = col.length) {
  const out = [];
  for (let i = from; i < to; i++) out.push(intAt(col, i));
  return out;
}
