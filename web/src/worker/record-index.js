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
// bytes a row as arrays. A row's depth is not kept: it is its parents counted (lib/records.js rowDepth).

import { RecordKind } from '../lib/record-kind.js';
import { packInts } from '../lib/int-runs.js';

/**
 * @param {{offsets: Float64Array | Uint32Array, sizes: Float64Array | Uint32Array, kinds: Uint8Array, parents: Int32Array, files: Uint8Array}} rec
 */
export function buildRecordIndex(rec) {
  const { offsets, sizes, kinds, parents, files } = rec;
  const n = parents.length;
  const nested = RecordKind.Nested;

  // children counts, rows with a child in the main file's space (a row is in it when it is not nested and
  // belongs to file 0)
  const kidsStart = new Int32Array(n + 2);
  const fileKids = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const p = parents[r];
    if (p >= 0 && p < n) {
      kidsStart[p + 1]++;
      if (kinds[r] !== nested && files[r] === 0) fileKids[p] = 1;
    } else {
      kidsStart[n + 1]++;
    }
  }
  for (let i = 1; i < n + 2; i++) kidsStart[i] += kidsStart[i - 1];

  // CSR children in table order; main-file leaves and containers counted
  const kids = new Int32Array(n);
  const fill = kidsStart.slice(0, n + 1);
  let leafCount = 0;
  let containerCount = 0;
  for (let r = 0; r < n; r++) {
    const p = parents[r];
    kids[fill[p >= 0 && p < n ? p : n]++] = r;
    if (kinds[r] !== nested && files[r] === 0) {
      if (fileKids[r]) containerCount++;
      else leafCount++;
    }
  }

  let leafOrder = new Int32Array(leafCount);
  const containers = new Int32Array(containerCount);
  let li = 0;
  let ci = 0;
  let sorted = true;
  let prev = -Infinity;
  for (let r = 0; r < n; r++) {
    if (kinds[r] === nested || files[r] !== 0) continue;
    if (fileKids[r]) {
      containers[ci++] = r;
    } else {
      leafOrder[li++] = r;
      const o = offsets[r];
      if (o < prev) sorted = false;
      prev = o;
    }
  }
  if (!sorted) {
    const arr = Array.from(leafOrder);
    arr.sort((a, b) => offsets[a] - offsets[b] || sizes[b] - sizes[a] || a - b);
    leafOrder = Int32Array.from(arr);
  }
  // the running max of the leaves' ends, kept only when an end is below one before it
  let leafMaxEnd = null;
  let maxEnd = -Infinity;
  for (let i = 0; i < leafCount; i++) {
    const r = leafOrder[i];
    const end = offsets[r] + sizes[r];
    if (end >= maxEnd) maxEnd = end;
    else if (!leafMaxEnd) {
      leafMaxEnd = new Float64Array(leafCount);
      for (let j = 0; j < i; j++) leafMaxEnd[j] = offsets[leafOrder[j]] + sizes[leafOrder[j]];
    }
    if (leafMaxEnd) leafMaxEnd[i] = maxEnd;
  }

  return { kidsStart: packInts(kidsStart), kids: packInts(kids), leafOrder: packInts(leafOrder), leafMaxEnd, containers };
}
