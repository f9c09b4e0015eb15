// The worker keeps no sample column: a sample's stack and record, the records of a call node's samples and
// a record's first sample are asked of the session one at a time (Session.sampleStack, sampleRecord,
// sampleRecordsOf, recordSample). On real files of every format they answer as the whole columns do.
// The record table's parents come as runs where that is smaller (Session.recordParentRuns), read as the
// whole column.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { intAt } from '../../web/src/lib/int-runs.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);

const CASES = [
  ['perf pipe_mode', D('perf', 'pipe_mode', 'pipe.data')],
  ['perf quipper_i686 (11 threads, 6 events)', D('perf', 'quipper_i686_perf3.4', 'perf.data')],
  ['perf perfparser zstd (records inside COMPRESSED)', D('perf', 'perfparser_vector_static_gcc_zstd', 'perf.data')],
  ['simpleperf perf_with_callchain_record', D('simpleperf', 'perf_with_callchain_record', 'perf.data')],
  ['xray fdr_threads', D('xray', 'fdr_threads', 'xray.log')],
  ['gperf calltree_1000hz', D('gperf', 'calltree_1000hz', 'cpu.prof')],
];

const opened = [];
afterAll(() => opened.forEach((o) => o.close()));

describe.each(CASES)('%s', (_name, file) => {
  it("answers each sample's stack and record, and each record's first sample, as the columns say", async () => {
    const o = await openSession(file);
    opened.push(o);
    const s = o.session;
    const stacks = s.sampleStacks();
    const records = s.sampleRecords();
    const n = s.sampleCount();
    expect(n).toBeGreaterThan(0);
    expect(stacks.length).toBe(n);
    for (let i = 0; i < n; i++) {
      expect(s.sampleStack(i)).toBe(stacks[i]);
      expect(s.sampleRecord(i)).toBe(records[i]);
    }
    for (const i of [-1, n, n + 1000]) {
      expect(s.sampleStack(i)).toBe(-1);
      expect(s.sampleRecord(i)).toBe(-1);
    }
    // every other sample, backwards, and some that are not there
    const which = Int32Array.from([...Array.from({ length: Math.ceil(n / 2) }, (_, k) => n - 1 - 2 * k), -5, n]);
    expect(Array.from(s.sampleRecordsOf(which))).toEqual(Array.from(which, (i) => (i >= 0 && i < n ? records[i] : -1)));
    expect(s.sampleRecordsOf(new Int32Array(0))).toHaveLength(0);
    const rows = s.recordCount();
    for (let r = 0; r < rows; r += Math.max(1, Math.floor(rows / 500))) expect(s.recordSample(r)).toBe(records.indexOf(r));
    expect(s.recordSample(-1)).toBe(records.indexOf(-1));
    expect(s.recordSample(rows)).toBe(-1);
  });
  it('gives the record parents as runs where they are few, read as the whole column', async () => {
    const o = await openSession(file);
    opened.push(o);
    const s = o.session;
    const parents = s.recordParents();
    const runs = s.recordParentRuns(1);
    expect(ArrayBuffer.isView(runs)).toBe(false);
    expect(runs.length).toBe(parents.length);
    expect(runs.starts.length).toBeLessThanOrEqual(parents.length);
    for (let r = 0; r < parents.length; r++) expect(intAt(runs, r)).toBe(parents[r]);
    expect(Array.from(s.recordParentRuns(0))).toEqual(Array.from(parents)); // never runs: the column
  });

  it('gives the record columns as runs where that is much smaller, read as the whole columns', async () => {
    const o = await openSession(file);
    opened.push(o);
    const s = o.session;
    for (const [runsOf, whole] of [
      ['recordOffsetRuns', 'recordOffsets'],
      ['recordSizeRuns', 'recordSizes'],
      ['recordTypeRuns', 'recordTypes'],
      ['recordKindRuns', 'recordKinds'],
      ['recordFileRuns', 'recordFiles'],
    ]) {
      const col = s[whole]();
      const runs = s[runsOf]();
      expect(runs.length, runsOf).toBe(col.length);
      if (ArrayBuffer.isView(runs)) expect(runs.constructor, runsOf).toBe(col.constructor);
      else expect(runs.starts.length * 12 * 3, runsOf).toBeLessThanOrEqual(col.byteLength);
      for (let r = 0; r < col.length; r++) if (intAt(runs, r) !== col[r]) expect(intAt(runs, r), `${runsOf} row ${r}`).toBe(col[r]);
    }
    // one main file: one run in every file of a few rows or more
    if (s.recordCount() > 200) expect(s.recordFileRuns().starts?.length).toBe(1);
  });
});

it("an XRay log's record offsets and sizes are a few runs (fixed-size records one after the other)", async () => {
  const o = await openSession(D('xray', 'fdr_calltree', 'xray.log'));
  opened.push(o);
  const s = o.session;
  const n = s.recordCount();
  for (const runs of [s.recordOffsetRuns(), s.recordSizeRuns()]) {
    expect(ArrayBuffer.isView(runs)).toBe(false);
    expect(runs.starts.length).toBeLessThan(n / 10);
  }
});

it('record offsets and sizes come in the narrowest array that holds them (an XRay log\'s sizes: bytes)', async () => {
  for (const [file, sizes] of [[D('xray', 'fdr_threads', 'xray.log'), Uint8Array], [D('perf', 'pipe_mode', 'pipe.data'), Uint16Array]]) {
    const o = await openSession(file);
    opened.push(o);
    const s = o.session;
    const got = s.recordSizes();
    expect(got).toBeInstanceOf(sizes);
    const most = got.reduce((m, v) => Math.max(m, v), 0);
    expect(most).toBeGreaterThan(sizes === Uint8Array ? 0 : 255);
    // every row's size, read through the record's fields, is the column's
    const offsets = s.recordOffsets();
    expect(offsets.length).toBe(got.length);
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeGreaterThanOrEqual(0);
  }
});

it("a call node's samples, more than one chunk of them, map to their records", async () => {
  const o = await openSession(D('perf', 'quipper_i686_perf3.4', 'perf.data'));
  opened.push(o);
  const s = o.session;
  const records = s.sampleRecords();
  const many = Int32Array.from({ length: 200000 }, (_, k) => (k * 7919) % records.length);
  expect(Array.from(s.sampleRecordsOf(many))).toEqual(Array.from(many, (i) => records[i]));
});
