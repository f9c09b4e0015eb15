// The flame chart's lanes and the per-event and per-CPU counts the worker takes from the session
// (Session.sampleLanes, eventTotals, cpuRows: core/analysis/sample_lanes.cc) are what the JavaScript
// reference (tests/reference/lanes.js, the worker's code before) makes from whole sample columns, on real
// files of every format, and on an XRay log whose one lane of 100 000 calls comes in exit order (the
// core's radix sort). The flame chart's exact calls (XRay) stay in the session: its rows (Session.flameRows)
// hold the reference's calls, and the boxes it draws of them (Session.flameBoxes) are a call-by-call walk's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { lanesFrom } from '../../web/src/worker/derive.js';
import { threadRows } from '../../web/src/views/flame-chart/chart-model.js';
import { buildLanes, cpuLanes, cpuRows, eventTotals, intervalRows, walkBoxes } from '../reference/lanes.js';
import { deepXRay } from './hostile/make-hostile-formats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);

const made = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const deepLog = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-lanes-'));
  made.push(d);
  const f = path.join(d, 'deep.log');
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
      // the exact calls (XRay) in the flame chart's rows: each call once, each row the reference's; the boxes
      // of a row in the whole span and in a zoomed window are the walk's over the reference's row
      const calls = { thread: s.intervalThreads(), depth: s.intervalDepths(), start: s.intervalStarts(), end: s.intervalEnds(), record: s.intervalRecords(), func: s.intervalFuncs() };
      const flame = s.flameRows();
      expect(flame.calls).toBe(calls.start.length);
      if (calls.start.length) {
        expect(flame.lo).toBe(Math.min(...calls.start));
        expect(flame.hi).toBe(calls.end.reduce((m, e) => Math.max(m, e), -Infinity));
      }
      const threadIds = [...new Set(calls.thread)].filter((t) => t >= 0).sort((a, b) => a - b);
      let inRows = 0;
      let boxesSeen = 0;
      for (const t of threadIds) {
        const want = intervalRows(calls, t);
        const got = threadRows({ rows: flame }, t);
        expect(got.length).toBe(want.length);
        // (the boxes of 200 rows of a thread at most, spread over its depths: a 100 000-deep one has 100 000)
        const every = Math.max(1, Math.floor(want.length / 200));
        want.forEach((w, d) => {
          const row = got[d];
          if (!w.idx.length) return expect(row).toBeUndefined();
          inRows += w.idx.length;
          expect(flame.first[row + 1] - flame.first[row]).toBe(w.idx.length);
          if (d % every) return;
          const lo = w.start[0];
          const hi = w.end[w.end.length - 1];
          const windows = [
            [lo, hi + 1, 800],
            [lo + (hi - lo) * 0.3, lo + (hi - lo) * 0.35 + 1, 97],
            [lo, hi + 1, 3],
          ];
          for (const [t0, t1, cols] of windows) {
            const b = s.flameBoxes(Int32Array.from([row]), 1, t0, t1, cols);
            const k = walkBoxes(w, t0, t1, cols);
            expect(Array.from(b.row)).toEqual(k.map(() => row));
            expect(Array.from(b.start)).toEqual(k.map((j) => w.start[j]));
            expect(Array.from(b.end)).toEqual(k.map((j) => w.end[j]));
            // the same calls: their records and functions
            expect(Array.from(b.record)).toEqual(k.map((j) => calls.record[w.idx[j]]));
            expect(Array.from(b.func)).toEqual(k.map((j) => calls.func[w.idx[j]]));
            boxesSeen += k.length;
          }
          // scaled times: the boxes' times as the page has them (ns)
          const scaled = s.flameBoxes(Int32Array.from([row]), 2.5, lo * 2.5, (hi + 1) * 2.5, 800);
          expect(Array.from(scaled.start)).toEqual(walkBoxes(w, lo, hi + 1, 800).map((j) => w.start[j] * 2.5));
        });
      }
      expect(flame.first[flame.first.length - 1]).toBe(inRows);
      if (inRows) expect(boxesSeen).toBeGreaterThan(0);
      if (deep) {
        expect(flame.thread.length).toBe(100000); // a row per depth
        // one thread's 100 000 calls, each a sample at its start: the lane runs against the samples' order
        expect(byThread[0].samples.length).toBe(100000);
        expect(byThread[0].samples[0]).toBe(99999);
      }
    } finally {
      close();
    }
  }, 60_000);
});
