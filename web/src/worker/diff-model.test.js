import { describe, expect, it } from 'vitest';
import { diffLayout } from './diff-model.js';

describe('diffLayout', () => {
  // root -> main(0) -> {sort(2), hash(1)}; plus a frame only in A: gone(3) under main
  const labels = ['main', 'hash', 'sort', 'gone'];
  const t = {
    parent: Int32Array.from([-1, 0, 1, 1, 1]),
    func: Int32Array.from([-1, 0, 2, 1, 3]),
    depth: Int32Array.from([0, 1, 2, 2, 2]),
    totalA: Float64Array.from([10, 10, 4, 4, 2]),
    totalB: Float64Array.from([16, 16, 10, 5, 0]),
    selfB: Float64Array.from([0, 1, 10, 5, 0]),
  };
  it('orders children by label, places them from B widths, scales colour by the largest change', () => {
    const l = diffLayout(t, labels);
    expect(Array.from(l.order)).toEqual([0, 1, 4, 3, 2]); // main, then gone, hash, sort
    expect(l.x[1]).toBe(0);
    expect(l.x[4]).toBe(0); // gone: zero width in B
    expect(l.x[3]).toBe(0); // hash
    expect(l.x[2]).toBe(5); // sort after hash's 5
    expect(l.maxDepth).toBe(2);
    expect(l.maxAbsDelta).toBe(6); // main and sort: +6
  });
});
