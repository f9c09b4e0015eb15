import { describe, expect, it } from 'vitest';
import { functionRows, sortRows } from './function-table.js';

// self/total per function, as the worker's functionTotals gives them for functions a, b
const totals = { self: Float64Array.from([4, 6]), total: Float64Array.from([6, 9]) };

describe('function rows', () => {
  it('rows sort by the chosen column', () => {
    const rows = functionRows(totals, ['a', 'b'], 'total');
    expect(rows.map((r) => r.name)).toEqual(['b', 'a']);
    expect(sortRows(rows, 'name', false).map((r) => r.name)).toEqual(['a', 'b']);
  });
});
