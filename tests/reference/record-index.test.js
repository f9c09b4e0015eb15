// Unit tests of the record table's indexes: children lists and the file-offset lookup.
import { describe, expect, it } from 'vitest';
import { childCount, findRowAt, kidAt, kidPos, kidsBegin, leafAt, leafEndMax, leavesInRange, parentOf, rowDepth } from '../../web/src/lib/records.js';
import { intsOf } from '../../web/src/lib/int-runs.js';
import { packInts } from './int-runs-make.js';
import { RecordKind } from '../../web/src/lib/record-kind.js';
import { buildRecordIndex } from './record-index.js';

const K = RecordKind;
function doc(rows) {
  const records = {
    offsets: Float64Array.from(rows.map((r) => r[0])),
    sizes: Float64Array.from(rows.map((r) => r[1])),
    kinds: Uint8Array.from(rows.map((r) => r[2])),
    parents: Int32Array.from(rows.map((r) => r[3])),
    files: Uint8Array.from(rows.map((r) => r[4] ?? 0)),
    types: new Uint32Array(rows.length),
  };
  return { records, index: buildRecordIndex(records) };
}

describe('record index', () => {
  // header [0,16), data section [16,64) {record [16,40), COMPRESSED [40,64) {nested [0,30)}},
  // then a perf --threads data.1 file: its data section [0,100) {record [0,48)}
  const d = doc([
    [0, 16, K.FileHeader, -1],
    [16, 48, K.DataSection, -1],
    [16, 24, K.Record, 1],
    [40, 24, K.Record, 1],
    [0, 30, K.Nested, 3],
    [0, 100, K.DataSection, -1, 1],
    [0, 48, K.Record, 5, 1],
  ]);
  it('lists children in table order', () => {
    const n = 7;
    expect(intsOf(d.index.kids, kidsBegin(d, n), kidsBegin(d, n + 1))).toEqual([0, 1, 5]);
    expect(intsOf(d.index.kids, kidsBegin(d, 1), kidsBegin(d, 2))).toEqual([2, 3]);
  });
  it("finds a row's place among its siblings", () => {
    for (let r = 0; r < 7; r++) expect(kidAt(d, kidPos(d, r))).toBe(r);
    expect(kidPos(d, 7)).toBe(-1);
    expect(d.index.kidsPos).toBeUndefined(); // not kept
  });
  it('keeps the running max of leaf ends only when an end decreases', () => {
    expect(d.index.leafMaxEnd).toBeNull(); // [0,16) [16,40) [40,64): ends rise
    // a leaf inside a longer one before it (an attr whose ids lie inside it): [0,100) then [10,20), [20,30)
    const o = doc([
      [0, 100, K.Record, -1],
      [10, 10, K.Record, -1],
      [20, 10, K.Record, -1],
      [120, 8, K.Record, -1],
    ]);
    expect(Array.from(o.index.leafMaxEnd)).toEqual([100, 100, 100, 128]);
    expect([0, 1, 2, 3].map((j) => leafEndMax(o, j))).toEqual([100, 100, 100, 128]);
    expect(findRowAt(o, 50)).toBe(0); // found by the walk back past the short leaves
    expect(findRowAt(o, 15)).toBe(1); // both cover it at one depth: the smaller wins
    expect(leavesInRange(o, 40, 60)).toEqual([0]);
    expect(leavesInRange(o, 0, 130)).toEqual([0, 1, 2, 3]);
  });
  it('finds the innermost main-file row at an offset', () => {
    expect(findRowAt(d, 0)).toBe(0);
    expect(findRowAt(d, 20)).toBe(2);
    expect(findRowAt(d, 41)).toBe(3); // never the nested row (its offsets are in the decompressed stream)
    expect(findRowAt(d, 64)).toBe(-1);
  });
  it('never answers with a row of another file (perf --threads data.N offsets are in their own file)', () => {
    for (let off = 0; off < 64; off++) expect([5, 6]).not.toContain(findRowAt(d, off));
    expect(leavesInRange(d, 0, 64)).toEqual([0, 2, 3]);
  });
  it('counts a row\'s depth from its parents', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => rowDepth(d, r))).toEqual([0, 0, 1, 1, 2, 0, 1]);
  });
});

