// The flame chart's lanes and the per-event and per-CPU counts the worker takes from the session
// (Session.sampleLanes, eventTotals, cpuRows: core/analysis/sample_lanes.cc) are what the JavaScript
// reference (tests/reference/lanes.js, the worker's code before) makes from whole sample columns, on real
// files of every format, and on an XRay log whose one lane of 100 000 calls comes in exit order (the
// core's radix sort).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { lanesFrom } from '../../web/src/worker/derive.js';
import { intervalRows as chartRows } from '../../web/src/views/flame-chart/chart-model.js';
import { buildLanes, cpuLanes, cpuRows, eventTotals, intervalRows } from '../reference/lanes.js';
import { deepXRay } from './hostile/make-hostile-formats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);

const deepLog = () => {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-lanes-')), 'deep.log');
  fs.writeFileSync(f, deepXRay(fs.readFileSync(D('xray', 'fdr_threads', 'xray.log')), 100000));
  return f;
};

const CASES = [
  { name: 'perf pipe_mode', file: () => D('perf', 'pipe_mode', 'pipe.data') },
  { name: 'perf quipper_i686 (11 threads, 4 CPUs, 6 events)', file: () => D('perf', 'quipper_i686_perf3.4', 'perf.data') },
  { name: 'perf perfparser_vector_static_gcc_zstd', file: () => D('perf', 'perfparser_vector_static_gcc_zstd', 'perf.data') },
  { name: 'simpleperf perf_with_callchain_record', file: () => D('simpleperf', 'perf_with_callchain_record', 'perf.data') },
  { name: 'xray fdr_threads', file: () => D('xray', 'fdr_threads', 'xray.log') },
  { name: 'gperf calltree_1000hz (rows with counts)', file: () => D('gperf', 'calltree_1000hz', 'cpu.prof') },
  { name: 'perf inject --jit (jitted code)', file: () => D('jitdump', 'perf_inject_jit', 'perf.data') },
  { name: 'xray, 100 000 nested calls in exit order', file: deepLog, deep: true },
];

/** @param {{thread: number, samples: ArrayLike<number>, times: ArrayLike<number>}[]} lanes */
const plain = (lanes) => lanes.map((l) => ({ thread: l.thread, samples: Array.from(l.samples), times: Array.from(l.times) }));

describe.each(CASES)('$name', ({ file, deep }) => {
  it('lanes by thread and by CPU, samples per event and per CPU: as the reference makes them', async (ctx) => {
    const f = file();
    if (!fs.existsSync(f)) return ctx.skip();
    const { session: s, close } = await openSession(f, {});
    try {
      const times = s.sampleTimes();
      const threads = s.sampleThreads();
      const cpus = s.sampleCpus();
      const counts = s.sampleCounts();
      expect(times.length).toBeGreaterThan(0);
      expect(s.sampleCount()).toBe(times.length);
      for (let i = 0; i < times.length; i += Math.max(1, times.length >> 8)) expect(s.sampleTime(i)).toBe(times[i]);
      expect(s.sampleTime(times.length)).toBe(0);
      expect(s.sampleTime(-1)).toBe(0);
      const nThreads = JSON.parse(s.threadsJson()).length;
      const byThread = lanesFrom(s.sampleLanes(false), 1, counts);
      expect(plain(byThread)).toEqual(plain(buildLanes(times, threads, nThreads)));
      expect(byThread.reduce((n, l) => n + l.samples.length, 0)).toBe(times.length);
      // gperftools rows stand for their counts
      const rowsOf = (l) => Array.from(l.samples).reduce((n, i) => n + (counts.length ? counts[i] : 1), 0);
      for (const l of byThread) expect(l.count).toBe(rowsOf(l));
      expect(plain(lanesFrom(s.sampleLanes(true), 1, counts, true))).toEqual(plain(cpuLanes(times, cpus)));
      const events = JSON.parse(s.eventsJson()).length;
      expect(Array.from(s.eventTotals())).toEqual(Array.from(eventTotals(s.sampleEvents(), counts, events)));
      const r = s.cpuRows();
      expect(Array.from(r.cpus, (cpu, i) => ({ cpu, rows: r.rows[i] }))).toEqual(cpuRows(cpus));
      // the exact calls (XRay) in the flame chart's rows: each call once, each row the reference's
      const calls = { thread: s.intervalThreads(), depth: s.intervalDepths(), start: s.intervalStarts(), end: s.intervalEnds(), record: s.intervalRecords(), func: s.intervalFuncs() };
      const flame = s.flameIntervals();
      expect(flame.start.length).toBe(calls.start.length);
      const threadIds = [...new Set(calls.thread)].filter((t) => t >= 0).sort((a, b) => a - b);
      let inRows = 0;
      for (const t of threadIds) {
        const want = intervalRows(calls, t);
        const got = chartRows(flame, t);
        expect(got.length).toBe(want.length);
        want.forEach((w, d) => {
          const g = got[d];
          if (!w.idx.length) return expect(g).toBeUndefined();
          inRows += w.idx.length;
          expect(Array.from(g.start)).toEqual(w.start);
          expect(Array.from(g.end)).toEqual(w.end);
          // the same calls: their records and functions
          expect(Array.from({ length: w.idx.length }, (_, k) => flame.record[g.first + k])).toEqual(w.idx.map((i) => calls.record[i]));
          expect(Array.from({ length: w.idx.length }, (_, k) => flame.func[g.first + k])).toEqual(w.idx.map((i) => calls.func[i]));
        });
      }
      expect(flame.rows.first[flame.rows.first.length - 1]).toBe(inRows);
      if (deep) {
        expect(flame.rows.thread.length).toBe(100000); // a row per depth
        // one thread's 100 000 calls, each a sample at its start: the lane runs against the samples' order
        expect(byThread[0].samples.length).toBe(100000);
        expect(byThread[0].samples[0]).toBe(99999);
      }
    } finally {
      close();
    }
  }, 60_000);
});
