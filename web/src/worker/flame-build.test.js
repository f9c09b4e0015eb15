// Unit tests of the flame graph aggregation and the record tree model
// (run: npx vitest run web).
import { describe, expect, it } from 'vitest';
import { buildFlames } from './flame-build.js';
import { buildRecordIndex } from './record-index.js';
import { buildFlat, itemAt, indexOfRow } from '../views/record-tree/tree-model.js';
import { findRowAt, leavesInRange } from '../lib/records.js';

describe('buildFlames', () => {
  // funcs: 0 main, 1 a, 2 b; frames 0..3 (frames 1 and 3 both map to func a)
  const strings = ['main', 'a', 'b'];
  const profile = {
    funcNames: Int32Array.from([0, 1, 2]),
    frameFuncs: Int32Array.from([0, 1, 2, 1]),
    // stacks: 0 main; 1 main>a(frame1); 2 main>a(frame3); 3 main>a>b; 4 b (root)
    stackFrames: Int32Array.from([0, 1, 3, 2, 2]),
    stackPrefixes: Int32Array.from([-1, 0, 0, 1, -1]),
    sampleStacks: Int32Array.from([1, 2, 3, 3, 0, 4, -1, 1]),
    sampleEvents: Int32Array.from([0, 0, 0, 0, 0, 0, 0, 1]),
  };
  const [e0, e1] = buildFlames(profile, strings, 2);

  it('merges identical call paths and sums samples', () => {
    expect(e0.total).toBe(7);
    const nodes = [];
    for (let i = 0; i < e0.func.length; i++) {
      nodes.push([e0.depth[i], i === 0 ? 'root' : strings[e0.func[i]], e0.total_[i], e0.self[i], e0.start[i], e0.end[i]]);
    }
    // preorder, children by name: b (root-level) before main
    expect(nodes).toEqual([
      [0, 'root', 7, 1, 0, 5],
      [1, 'b', 1, 1, 0, 2],
      [1, 'main', 5, 1, 1, 5],
      [2, 'a', 4, 2, 1, 5],
      [3, 'b', 2, 2, 1, 5],
    ]);
    expect(e0.maxDepth).toBe(3);
  });

  it('keeps events apart', () => {
    expect(e1.total).toBe(1);
    expect(e1.func.length).toBe(3);
  });
});

describe('record index and tree model', () => {
  // header [0,16), data [16,112) with records [16,48) [48,80) [80,112), one nested in the 2nd
  const records = {
    offsets: Float64Array.from([0, 16, 16, 48, 0, 80]),
    sizes: Float64Array.from([16, 96, 32, 32, 8, 32]),
    types: Uint32Array.from([0, 0, 9, 81, 9, 9]),
    kinds: Uint8Array.from([0, 4, 5, 5, 9, 5]),
    parents: Int32Array.from([-1, -1, 1, 1, 3, 1]),
  };
  const doc = { records, index: buildRecordIndex(records) };

  it('finds the deepest row covering an offset', () => {
    expect(findRowAt(doc, 3)).toBe(0);
    expect(findRowAt(doc, 16)).toBe(2);
    expect(findRowAt(doc, 50)).toBe(3); // not the nested row (decompressed offsets)
    expect(findRowAt(doc, 111)).toBe(5);
    expect(findRowAt(doc, 112)).toBe(-1);
    expect(leavesInRange(doc, 40, 90)).toEqual([2, 3, 5]);
  });

  it('flattens only expanded rows', () => {
    const cache = new Map([[1, { fields: [] }], [3, { fields: [{ name: 'x', offset: 48, size: 8 }] }]]);
    let flat = buildFlat(doc, new Set(), cache, new Set());
    expect(flat.count).toBe(2);
    flat = buildFlat(doc, new Set([1]), cache, new Set());
    expect(flat.count).toBe(5);
    expect(itemAt(doc, flat, 3)).toMatchObject({ type: 'row', row: 3, depth: 1 });
    flat = buildFlat(doc, new Set([1, 3]), cache, new Set());
    expect(flat.count).toBe(7);
    expect(itemAt(doc, flat, 4)).toMatchObject({ type: 'field', row: 3, path: '0' });
    expect(itemAt(doc, flat, 5)).toMatchObject({ type: 'row', row: 4, depth: 2 });
    expect(indexOfRow(doc, flat, 5)).toBe(6);
  });
});
