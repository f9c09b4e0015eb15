// Record table helpers on the page (all O(log n) or O(depth); the O(n) indexes
// are made by the session, Session.recordIndex: core/analysis/record_index.h). The table's parents and the index's children
// lists and leaf order are columns that may be held as runs (lib/int-runs.js): read them through these
// helpers, never by subscript.
import { RecordKind } from './record-kind.js';
import { intAt } from './int-runs.js';
import { typeKey } from '../worker/derive.js';

/** The record table's row count. @param {any} doc */
export function rowCount(doc) {
  return doc.records.kinds.length;
}

/** The row containing `row`, -1 at top level. @param {any} doc @param {number} row */
export function parentOf(doc, row) {
  const p = intAt(doc.records.parents, row);
  return p >= 0 ? p : -1;
}

/** How many rows contain `row` (0 at top level). @param {any} doc @param {number} row */
export function rowDepth(doc, row) {
  let d = 0;
  for (let p = parentOf(doc, row); p >= 0 && d < 256; p = parentOf(doc, p)) d++;
  return d;
}

/**
 * The children of `slot` (a row, or the row count for the top level) are kidAt(kidsBegin(slot)) ..
 * kidAt(kidsBegin(slot + 1) - 1), in row order.
 * @param {any} doc
 * @param {number} slot
 */
export function kidsBegin(doc, slot) {
  return intAt(doc.index.kidsStart, slot);
}

/** Entry `k` of the index's children lists: a row. @param {any} doc @param {number} k */
export function kidAt(doc, k) {
  return intAt(doc.index.kids, k);
}

/** Leaf `j` in offset order: a row. @param {any} doc @param {number} j */
export function leafAt(doc, j) {
  return intAt(doc.index.leafOrder, j);
}

/**
 * The label of a row: the worker's, else (until it arrives) the type name of its kind and type.
 * @param {any} doc
 * @param {number} row
 */
export function rowLabel(doc, row) {
  const { kinds, types } = doc.records;
  return doc.labels.get(row) ?? doc.typeNames.get(typeKey(intAt(kinds, row), intAt(types, row))) ?? '';
}

/**
 * Colour category of a row (hex view tints, tree chips):
 * 0 header/metadata, 1 sample, 2 task/mmap, 3 other kernel, 4 user/synthesized, 5 payload, 6 unparsed
 */
export function category(kind, type) {
  switch (kind) {
    case RecordKind.Record:
    case RecordKind.Nested:
      if (type === 9) return 1;
      if (type === 1 || type === 3 || type === 4 || type === 7 || type === 10 || type === 16 || type === 19) return 2;
      if (type >= 64) return 4;
      return 3;
    case RecordKind.Payload:
      return 5;
    case RecordKind.Unparsed:
      return 6;
    default:
      return 0;
  }
}

/**
 * The largest end of the leaves leafOrder[0..j] (the index keeps it only when the leaves' ends ever
 * decrease in offset order; else it is leaf j's own end).
 * @param {any} doc
 * @param {number} j
 */
export function leafEndMax(doc, j) {
  const m = doc.index.leafMaxEnd;
  if (m) return m[j];
  const r = leafAt(doc, j);
  return intAt(doc.records.offsets, r) + intAt(doc.records.sizes, r);
}

/**
 * Where `row` is in the index's `kids` (its parent's children are kids[kidsStart[slot]..kidsStart[slot+1]),
 * in row order), or -1.
 * @param {any} doc
 * @param {number} row
 */
export function kidPos(doc, row) {
  const n = rowCount(doc);
  if (!(row >= 0 && row < n)) return -1;
  const p = parentOf(doc, row);
  const slot = p >= 0 && p < n ? p : n;
  let lo = kidsBegin(doc, slot);
  let hi = kidsBegin(doc, slot + 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = kidAt(doc, mid);
    if (k < row) lo = mid + 1;
    else if (k > row) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Deepest file-space row covering file offset `off`, or -1. */
export function findRowAt(doc, off) {
  const { records, index } = doc;
  const { leafOrder, containers } = index;
  const { offsets, sizes } = records;
  let best = -1;
  let bestDepth = -1;
  const better = (r) => {
    if (best < 0) return true;
    const d = rowDepth(doc, r);
    return d > bestDepth || (d === bestDepth && intAt(sizes, r) < intAt(sizes, best));
  };
  const take = (r) => {
    best = r;
    bestDepth = rowDepth(doc, r);
  };
  // last leaf with offset <= off
  let lo = 0;
  let hi = leafOrder.length - 1;
  let i = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (intAt(offsets, leafAt(doc, mid)) <= off) {
      i = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let j = i, steps = 0; j >= 0 && leafEndMax(doc, j) > off && steps < 4096; j--, steps++) {
    const r = leafAt(doc, j);
    if (intAt(offsets, r) <= off && off < intAt(offsets, r) + intAt(sizes, r) && intAt(sizes, r) > 0 && better(r)) take(r);
  }
  if (best >= 0) return best;
  for (let k = 0; k < containers.length; k++) {
    const r = containers[k];
    if (intAt(offsets, r) <= off && off < intAt(offsets, r) + intAt(sizes, r) && better(r)) take(r);
  }
  return best;
}

/**
 * Leaves overlapping [a, b) in offset order, as row numbers (for hex shading).
 * @returns {number[]}
 */
export function leavesInRange(doc, a, b) {
  const { records, index } = doc;
  const { leafOrder } = index;
  const { offsets, sizes } = records;
  // first leaf with offset >= b, then walk back while something may still reach a
  let lo = 0;
  let hi = leafOrder.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (intAt(offsets, leafAt(doc, mid)) < b) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let j = lo - 1, steps = 0; j >= 0 && leafEndMax(doc, j) > a && steps < 8192; j--, steps++) {
    const r = leafAt(doc, j);
    if (intAt(offsets, r) + intAt(sizes, r) > a && intAt(sizes, r) > 0) out.push(r);
  }
  out.reverse();
  return out;
}

/** The row whose bytes represent `row` in the file (Nested rows -> their file-space ancestor). */
export function fileRow(doc, row) {
  const { kinds } = doc.records;
  let r = row;
  let guard = 0;
  while (r >= 0 && intAt(kinds, r) === RecordKind.Nested && guard++ < 256) r = parentOf(doc, r);
  return r;
}

/** Ancestors of `row`, outermost first (excluding the row). */
export function ancestors(doc, row) {
  const out = [];
  let p = parentOf(doc, row);
  let guard = 0;
  while (p >= 0 && guard++ < 256) {
    out.push(p);
    p = parentOf(doc, p);
  }
  return out.reverse();
}

export function childCount(doc, row) {
  const slot = row < 0 ? rowCount(doc) : row;
  return kidsBegin(doc, slot + 1) - kidsBegin(doc, slot);
}

/**
 * A row's offset as shown everywhere: "0x3f78" in its file, "z+0x3f78" for a record inside a
 * decompressed stream (perf -z: the offset counts in its COMPRESSED container's decompressed bytes).
 * @param {any} doc
 * @param {number} row
 * @param {number} [off] an offset inside the row (a field's); default the row's own
 */
export function offsetText(doc, row, off) {
  const rec = doc.records; // (null until the 'tables' message, or when making it failed)
  const o = off ?? (rec ? intAt(rec.offsets, row) : undefined);
  if (o == null) return '?';
  return `${rec && intAt(rec.kinds, row) === RecordKind.Nested ? 'z+' : ''}0x${Math.floor(Number(o)).toString(16)}`;
}
