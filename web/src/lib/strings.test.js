// Unit tests of the strings' crossing form: one UTF-8 blob plus offsets.
import { describe, expect, it } from 'vitest';
import { decodeStrings, stringOf } from './strings.js';

function blob(list) {
  const enc = new TextEncoder();
  const parts = list.map((s) => enc.encode(s));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const bytes = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return { bytes, offsets };
}

describe('string blob', () => {
  it('decodes ASCII strings with one decode', () => {
    expect(decodeStrings(blob(['main', '', '[unknown]', 'libc.so.6']))).toEqual(['main', '', '[unknown]', 'libc.so.6']);
  });
  it('decodes UTF-8 strings one by one, and one string on demand', () => {
    const b = blob(['café', 'ascii', '日本語', '😀x']);
    expect(decodeStrings(b)).toEqual(['café', 'ascii', '日本語', '😀x']);
    expect(stringOf(b, 2)).toBe('日本語');
    expect(stringOf(b, -1)).toBe('');
    expect(stringOf(b, 4)).toBe('');
  });
  it('replaces bytes that are not UTF-8, inside their own string only', () => {
    const b = { bytes: Uint8Array.from([0x61, 0xff, 0x62]), offsets: Uint32Array.from([0, 2, 3]) };
    expect(decodeStrings(b)).toEqual(['a\ufffd', 'b']);
  });
});
