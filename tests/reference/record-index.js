// @ts-check
// The record table's indexes as the page's worker built them from the table's columns, row by row
// (before the session made them: Session.recordIndex, core/analysis/record_index.cc): the reference the
// session's are checked against (tests/node/record-index-parity.test.mjs), and the builder the unit tests
// of lib/records.js's lookups index their hand-made tables with (record-index.test.js).
//
// Tree (table order): children of row r are kids[kidsStart[r] .. kidsStart[r+1]), in row order;
// top-level rows use the slot n (= row count). A row's place among them is found by a binary search
// (lib/records.js kidPos), not kept (4 bytes a row less).
//
// File-offset lookup (the hex view shows the main file): "leaves" are rows that cover
// bytes of the main file (kind != Nested, file 0; rows of perf --threads data.N files
// have offsets in their own file) and have no such children; leafOrder lists them by offset (the
// record table's offsets give theirs) with a running max of their end (leafMaxEnd), so the rows
// covering an offset are found by a binary search and a short scan. leafMaxEnd is null when the
// leaves' ends never decrease in that order (records one after another: nearly every file), where the
// running max is each leaf's own end (lib/records.js leafEndMax; 8 bytes a row less).
// "containers" (file-space rows with file-space children, a handful) are checked
// linearly when no leaf covers the offset.
//
// kidsStart, kids and leafOrder reach the page as runs (lib/int-runs.js) when that is much smaller: in
// nearly every file they are a few runs of rows counting up (a data section's millions of records), 12
// bytes a row as arrays. They are then made as runs from the start (no arrays of every row made and
// dropped: garbage the worker would hold until V8 collects it). A row's depth is not kept: it is its
// parents counted (lib/records.js rowDepth).

import { RecordKind } from '../../web/src/lib/record-kind.js';
import { intAt, intsOf } from '../../web/src/lib/int-runs.js';
import { RunBuilder, joinRuns, packInts, readerOf } from './int-runs-make.js';

/**
 * @typedef {{offsets: import('../../web/src/worker/session-columns.js').RecordColumns['offsets'], sizes: import('../../web/src/worker/session-columns.js').RecordColumns['sizes'], kinds: import('../../web/src/worker/session-columns.js').RecordColumns['kinds'], parents: import('../../web/src/lib/int-runs.js').IntColumn, files: import('../../web/src/worker/session-columns.js').RecordColumns['files']}} IndexedColumns
 * @typedef {import('../../web/src/lib/int-runs.js').IntColumn} IntColumn
 * @typedef {{parent: (r: number) => number, offset: (r: number) => number, size: (r: number) => number, inMainFile: (r: number) => boolean}} Readers
 *   the columns' readers (lib/int-runs.js readerOf) the loops over every row use
 */

/**
 * @param {IndexedColumns} rec
 * @param {number} [share] runs per row at most for a column held as runs (each run is 12 bytes, a row 4)
 */
export function buildRecordIndex(rec, share = 1 / 12) {
  const { parents } = rec;
  const n = parents.length;
  const maxRuns = share > 0 ? Math.max(16, Math.floor(n * share)) : 0; // (0: arrays, as tests compare)
  const kindAt = readerOf(rec.kinds);
  const fileAt = readerOf(rec.files);
  /** @type {Readers} */
  const at = {
    parent: readerOf(parents),
    offset: readerOf(rec.offsets),
    size: readerOf(rec.sizes),
    // a row is in the main file's space when it is not nested and belongs to file 0
    inMainFile: (r) => kindAt(r) !== RecordKind.Nested && fileAt(r) === 0,
  };

  // rows with a child in the main file's space
  const fileKids = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const p = at.parent(r);
    if (p >= 0 && p < n && !fileKids[p] && at.inMainFile(r)) fileKids[p] = 1; // (most rows share a parent flagged already)
  }

  const { kidsStart, kids } = kidsAsRuns(n, at, maxRuns) ?? kidsAsArrays(n, at);
  const { leafOrder, containers } = leavesAsRuns(n, at, fileKids, maxRuns) ?? leavesAsArray(n, at, fileKids);

  // the running max of the leaves' ends, kept only when an end is below one before it
  const leafCount = leafOrder.length;
  let leafMaxEnd = null;
  let maxEnd = -Infinity;
  const leafAt = readerOf(leafOrder);
  for (let i = 0; i < leafCount; i++) {
    const r = leafAt(i);
    const end = at.offset(r) + at.size(r);
    if (end >= maxEnd) maxEnd = end;
    else if (!leafMaxEnd) {
      leafMaxEnd = new Float64Array(leafCount);
      for (let j = 0; j < i; j++) {
        const q = intAt(leafOrder, j);
        leafMaxEnd[j] = intAt(rec.offsets, q) + intAt(rec.sizes, q);
      }
    }
    if (leafMaxEnd) leafMaxEnd[i] = maxEnd;
  }
  return { kidsStart, kids, leafOrder, leafMaxEnd, containers };
}

/**
 * The children lists as runs, made row by row (each parent's children are one run or a few), or null
 * when they would take more than `maxRuns` runs.
 * @param {number} n rows
 * @param {Readers} at
 * @param {number} maxRuns
 * @returns {{kidsStart: IntColumn, kids: IntColumn} | null}
 */
