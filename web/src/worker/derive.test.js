// Unit tests of what the worker derives once per file: lanes, event and CPU counts, the record
// composition, record row -> sample, sources per function.
import { describe, expect, it } from 'vitest';
import { RecordKind } from '../lib/record-kind.js';
import { callLanesFrom, funcInlined, funcSources, heaviestEvent, lanesFrom, recordComposition, recordTypeNames, typeKey, typeKeyKind } from './derive.js';
import { collidingInts } from '../lib/v8-collisions.js';

describe('lanes', () => {
  // the session's answer (Session.sampleLanes): lanes 0, 1, then the samples of no thread
  const order = () => ({ samples: Int32Array.from([0, 1, 2, 3, 5, 4, 6]), start: Int32Array.from([0, 5, 6, 7]), times: Float64Array.from([10, 20, 30, 40, 50, 15, 5]) });
  it('per thread: views of the answer, the samples of no thread last (-1)', () => {
    const lanes = lanesFrom(order(), 1);
    expect(lanes.map((l) => [l.thread, Array.from(l.samples), Array.from(l.times), l.count])).toEqual([
      [0, [0, 1, 2, 3, 5], [10, 20, 30, 40, 50], 5],
      [1, [4], [15], 1],
      [-1, [6], [5], 1],
    ]);
    expect(lanes[0].samples.buffer).toBe(lanes[1].samples.buffer); // one buffer: transferred once
  });
  it('per CPU: the samples of no CPU left out, empty lanes too, times scaled to ns', () => {
    const o = order();
    o.start = Int32Array.from([0, 5, 5, 6, 7]); // CPUs 0, (1: none), 2, then none
    expect(lanesFrom(o, 2, undefined, true).map((l) => [l.thread, Array.from(l.times)])).toEqual([
      [0, [20, 40, 60, 80, 100]],
      [2, [30]],
    ]);
    expect(lanesFrom({ samples: new Int32Array(0), start: new Int32Array(0), times: new Float64Array(0) }, 1, undefined, true)).toEqual([]);
  });
  it('counts gperftools rows by their counts', () => {
    const counts = Uint32Array.from([1, 2, 3, 4, 5, 6, 7]);
    const lanes = lanesFrom(order(), 1, counts);
    expect(lanes.map((l) => [l.count, Array.from(l.weights ?? [])])).toEqual([
      [1 + 2 + 3 + 4 + 6, [1, 2, 3, 4, 6]],
      [5, [5]],
      [7, [7]],
    ]);
  });
});

describe('call lanes (a tracer: the calls are the samples)', () => {
  // the session's answer (Session.callLanes): threads 0, 2, then the calls of no thread; times in ns
  const summary = (fileGap = 0) => ({
    thread: Int32Array.from([0, 2, -1]),
    count: Float64Array.from([5, 1, 2]),
    first: Float64Array.from([10, 15, 5]),
    last: Float64Array.from([50, 15, 6]),
    gap: Float64Array.from([10, 0, 1]),
    fileGap,
  });
  it('one lane per thread with calls, in the session\'s order, and no entry per call', () => {
    expect(callLanesFrom(summary(4))).toEqual([
      { thread: 0, calls: true, count: 5, first: 10, last: 50, gap: 10, gapFrom: 'gap' },
      { thread: 2, calls: true, count: 1, first: 15, last: 15, gap: 4, gapFrom: 'file gap' },
      { thread: -1, calls: true, count: 2, first: 5, last: 6, gap: 1, gapFrom: 'gap' },
    ]);
  });
  it("a lane of one call is padded by the file's gap; none known: 0 (the chart then takes 1/1000 of its span)", () => {
    expect(callLanesFrom(summary(0))[1]).toMatchObject({ gap: 0, gapFrom: 'file gap' });
    expect(callLanesFrom({ ...summary(0), thread: new Int32Array(0) })).toEqual([]);
  });
});

describe('counts', () => {
  it('the heaviest event, the first of equals', () => {
    expect(heaviestEvent(Float64Array.from([5, 2, 1]))).toBe(0);
    expect(heaviestEvent(Float64Array.from([1, 3, 3]))).toBe(1);
    expect(heaviestEvent(new Float64Array(0))).toBe(0);
  });
});

describe('record composition', () => {
  // header, attr, data section {SAMPLE, SAMPLE, MMAP2, COMPRESSED {nested SAMPLE}}, feature table {HOSTNAME}:
  // its rows' names
  const K = RecordKind;
  const names = ['header', 'attr 0', 'data', 'SAMPLE', 'SAMPLE', 'MMAP2', 'COMPRESSED', 'SAMPLE', 'features', 'feature HOSTNAME'];
  // (the session's answers for that table, as Session.recordTypeList and recordComposition give them)
  const types = {
    kind: Uint8Array.from([K.FileHeader, K.Attr, K.DataSection, K.Record, K.Record, K.Record, K.Nested, K.FeatureTable, K.Feature]),
    type: Uint32Array.from([0, 0, 0, 9, 10, 81, 9, 0, 2]),
    first: Int32Array.from([0, 1, 2, 3, 5, 6, 7, 8, 9]),
  };
  it('names each kind and type by its first row', () => {
    const t = recordTypeNames(types, (r) => names[r]);
    expect(t.size).toBe(9);
    expect(t.get(typeKey(K.Record, 9))).toBe('SAMPLE');
    expect(t.get(typeKey(K.Nested, 9))).toBe('SAMPLE');
    expect(t.get(typeKey(K.FeatureTable, 0))).toBe('features');
    // the row's kind comes with it (an attr is named by its label)
    const kinds = [];
    recordTypeNames(types, (r, kind) => (kinds.push([r, kind]), ''));
    expect(kinds[1]).toEqual([1, K.Attr]);
  });
  it('keys the types by strings: types a crafted file chose to share a bucket of a Map of numbers', () => {
    // a perf.data of 8-byte records of 50000 types: as numbers (kind * 2^32 + type) V8 hashes them without
    // a seed, and these share one bucket (kind 0: small integers; a record's, kind 5, are doubles, hashed
    // as unseeded by ComputeLongHash): that Map took 3.0 s in node. Strings are hashed with V8's seed.
    const n = 5000;
    const chosen = { kind: new Uint8Array(n), type: Uint32Array.from(collidingInts(n)), first: Int32Array.from({ length: n }, (_, i) => i) };
    const t = recordTypeNames(chosen, (r) => String(r));
    expect(t.size).toBe(n);
    expect(typeof typeKey(0, 1)).toBe('string');
    expect(t.get(typeKey(0, chosen.type[777]))).toBe('777');
    expect(typeKeyKind(typeKey(K.Nested, 4294967295))).toBe(K.Nested);
  });
  it('names the session\'s groups and marks the nested ones', () => {
    const groups = { kind: Uint8Array.from([K.Record, K.Nested]), type: Uint32Array.from([9, 9]), count: Float64Array.from([2, 1]), bytes: Float64Array.from([88, 40]), first: Int32Array.from([3, 7]) };
    const g = recordComposition(groups, recordTypeNames(types, (r) => names[r]));
    expect(g).toEqual([
      { label: 'SAMPLE', kind: K.Record, type: 9, count: 2, bytes: 88, nested: false, first: 3 },
      { label: 'SAMPLE', kind: K.Nested, type: 9, count: 1, bytes: 40, nested: true, first: 7 },
    ]);
  });
});

describe('rows and samples', () => {
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
