// The record table's indexes the worker now takes from the session (Session.recordIndex:
// core/analysis/record_index.cc) hold the values the worker built before from the table's columns row by
// row (tests/reference/record-index.js), on real files of every format: children lists, the main file's
// leaves by offset, the running max of their ends and the containers. (Runs or arrays alike: the values are
// compared, as lib/records.js reads them.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { readRecordIndex, readRecords } from '../../web/src/worker/session-columns.js';
import { buildRecordIndex } from '../reference/record-index.js';
import { intsOf } from '../../web/src/lib/int-runs.js';
import { findRowAt, kidAt, kidPos, leavesInRange, rowCount } from '../../web/src/lib/records.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);
const THREADS = D('perf_dir', 'threads_named', 'perf.data');

const CASES = [
  ['perf pipe_mode', D('perf', 'pipe_mode', 'pipe.data')],
  ['perf quipper_i686 (features, 6 events)', D('perf', 'quipper_i686_perf3.4', 'perf.data')],
  ['perf quipper_remmap (attr ids inside the attrs)', D('perf', 'quipper_remmap_perf3.2', 'perf.data')],
  ['perf -z (records inside COMPRESSED)', D('perf', 'perfparser_vector_static_gcc_zstd', 'perf.data')],
  ['perf --threads (rows of data.N files)', [path.join(THREADS, 'data'), path.join(THREADS, 'data.0'), path.join(THREADS, 'data.1')]],
  ['perf truncated', D('perf', 'truncated', 'perf.data')],
  ['simpleperf', D('simpleperf', 'perf_with_callchain_record', 'perf.data')],
  ['xray fdr_threads', D('xray', 'fdr_threads', 'xray.log')],
  ['xray basic_threads', D('xray', 'basic_threads', 'xray.log')],
  ['gperf calltree_1000hz', D('gperf', 'calltree_1000hz', 'cpu.prof')],
  ['jitdump', D('jitdump', 'perf_inject_jit', 'perf.data')],
  ['jitdump julia dump', D('jitdump', 'ddprof_simple_julia', 'jit-simple-julia.dump')],
];

describe.each(CASES)('%s', (_name, file) => {
  it('children, leaves and containers as the row-by-row reference makes them', async (ctx) => {
    const files = Array.isArray(file) ? file : [file];
    if (!files.every((f) => fs.existsSync(f))) return ctx.skip();
    const { session: s, close } = await openSession(file, {});
    try {
      const records = readRecords(s);
      const want = buildRecordIndex(records);
      const got = readRecordIndex(s);
      const n = records.kinds.length;
      expect(n).toBeGreaterThan(1);
      expect(intsOf(got.kidsStart)).toEqual(intsOf(want.kidsStart));
      expect(intsOf(got.kids)).toEqual(intsOf(want.kids));
      expect(intsOf(got.leafOrder)).toEqual(intsOf(want.leafOrder));
      expect(got.leafMaxEnd === null ? null : Array.from(got.leafMaxEnd)).toEqual(want.leafMaxEnd === null ? null : Array.from(want.leafMaxEnd));
      expect(Array.from(got.containers)).toEqual(Array.from(want.containers));
      // and the page's lookups over it: every row's place among its siblings, the row at some offsets
      const doc = { records, index: got };
      expect(rowCount(doc)).toBe(n);
      for (let r = 0; r < n; r += Math.max(1, Math.floor(n / 500))) expect(kidAt(doc, kidPos(doc, r))).toBe(r);
      const refDoc = { records, index: want };
      for (const at of [0, 8, 100, 1000, 5000]) {
        expect(findRowAt(doc, at)).toBe(findRowAt(refDoc, at));
        expect(leavesInRange(doc, at, at + 300)).toEqual(leavesInRange(refDoc, at, at + 300));
      }
    } finally {
      close();
    }
  });
});
