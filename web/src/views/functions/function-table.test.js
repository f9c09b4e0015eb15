import { describe, expect, it } from 'vitest';
import { functionRows, functionTotals, sortRows } from './function-table.js';

// tree: root(0, func -1) -> a(1) -> b(2) -> a(3, recursion) ; root -> b(4)
const tree = {
  parent: Int32Array.from([-1, 0, 1, 2, 0]),
  func: Int32Array.from([-1, 0, 1, 0, 1]),
  self: Float64Array.from([0, 1, 2, 3, 4]),
  total: Float64Array.from([10, 6, 5, 3, 4]),
};

describe('functionTotals', () => {
  it('sums self per function and counts a recursive function once in its total', () => {
    const t = functionTotals(tree, 2);
    expect(Array.from(t.self)).toEqual([4, 6]);
    // a: outer node 1 (6); node 3 is inside a -> not added. b: node 2 (5) + node 4 (4)
    expect(Array.from(t.total)).toEqual([6, 9]);
  });
  it('rows sort by the chosen column', () => {
    const rows = functionRows(functionTotals(tree, 2), ['a', 'b'], 'total');
    expect(rows.map((r) => r.name)).toEqual(['b', 'a']);
    expect(sortRows(rows, 'name', false).map((r) => r.name)).toEqual(['a', 'b']);
  });
});