// A perf.data's shape at scale: header, attrs, a data section of many records (some COMPRESSED, each
// followed by its nested records), a feature table of features. Its parents, children lists and leaf
// order are a few runs; every lookup through them answers as through the plain arrays.
describe('record index held as runs', () => {
  const rows = [[0, 104, K.FileHeader, -1], [104, 136, K.Attr, -1], [240, 136, K.Attr, -1]];
  const data = rows.length;
  rows.push([400, 0, K.DataSection, -1]);
  let off = 400;
  for (let i = 0; i < 20000; i++) {
    const row = rows.length;
    const size = 24 + (i % 7) * 8;
    rows.push([off, size, K.Record, data]);
    off += size;
    if (i % 5000 === 4999) for (let z = 0; z < 300; z++) rows.push([z * 16, 16, K.Nested, row]);
  }
  rows[data][1] = off - 400;
  const features = rows.length;
  rows.push([off, 64, K.FeatureTable, -1]);
  for (let f = 0; f < 4; f++) rows.push([off + 64 + f * 32, 32, K.Feature, features]);
  const packed = doc(rows);
  const plain = { records: packed.records, index: { ...packed.index, kidsStart: unpack(packed.index.kidsStart), kids: unpack(packed.index.kids), leafOrder: unpack(packed.index.leafOrder) } };
  const asRuns = { records: { ...packed.records, parents: packInts(packed.records.parents) }, index: packed.index };
  function unpack(col) {
    return Int32Array.from(intsOf(col));
  }

  it('is a few runs, not 12 bytes a row', () => {
    for (const col of [packed.index.kidsStart, packed.index.kids, packed.index.leafOrder, asRuns.records.parents]) {
      expect(ArrayBuffer.isView(col)).toBe(false);
      expect(col.starts.length).toBeLessThan(40);
    }
  });
  it('answers every lookup as the plain arrays do', () => {
    const n = rows.length;
    for (let r = 0; r < n; r += 7) {
      expect(parentOf(asRuns, r)).toBe(rows[r][3]);
      expect(kidPos(asRuns, r)).toBe(kidPos(plain, r));
      expect(childCount(asRuns, r)).toBe(childCount(plain, r));
      expect(rowDepth(asRuns, r)).toBe(rows[r][3] < 0 ? 0 : rows[rows[r][3]][3] < 0 ? 1 : 2);
    }
    expect(childCount(asRuns, -1)).toBe(5);
    expect(childCount(asRuns, data)).toBe(20000);
    for (let j = 0; j < plain.index.leafOrder.length; j += 11) expect(leafAt(asRuns, j)).toBe(plain.index.leafOrder[j]);
    for (let o = 0; o < off + 200; o += 97) expect(findRowAt(asRuns, o)).toBe(findRowAt(plain, o));
    expect(leavesInRange(asRuns, 5000, 5400)).toEqual(leavesInRange(plain, 5000, 5400));
  });
});

// The index made as runs from the start and the one made as arrays (every row's children counted and
// sorted; share 0 keeps them as arrays) answer alike, on tables of every shape: nested rows between
// their containers, many parents, leaves out of offset order, another file's rows.
describe('record index: runs made row by row = arrays', () => {
  /** A seeded table: rows of random kinds and parents before them. */
  function table(seed, n, leavesInOrder) {
    let x = seed;
    const rnd = (m) => ((x = (x * 1103515245 + 12345) >>> 0) >>> 8) % m;
    const rows = [];
    let off = 0;
    for (let r = 0; r < n; r++) {
      const kind = rnd(6) === 0 ? K.Nested : rnd(4) === 0 ? K.DataSection : K.Record;
      const parent = r && rnd(3) ? r - 1 - rnd(Math.min(r, 5)) : -1;
      const size = 8 + rnd(40);
      const at = leavesInOrder ? off : rnd(5000);
      off += size;
      rows.push([at, size, kind, parent, rnd(10) === 0 ? 1 : 0]);
    }
    return rows;
  }
  it.each([
    [1, 3000, true],
    [2, 3000, false],
    [3, 200, true],
    [4, 1, true],
  ])('seed %i, %i rows, leaves in order %s', (seed, n, inOrder) => {
    const rows = table(seed, n, inOrder);
    const a = doc(rows);
    const records = a.records;
    const arrays = { records, index: buildRecordIndex(records, 0) };
    const runs = { records, index: buildRecordIndex(records, 1) };
    expect(ArrayBuffer.isView(arrays.index.kids)).toBe(true);
    expect(ArrayBuffer.isView(runs.index.kids)).toBe(false);
    for (const col of ['kidsStart', 'kids', 'leafOrder']) expect(intsOf(runs.index[col])).toEqual(intsOf(arrays.index[col]));
    expect(Array.from(runs.index.containers)).toEqual(Array.from(arrays.index.containers));
    expect(runs.index.leafMaxEnd).toEqual(arrays.index.leafMaxEnd);
    for (let r = 0; r < n; r++) expect(kidPos(runs, r)).toBe(kidPos(arrays, r));
  });
});
