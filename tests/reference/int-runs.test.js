// Unit tests of integer columns held as runs (lib/int-runs.js).
import { describe, expect, it } from 'vitest';
import { intAt, intsOf } from '../../web/src/lib/int-runs.js';
import { packInts, readerOf } from './int-runs-make.js';

describe('int runs', () => {
  it('packs rows counting up, flat stretches and jumps into a few runs', () => {
    const a = new Int32Array(10000);
    for (let i = 0; i < a.length; i++) a[i] = i < 3 ? -1 : i < 9000 ? 3 : 9000 + (i - 9000) * 2;
    const p = packInts(a);
    expect(ArrayBuffer.isView(p)).toBe(false);
    expect(p.starts.length).toBe(3);
    expect(intsOf(p)).toEqual(Array.from(a));
  });
  it('keeps a column of short runs as it is', () => {
    const a = Int32Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1009);
    expect(packInts(a)).toBe(a);
    expect(packInts(new Int32Array(0))).toHaveLength(0);
  });
  it('reads any position, in any order, as the array does (and undefined outside it)', () => {
    const a = new Int32Array(5000);
    let v = 0;
    for (let i = 0; i < a.length; i++) a[i] = i % 400 === 0 ? (v += 1000) : i % 900 < 450 ? ++v : v;
    const p = packInts(a, 1);
    expect(ArrayBuffer.isView(p)).toBe(false);
    for (let k = 0; k < 20000; k++) {
      const i = (k * 2654435761) % a.length;
      expect(intAt(p, i)).toBe(a[i]);
    }
    for (let i = a.length - 1; i >= 0; i--) expect(intAt(p, i)).toBe(a[i]);
    expect(intAt(p, -1)).toBeUndefined();
    expect(intAt(p, a.length)).toBeUndefined();
  });
  it('reads as intAt with a reader made for the column: counting up, down, at random, and outside it', () => {
    const a = new Int32Array(5000);
    let v = 0;
    for (let i = 0; i < a.length; i++) a[i] = i % 400 === 0 ? (v += 1000) : i % 900 < 450 ? ++v : v;
    const cols = [packInts(a, 1), a, Uint8Array.from(a, (x) => x & 255), Uint16Array.from(a), Uint32Array.from(a), Float64Array.from(a)];
    const empty = { length: 0, starts: new Int32Array(0), firsts: new Int32Array(0), steps: new Int32Array(0) };
    for (const col of [...cols, empty, new Int32Array(0)]) {
      const at = readerOf(col);
      const n = col.length;
      for (let i = 0; i < n; i++) expect(at(i)).toBe(intAt(col, i));
      for (let i = n - 1; i >= 0; i--) expect(at(i)).toBe(intAt(col, i));
      for (let k = 0; k < 3000 && n; k++) {
        const i = (k * 2654435761) % n;
        expect(at(i)).toBe(intAt(col, i));
      }
      expect(at(-1)).toBeUndefined();
      expect(at(n)).toBeUndefined();
    }
  });
  it('never makes a step that does not fit 32 bits', () => {
    const a = Int32Array.from([-2147483648, 2147483647, -2147483648, 2147483647, 0, 0, 0, 0]);
    const p = packInts(a, 1);
    expect(intsOf(p)).toEqual(Array.from(a));
  });
  it('crosses structured clone as plain data', () => {
    const a = Int32Array.from({ length: 3000 }, (_, i) => (i < 1500 ? i : 7));
    const p = structuredClone(packInts(a));
    expect(intsOf(p)).toEqual(Array.from(a));
  });
});
