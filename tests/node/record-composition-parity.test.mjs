// The record table's type names and composition the worker now takes from the session
// (Session.recordTypeList, recordComposition: core/analysis/record_composition.cc) are what the worker made
// before from the table's columns row by row (tests/reference/records.js), on real files of every format.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { readRecords } from '../../web/src/worker/session-columns.js';
import { recordComposition, recordTypeNames } from '../../web/src/worker/derive.js';
import { recordComposition as referenceComposition, recordTypeNames as referenceTypeNames } from '../reference/records.js';
import { intAt } from '../../web/src/lib/int-runs.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);

const CASES = [
  ['perf pipe_mode', D('perf', 'pipe_mode', 'pipe.data')],
  ['perf quipper_i686 (features, 6 events)', D('perf', 'quipper_i686_perf3.4', 'perf.data')],
  ['perf -z (records inside COMPRESSED)', D('perf', 'perfparser_vector_static_gcc_zstd', 'perf.data')],
  ['simpleperf', D('simpleperf', 'perf_with_callchain_record', 'perf.data')],
  ['xray fdr_threads', D('xray', 'fdr_threads', 'xray.log')],
  ['gperf calltree_1000hz', D('gperf', 'calltree_1000hz', 'cpu.prof')],
  ['jitdump', D('jitdump', 'perf_inject_jit', 'perf.data')],
];

describe.each(CASES)('%s', (_name, file) => {
  it('type names and composition as the row-by-row reference makes them', async (ctx) => {
    if (!fs.existsSync(file)) return ctx.skip();
    const { session: s, close } = await openSession(file, {});
    try {
      const nameOf = (/** @type {number} */ r) => `${String(s.recordTypeName(r))}|${r}`;
      const records = readRecords(s);
      const want = referenceTypeNames(records, nameOf);
      const got = recordTypeNames(s.recordTypeList(), (r) => nameOf(r));
      expect([...got]).toEqual([...want]);
      // each named by its first row, as the reference: the kind the session gives is that row's
      recordTypeNames(s.recordTypeList(), (r, kind) => (expect(kind).toBe(intAt(records.kinds, r)), ''));
      expect(recordComposition(s.recordComposition(), got)).toEqual(referenceComposition(records, want));
      expect(got.size).toBeGreaterThan(1);
    } finally {
      close();
    }
  });
});
