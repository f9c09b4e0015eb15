// Unit tests of the record table's indexes: children lists and the file-offset lookup.
import { describe, expect, it } from 'vitest';
import { findRowAt, kidPos, leafEndMax, leavesInRange } from '../lib/records.js';
import { RecordKind } from '../lib/record-kind.js';
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
    const { kidsStart, kids } = d.index;
    const n = 7;
    expect(Array.from(kids.subarray(kidsStart[n], kidsStart[n + 1]))).toEqual([0, 1, 5]);
    expect(Array.from(kids.subarray(kidsStart[1], kidsStart[2]))).toEqual([2, 3]);
  });
  it("finds a row's place among its siblings", () => {
    const { kids } = d.index;
    for (let r = 0; r < 7; r++) expect(kids[kidPos(d, r)]).toBe(r);
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
});