function kidsAsRuns(n, at, maxRuns) {
  /** @type {Map<number, RunBuilder>} */
  const bySlot = new Map();
  let runs = 0;
  let lastSlot = -1;
  /** @type {RunBuilder | undefined} */
  let last;
  for (let r = 0; r < n; r++) {
    const p = at.parent(r);
    const slot = p >= 0 && p < n ? p : n;
    let b = slot === lastSlot ? last : bySlot.get(slot);
    if (!b) bySlot.set(slot, (b = new RunBuilder()));
    lastSlot = slot;
    last = b;
    if (b.push(r) && ++runs > maxRuns) return null;
  }
  const slots = [...bySlot.keys()].sort((a, b) => a - b);
  const kids = joinRuns(slots.map((slot) => /** @type {RunBuilder} */ (bySlot.get(slot))));
  // kidsStart (n + 2 values): how many children the slots before each have; it changes only after a slot
  // with children
  const m = slots.length + 1;
  const kidsStart = { length: n + 2, starts: new Int32Array(m), firsts: new Int32Array(m), steps: new Int32Array(m) };
  let before = 0;
  slots.forEach((slot, k) => {
    before += /** @type {RunBuilder} */ (bySlot.get(slot)).length;
    kidsStart.starts[k + 1] = slot + 1;
    kidsStart.firsts[k + 1] = before;
  });
  return { kidsStart, kids };
}

/**
 * The children lists as arrays (CSR: a counting sort of the rows by parent), packed where runs are smaller.
 * @param {number} n rows
 * @param {Readers} at
 * @returns {{kidsStart: IntColumn, kids: IntColumn}}
 */
function kidsAsArrays(n, at) {
  const slotOf = (/** @type {number} */ r) => {
    const p = at.parent(r);
    return p >= 0 && p < n ? p : n;
  };
  // each slot's end, then filled back to front: each ends at its start
  const kidsStart = new Int32Array(n + 2);
  for (let r = 0; r < n; r++) kidsStart[slotOf(r) + 1]++;
  for (let i = 1; i < n + 2; i++) kidsStart[i] += kidsStart[i - 1];
  const kids = new Int32Array(n);
  for (let r = n - 1; r >= 0; r--) {
    const slot = slotOf(r);
    kids[--kidsStart[slot + 1]] = r;
  }
  // kidsStart[s + 1] is now slot s's start: one place down, and the last slot's end after it
  for (let i = 0; i <= n; i++) kidsStart[i] = kidsStart[i + 1];
  kidsStart[n + 1] = n;
  return { kidsStart: packInts(kidsStart), kids: packInts(kids) };
}

/**
 * The main file's leaves as runs when they come in offset order in the table (nearly every file), and its
 * containers; null when the leaves are out of order or would take more than `maxRuns` runs.
 * @param {number} n rows
 * @param {Readers} at
 * @param {Uint8Array} fileKids
 * @param {number} maxRuns
 * @returns {{leafOrder: IntColumn, containers: Int32Array} | null}
 */
function leavesAsRuns(n, at, fileKids, maxRuns) {
  const leaves = new RunBuilder();
  /** @type {number[]} */
  const containers = [];
  let prev = -Infinity;
  for (let r = 0; r < n; r++) {
    if (!at.inMainFile(r)) continue;
    if (fileKids[r]) {
      containers.push(r);
      continue;
    }
    const o = at.offset(r);
    if (o < prev) return null;
    prev = o;
    if (leaves.push(r) && leaves.lens.length > maxRuns) return null;
  }
  const runs = joinRuns([leaves]);
  // (few leaves among many rows: runs only where they are smaller than the leaves' array)
  const leafOrder = runs.starts.length * 3 <= runs.length ? runs : Int32Array.from(intsOf(runs));
  return { leafOrder, containers: Int32Array.from(containers) };
}

/**
 * The main file's leaves sorted by offset (then longest first, then row), packed where runs are smaller,
 * and its containers.
 * @param {number} n rows
 * @param {Readers} at
 * @param {Uint8Array} fileKids
 * @returns {{leafOrder: IntColumn, containers: Int32Array}}
 */
function leavesAsArray(n, at, fileKids) {
  let leafCount = 0;
  let containerCount = 0;
  for (let r = 0; r < n; r++) {
    if (!at.inMainFile(r)) continue;
    if (fileKids[r]) containerCount++;
    else leafCount++;
  }
  let leafOrder = new Int32Array(leafCount);
  const containers = new Int32Array(containerCount);
  let li = 0;
  let ci = 0;
  let sorted = true;
  let prev = -Infinity;
  for (let r = 0; r < n; r++) {
    if (!at.inMainFile(r)) continue;
    if (fileKids[r]) {
      containers[ci++] = r;
    } else {
      leafOrder[li++] = r;
      const o = at.offset(r);
      if (o < prev) sorted = false;
      prev = o;
    }
  }
  if (!sorted) {
    const arr = Array.from(leafOrder);
    arr.sort((a, b) => at.offset(a) - at.offset(b) || at.size(b) - at.size(a) || a - b);
    leafOrder = Int32Array.from(arr);
  }
  return { leafOrder: packInts(leafOrder), containers };
}
