// @ts-check
// Indexes over the record table, built in the worker (O(n log n) at most) so the
// page never loops over millions of rows.
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

import { RecordKind } from '../lib/record-kind.js';
import { RunBuilder, intAt, intsOf, joinRuns, packInts } from '../lib/int-runs.js';

/**
 * @typedef {{offsets: import('./session-columns.js').RecordColumns['offsets'], sizes: import('./session-columns.js').RecordColumns['sizes'], kinds: import('./session-columns.js').RecordColumns['kinds'], parents: import('../lib/int-runs.js').IntColumn, files: import('./session-columns.js').RecordColumns['files']}} IndexedColumns
 * @typedef {import('../lib/int-runs.js').IntColumn} IntColumn
 */

/**
 * @param {IndexedColumns} rec
 * @param {number} [share] runs per row at most for a column held as runs (each run is 12 bytes, a row 4)
 */
export function buildRecordIndex(rec, share = 1 / 12) {
  const { offsets, sizes, parents } = rec;
  const n = parents.length;
  const maxRuns = share > 0 ? Math.max(16, Math.floor(n * share)) : 0; // (0: arrays, as tests compare)

  // rows with a child in the main file's space (a row is in it when it is not nested and belongs to file 0)
  const fileKids = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const p = intAt(parents, r);
    if (p >= 0 && p < n && inMainFile(rec, r)) fileKids[p] = 1;
  }

  const { kidsStart, kids } = kidsAsRuns(parents, maxRuns) ?? kidsAsArrays(parents);
  const { leafOrder, containers } = leavesAsRuns(rec, fileKids, maxRuns) ?? leavesAsArray(rec, fileKids);

  // the running max of the leaves' ends, kept only when an end is below one before it
  const leafCount = leafOrder.length;
  let leafMaxEnd = null;
  let maxEnd = -Infinity;
  for (let i = 0; i < leafCount; i++) {
    const r = intAt(leafOrder, i);
    const end = intAt(offsets, r) + intAt(sizes, r);
    if (end >= maxEnd) maxEnd = end;
    else if (!leafMaxEnd) {
      leafMaxEnd = new Float64Array(leafCount);
      for (let j = 0; j < i; j++) {
        const q = intAt(leafOrder, j);
        leafMaxEnd[j] = intAt(offsets, q) + intAt(sizes, q);
      }
    }
    if (leafMaxEnd) leafMaxEnd[i] = maxEnd;
  }
  return { kidsStart, kids, leafOrder, leafMaxEnd, containers };
}

/** @param {IndexedColumns} rec @param {number} r */
function inMainFile(rec, r) {
  return intAt(rec.kinds, r) !== RecordKind.Nested && intAt(rec.files, r) === 0;
}

/**
 * The children lists as runs, made row by row (each parent's children are one run or a few), or null
 * when they would take more than `maxRuns` runs.
 * @param {IntColumn} parents
 * @param {number} maxRuns
 * @returns {{kidsStart: IntColumn, kids: IntColumn} | null}
 */
function kidsAsRuns(parents, maxRuns) {
  const n = parents.length;
  /** @type {Map<number, RunBuilder>} */
  const bySlot = new Map();
  let runs = 0;
  let lastSlot = -1;
  /** @type {RunBuilder | undefined} */
  let last;
  for (let r = 0; r < n; r++) {
    const p = intAt(parents, r);
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
 * @param {IntColumn} parents
 * @returns {{kidsStart: IntColumn, kids: IntColumn}}
 */
function kidsAsArrays(parents) {
  const n = parents.length;
  const slotOf = (/** @type {number} */ r) => {
    const p = intAt(parents, r);
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
 * @param {IndexedColumns} rec
 * @param {Uint8Array} fileKids
 * @param {number} maxRuns
 * @returns {{leafOrder: IntColumn, containers: Int32Array} | null}
 */
function leavesAsRuns(rec, fileKids, maxRuns) {
  const { offsets } = rec;
  const n = rec.parents.length;
  const leaves = new RunBuilder();
  /** @type {number[]} */
  const containers = [];
  let prev = -Infinity;
  for (let r = 0; r < n; r++) {
    if (!inMainFile(rec, r)) continue;
    if (fileKids[r]) {
      containers.push(r);
      continue;
    }
    const o = intAt(offsets, r);
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
 * @param {IndexedColumns} rec
 * @param {Uint8Array} fileKids
 * @returns {{leafOrder: IntColumn, containers: Int32Array}}
 */
function leavesAsArray(rec, fileKids) {
  const { offsets, sizes } = rec;
  const n = rec.parents.length;
  let leafCount = 0;
  let containerCount = 0;
  for (let r = 0; r < n; r++) {
    if (!inMainFile(rec, r)) continue;
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
    if (!inMainFile(rec, r)) continue;
    if (fileKids[r]) {
      containers[ci++] = r;
    } else {
      leafOrder[li++] = r;
      const o = intAt(offsets, r);
      if (o < prev) sorted = false;
      prev = o;
    }
  }
  if (!sorted) {
    const arr = Array.from(leafOrder);
    arr.sort((a, b) => intAt(offsets, a) - intAt(offsets, b) || intAt(sizes, b) - intAt(sizes, a) || a - b);
    leafOrder = Int32Array.from(arr);
  }
  return { leafOrder: packInts(leafOrder), containers };
}
