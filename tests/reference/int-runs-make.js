// @ts-check
// Making and scanning columns held as runs (web/src/lib/int-runs.js reads them on the page: intAt): how the
// page's worker made them before the session did (Session.recordIndex, recordParentRuns,
// core/model/packed_column.h), kept for the reference builders (record-index.js, records.js) and their tests.
/**
 * @typedef {import('../../web/src/lib/int-runs.js').IntRuns} IntRuns
 * @typedef {import('../../web/src/lib/int-runs.js').IntColumn} IntColumn
 * @typedef {import('../../web/src/lib/int-runs.js').NumColumn} NumColumn
 */

/**
 * The column as runs when they take at most `share` of its 4 bytes a value, else the array itself.
 * @param {Int32Array} a
 * @param {number} [share] at most this many runs per value (each run is 12 bytes)
 * @returns {IntColumn}
 */
export function packInts(a, share = 1 / 12) {
  const n = a.length;
  const b = new RunBuilder();
  for (let i = 0; i < n; i++) if (b.push(a[i]) && b.lens.length > n * share) return a;
  return n ? joinRuns([b]) : a;
}

/**
 * Runs made value by value (greedy), with no array of the values needed (the worker builds the record
 * index's columns so, instead of arrays of millions of rows it would then pack and drop): each value
 * extends the last run when its step holds (a run of one takes any step that fits 32 bits), else starts one.
 */
export class RunBuilder {
  constructor() {
    /** @type {number[]} */
    this.firsts = [];
    /** @type {number[]} */
    this.steps = [];
    /** @type {number[]} */
    this.lens = [];
    this.length = 0;
  }

  /**
   * Adds a value; true when it started a run.
   * @param {number} v
   */
  push(v) {
    this.length++;
    const k = this.lens.length - 1;
    if (k >= 0) {
      const len = this.lens[k];
      const d = v - (this.firsts[k] + this.steps[k] * (len - 1));
      if (d === (d | 0) && (len === 1 || d === this.steps[k])) {
        this.steps[k] = d;
        this.lens[k] = len + 1;
        return false;
      }
    }
    this.firsts.push(v);
    this.steps.push(0);
    this.lens.push(1);
    return true;
  }
}

/**
 * The values of the builders one after another, as one column of runs.
 * @param {Iterable<RunBuilder>} builders
 * @returns {IntRuns}
 */
export function joinRuns(builders) {
  const list = [...builders];
  const runs = list.reduce((n, b) => n + b.lens.length, 0);
  const out = { length: 0, starts: new Int32Array(runs), firsts: new Int32Array(runs), steps: new Int32Array(runs) };
  let i = 0;
  for (const b of list) {
    for (let k = 0; k < b.lens.length; k++, i++) {
      out.starts[i] = out.length;
      out.firsts[i] = b.firsts[k];
      out.steps[i] = b.steps[k];
      out.length += b.lens[k];
    }
  }
  return out;
}

/**
 * A reader of the column's values by position, for a loop over many rows: intAt's values, made for the
 * column's own shape (one kind of array per reader, so the reads stay monomorphic; runs remember the run
 * read last in the reader, and go to the next one without a search when reads count up).
 * @param {NumColumn} col
 * @returns {(i: number) => number}
 */
export function readerOf(col) {
  if (col instanceof Int32Array) return (i) => col[i];
  if (col instanceof Uint8Array) return (i) => col[i];
  if (col instanceof Uint16Array) return (i) => col[i];
  if (col instanceof Uint32Array) return (i) => col[i];
  if (col instanceof Float64Array) return (i) => col[i];
  if (ArrayBuffer.isView(col)) return (i) => /** @type {any} */ (col)[i];
  const { starts, firsts, steps, length } = col;
  const last = starts.length - 1;
  let k = 0;
  let lo = last >= 0 ? starts[0] : 0; // run k's rows: [lo, hi)
  let hi = last >= 1 ? starts[1] : last === 0 ? length : 0;
  return (i) => {
    if (!(i >= lo && i < hi)) {
      if (!(i >= 0 && i < length)) return /** @type {any} */ (undefined);
      if (i === hi && k < last) k++;
      else {
        let a = 0;
        let b = last;
        while (a < b) {
          const mid = (a + b + 1) >> 1;
          if (starts[mid] <= i) a = mid;
          else b = mid - 1;
        }
        k = a;
      }
      lo = starts[k];
      hi = k < last ? starts[k + 1] : length;
    }
    return firsts[k] + steps[k] * (i - lo);
  };
}

