import { describe, expect, it } from 'vitest';
import { firstIndexByName, functionRows, sortRows } from './function-table.js';

// self/total per function, as the worker's functionTotals gives them for functions a, b
const totals = { self: Float64Array.from([4, 6]), total: Float64Array.from([6, 9]) };

describe('function rows', () => {
  it('rows sort by the chosen column', () => {
    const rows = functionRows(totals, ['a', 'b'], 'total');
    expect(rows.map((r) => r.name)).toEqual(['b', 'a']);
    expect(sortRows(rows, 'name', false).map((r) => r.name)).toEqual(['a', 'b']);
  });
});

describe('functions by name', () => {
  it('finds the first function of a name', () => {
    const m = firstIndexByName(['main', 'f', 'main', 'g']);
    expect([m.get('main'), m.get('f'), m.get('g'), m.get('h')]).toEqual([0, 1, 3, undefined]);
  });

  it('indexes names V8 hashes alike (longer than 16383 characters: by their length)', () => {
    // a tracer's 2000 function names of one length over 16383, telling each apart only at its end: a Map
    // of them took 10.9 s in node (each lookup compares the name with every one before it, whole); a
    // StringMap's buckets: lib/keyed-hash.test.js
    const base = 'f'.repeat(17000 - 8);
    const names = Array.from({ length: 2000 }, (_, i) => base + String(i).padStart(8, '0'));
    const m = firstIndexByName(names);
    let hits = 0;
    for (let i = 0; i < names.length; i++) if (m.get(names[i]) === i) hits++;
    expect(hits).toBe(2000);
  });
});
