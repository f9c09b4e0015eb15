// Unit tests of the keyed Map keys (hash flooding): a crafted file's pids or names cannot share a bucket.
import { describe, expect, it } from 'vitest';
import { StringMap, distinctInts, hashString, intKey } from './keyed-hash.js';
import { collidingInts, v8IntHash } from './v8-collisions.js';

describe('intKey', () => {
  it('is a permutation of the int32s; other values are kept', () => {
    const ints = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), ...Array.from({ length: 100000 }, (_, i) => (i * 2654435761) | 0)];
    const keys = ints.map(intKey);
    expect(new Set(keys).size).toBe(new Set(ints).size);
    expect(keys.every((k) => (Number(k) | 0) === k)).toBe(true);
    expect(intKey(-0)).toBe(intKey(0));
    for (const v of [undefined, null, 2 ** 31, 1.5, NaN, 'x']) expect(intKey(v)).toBe(v);
  });

  it('spreads ints that share one V8 bucket', () => {
    const ints = collidingInts(4096, 15);
    expect(new Set(ints.map((k) => v8IntHash(k) & 0x7fff)).size).toBe(1);
    // under the keys, about as many buckets of 2^12 as 4096 random ints fill (~2590)
    expect(new Set(ints.map((k) => v8IntHash(/** @type {number} */ (intKey(k))) & 0xfff)).size).toBeGreaterThan(2000);
  });

  it('distinctInts: the distinct values in first-seen order (pids that share a V8 bucket included)', () => {
    expect(distinctInts([3, 1, 3, -1, 2 ** 31, 1, 2 ** 31, NaN, NaN])).toEqual([3, 1, -1, 2 ** 31, NaN]);
    // (a Set of 50 000 such pids took 2.7 s in node: each add walks one bucket of every pid before it;
    // with the keys they spread, as the test above shows)
    const pids = collidingInts(5000);
    expect(distinctInts(pids.concat(pids.slice(0, 100)))).toEqual(pids);
  });
});

describe('hashString and StringMap', () => {
  it('hashes equal strings alike and tells lengths and order apart', () => {
    expect(hashString('main')).toBe(hashString(['ma', 'in'].join('')));
    const some = ['', '\0', 'a', 'a\0', 'ab', 'ba', 'abc', 'ab\0', '\u{1F600}', 'é'];
    expect(new Set(some.map(hashString)).size).toBe(some.length);
    for (const s of some) expect(hashString(s)).toBeLessThan(2 ** 30);
  });

  it('spreads strings V8 would hash alike (longer than 16383: by their length) over buckets of their own', () => {
    // 2000 names of one length over 16383 characters, differing at their end: V8's hash of each is its
    // length, and telling two apart reads them whole (a Map of them took 10.9 s in node)
    const base = 'x'.repeat(17000 - 8);
    const names = Array.from({ length: 2000 }, (_, i) => base + String(i).padStart(8, '0'));
    /** @type {StringMap<number>} */
    const m = new StringMap();
    for (let i = 0; i < names.length; i++) if (!m.has(names[i])) m.set(names[i], i);
    for (let i = 0; i < names.length; i++) expect(m.get(names[i])).toBe(i);
    expect(m.size).toBe(2000);
    // a 30-bit keyed hash: 2000 strings share a bucket with probability about 2e-3
    expect(m.buckets.size).toBeGreaterThanOrEqual(1998);
    expect(m.get(base)).toBeUndefined();
    expect(m.set(names[5], 7).get(names[5])).toBe(7);
    expect(m.size).toBe(2000);
  });
});
