// Unit tests of what the worker derives once per file: lanes, event and CPU counts, the record
// composition, record row -> sample, sources per function.
import { describe, expect, it } from 'vitest';
import { profile } from '../../../tests/reference/small-profile.js';
import { RecordKind } from '../lib/record-kind.js';
import { buildLanes, cpuLanes, cpuRows, sortByTime, eventTotals, funcInlined, funcSources, heaviestEvent, recordComposition, recordSamples, recordTypeNames, typeKey } from './derive.js';

describe('lanes', () => {
  it('per thread, sorted by time', () => {
    const p = profile();
    const lanes = buildLanes(p.sampleTimes, p.sampleThreads, 2);
    expect(lanes.map((l) => [l.thread, Array.from(l.samples), Array.from(l.times)])).toEqual([
      [0, [0, 1, 2, 3, 5], [10, 20, 30, 40, 50]],
      [1, [4], [15]],
    ]);
  });
  it('per CPU, the samples without a thread or CPU in a lane of their own (-1)', () => {
    const times = Float64Array.from([30, 10, 20]);
    expect(cpuLanes(times, Int32Array.from([1, 1, -1])).map((l) => [l.thread, Array.from(l.samples)])).toEqual([[1, [1, 0]]]);
    expect(buildLanes(times, Int32Array.from([0, -1, 0]), 1).map((l) => [l.thread, Array.from(l.samples)])).toEqual([
      [0, [2, 0]],
      [-1, [1]],
    ]);
    expect(cpuLanes(times, Int32Array.from([-1, -1, -1]))).toEqual([]);
  });
});

describe('counts', () => {
  it('samples per event count gperftools rows by their counts', () => {
    const t = eventTotals(Int32Array.from([0, 1, 1, 2]), Uint32Array.from([5, 1, 1, 1]), 2);
    expect(Array.from(t)).toEqual([5, 2, 1]);
    expect(heaviestEvent(t)).toBe(0);
    expect(Array.from(eventTotals(Int32Array.from([1, 1]), new Uint32Array(0), 3))).toEqual([0, 2, 0]);
  });
  it('sample rows per CPU in CPU order', () => {
    expect(cpuRows(Int32Array.from([3, 1, 3, -1]))).toEqual([
      { cpu: 1, rows: 1 },
      { cpu: 3, rows: 2 },
    ]);
  });
});

describe('record composition', () => {
  // header, attr, data section {SAMPLE, SAMPLE, MMAP2, COMPRESSED {nested SAMPLE}}, feature table {HOSTNAME}
  const K = RecordKind;
  const records = {
    kinds: Uint8Array.from([K.FileHeader, K.Attr, K.DataSection, K.Record, K.Record, K.Record, K.Record, K.Nested, K.FeatureTable, K.Feature]),
    types: Uint32Array.from([0, 0, 0, 9, 9, 10, 81, 9, 0, 2]),
    sizes: Float64Array.from([104, 136, 500, 40, 48, 100, 300, 40, 16, 32]),
    parents: Int32Array.from([-1, -1, -1, 2, 2, 2, 2, 6, -1, 8]),
    offsets: new Float64Array(10),
    files: new Uint8Array(10),
  };
  const names = ['header', 'attr 0', 'data', 'SAMPLE', 'SAMPLE', 'MMAP2', 'COMPRESSED', 'SAMPLE', 'features', 'feature HOSTNAME'];
  it('names each kind and type by its first row', () => {
    const t = recordTypeNames(records, (r) => names[r]);
    expect(t.size).toBe(9);
    expect(t.get(typeKey(K.Record, 9))).toBe('SAMPLE');
    expect(t.get(typeKey(K.Nested, 9))).toBe('SAMPLE');
    expect(t.get(typeKey(K.FeatureTable, 0))).toBe('features');
  });
  it('groups rows by kind and type, leaves containers out, sorts by bytes', () => {
    const g = recordComposition(records, recordTypeNames(records, (r) => names[r]));
    expect(g.map((x) => [x.label, x.count, x.bytes, x.nested, x.first])).toEqual([
      ['COMPRESSED', 1, 300, false, 6],
      ['attr 0', 1, 136, false, 1],
      ['header', 1, 104, false, 0],
      ['MMAP2', 1, 100, false, 5],
      ['SAMPLE', 2, 88, false, 3],
      ['SAMPLE', 1, 40, true, 7],
      ['feature HOSTNAME', 1, 32, false, 9],
    ]);
  });
});

describe('rows and samples', () => {
  it('maps a record row to its first sample', () => {
    expect(Array.from(recordSamples(Int32Array.from([2, 2, 0, -1, 9]), 4))).toEqual([2, -1, 0, -1]);
  });
  it('gives a canonical function the first source of its frames', () => {
    const canon = Int32Array.from([0, 1, 1]);
    const frameFuncs = Int32Array.from([0, 1, 2]);
    const src = funcSources(Int32Array.from([2, 1]), Int32Array.from([0, 1]), frameFuncs, canon, ['a.js:3', 'b.js:9']);
    expect(src).toEqual({ 1: 'a.js:3' });
  });
});

describe('funcInlined', () => {
  it('marks canonical funcs whose frames DWARF says were inlined: everywhere (1) or at some frames (2)', () => {
    // frames 0..3 -> funcs 0, 1, 2, 2; canon merges funcs 1 and 3 (same name)
    const frameFuncs = Int32Array.from([0, 1, 2, 2, 3]);
    const canon = Int32Array.from([0, 1, 2, 1]);
    const inl = Uint8Array.from([0, 1, 1, 0]); // shorter than the frames: frame 4 is not inlined
    expect(funcInlined(inl, frameFuncs, canon)).toEqual({ 1: 2, 2: 2 });
    expect(funcInlined(Uint8Array.from([0, 1, 1, 1, 0]), Int32Array.from([0, 1, 2, 2, 0]), canon)).toEqual({ 1: 1, 2: 1 });
    expect(funcInlined(new Uint8Array(0), frameFuncs, canon)).toEqual({});
  });
});

describe('sortByTime', () => {
  // what a comparator sort gives: by time, equal times in the order given
  const byComparator = (rows, times) => {
    const order = Array.from(rows, (_, k) => k).sort((a, b) => times[a] - times[b] || a - b);
    return Int32Array.from(order, (k) => rows[k]);
  };
  it('orders like a stable comparator sort: ties, negative times, -0, fractions, huge values, short and long lists', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (const m of [0, 1, 5, 2047, 2048, 3000, 70000]) {
      const rows = Int32Array.from({ length: m }, (_, k) => k * 3 + 1);
      const pick = [0, -0, 1, -1, 0.5, -2.25, 2 ** 52, -(2 ** 52), 1e15 + 1, 123456789012];
      const times = Float64Array.from({ length: m }, () => (rnd() < 0.3 ? pick[Math.floor(rnd() * pick.length)] : Math.floor(rnd() * 1e6) - 2e5));
      expect(Array.from(sortByTime(rows, times))).toEqual(Array.from(byComparator(rows, times)));
    }
  });
  it('is what buildLanes uses for a lane not in time order (XRay calls come in exit order)', () => {
    const n = 5000;
    const times = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 1000); // out of order, with ties
    const lanes = buildLanes(times, new Int32Array(n), 1);
    expect(lanes.length).toBe(1);
    const order = Array.from(lanes[0].samples);
    expect(order).toEqual(Array.from({ length: n }, (_, i) => i).sort((a, b) => times[a] - times[b] || a - b));
    for (let k = 1; k < n; k++) expect(lanes[0].times[k]).toBeGreaterThanOrEqual(lanes[0].times[k - 1]);
  });
});
