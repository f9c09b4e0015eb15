// Unit tests of reading the session's columns: the rows' labels a record search tests.
import { describe, expect, it } from 'vitest';
import { recordLabels } from './session-columns.js';

/**
 * A session whose rows have these labels (and, for XRay, kinds and types as plain arrays).
 * @param {string[]} labels
 * @param {{kinds?: number[], types?: number[]}} [xray]
 */
function session(labels, xray = {}) {
  let asked = 0;
  const s = /** @type {any} */ ({
    recordCount: () => labels.length,
    recordLabel: (/** @type {number} */ r) => (asked++, labels[r]),
    recordKindRuns: () => Uint8Array.from(xray.kinds ?? []),
    recordTypeRuns: () => Uint32Array.from(xray.types ?? []),
    asked: () => asked,
  });
  return s;
}

describe('record labels', () => {
  it('gives each row the id of its label among the distinct ones', () => {
    const { ids, names } = recordLabels(session(['file header', 'SAMPLE', 'MMAP2', 'SAMPLE', 'SAMPLE', 'MMAP2']), 'perf.data');
    expect(names).toEqual(['file header', 'SAMPLE', 'MMAP2']);
    expect(Array.from(ids)).toEqual([0, 1, 2, 1, 1, 2]);
  });

  it('asks an XRay log once per kind and type', () => {
    const s = session(['header', 'function enter', 'function exit', 'function enter', 'function enter'], { kinds: [0, 5, 5, 5, 5], types: [0, 32, 33, 32, 32] });
    const { ids, names } = recordLabels(s, 'xray');
    expect(names).toEqual(['header', 'function enter', 'function exit']);
    expect(Array.from(ids)).toEqual([0, 1, 2, 1, 1]);
    expect(s.asked()).toBe(3);
  });

  it('makes labels V8 hashes alike (longer than 16383 characters: by their length) distinct', () => {
    // a jitdump's 2000 code loads named with 17000 characters, telling each apart only at its end: their
    // labels in a Map took 6.9 s in node (each compared whole with every one before it); they are told
    // apart by a StringMap, whose buckets lib/keyed-hash.test.js checks
    const base = 'CODE_LOAD ' + 'f'.repeat(17000 - 18);
    const labels = Array.from({ length: 2000 }, (_, i) => base + String(i).padStart(8, '0'));
    const { ids, names } = recordLabels(session(labels.concat(labels.slice(0, 10))), 'jitdump');
    expect(names.length).toBe(2000);
    expect(ids[2005]).toBe(5);
  });
});
