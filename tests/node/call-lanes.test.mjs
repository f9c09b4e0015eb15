// A tracer's flame chart lanes without an entry per call (web/src/worker/tables.js: XRay's calls are its
// samples, the chart draws them from the worker): the summary per thread lane (Session.callLanes: calls, first
// and last start, the median gap) and the calls started per column (Session.callActivity) are what the page
// made before from the lanes of every sample (lanesFrom of Session.sampleLanes(false): laneExtent, laneInterval,
// laneActivity), on every XRay log in tests/data, one cut short (calls that never exited: in the rows, no
// samples), and one thread's 100 000 nested calls; a perf.data still gets its lanes of samples.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { callLanesFrom, lanesFrom } from '../../web/src/worker/derive.js';
import { callLaneInterval, laneActivity, laneExtent, laneInterval, laneSamples, typicalGap } from '../../web/src/views/flame-chart/chart-model.js';
import { makeTables } from '../../web/src/worker/tables.js';
import { deepXRay } from './hostile/make-hostile-formats.mjs';
import { threadsXRay } from './xray-threads.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);
const made = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-call-lanes-'));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const written = (/** @type {string} */ name, /** @type {Buffer} */ bytes) => {
  const f = path.join(tmp(), name);
  fs.writeFileSync(f, bytes);
  return f;
};
const deepLog = () => {
  const f = path.join(tmp(), 'deep.log');
  fs.writeFileSync(f, deepXRay(fs.readFileSync(D('xray', 'fdr_threads', 'xray.log')), 100000));
  return f;
};
// the fdr_threads log cut in its middle (whole 8-byte records kept): the calls open there never exit
const cutLog = () => {
  const f = path.join(tmp(), 'cut.log');
  const bytes = fs.readFileSync(D('xray', 'fdr_threads', 'xray.log'));
  fs.writeFileSync(f, bytes.subarray(0, 32 + Math.floor((bytes.length - 32) * 0.6 / 8) * 8));
  return f;
};

const XRAY = fs
  .readdirSync(D('xray'))
  .filter((d) => fs.existsSync(D('xray', d, 'xray.log')))
  .map((d) => ({ name: `xray ${d}`, file: () => D('xray', d, 'xray.log') }))
  .concat([
    { name: 'xray fdr_threads cut short (calls that never exited)', file: cutLog, open: true },
    { name: 'xray, 100 000 nested calls of one thread', file: deepLog },
    // ten threads, the first of one call: its lane is padded by the file's gap
    { name: 'xray, 10 threads, one of one call', file: () => written('threads.log', threadsXRay(fs.readFileSync(D('xray', 'fdr_threads', 'xray.log')), 10, { outer: (t) => (t ? 8 * t : 1), inner: (t) => t > 0 })), fileGap: true },
  ]);

/** Every sample's time, sorted (what flame-chart.jsx's file gap is made from). */
const allTimes = (lanes) => Float64Array.from(lanes.flatMap((l) => Array.from(l.times))).sort();

describe.each(XRAY)('$name', ({ file, open, fileGap: oneCall }) => {
  it('the lanes summed up per thread, and the calls started per column, are what the lanes of every call gave', async () => {
    const { session: s, close } = await openSession(file(), {});
    try {
      const scale = s.timeBase().scale;
      const old = lanesFrom(s.sampleLanes(false), scale);
      const got = s.callLanes(scale);
      expect(got).not.toBeNull();
      const lanes = callLanesFrom(/** @type {any} */ (got));
      // one lane per thread with calls, in the same order, with the same calls and extent
      expect(lanes.map((l) => l.thread)).toEqual(old.map((l) => l.thread));
      expect(lanes.map(laneSamples)).toEqual(old.map(laneSamples));
      expect(lanes.map((l) => l.count)).toEqual(old.map((l) => l.count));
      expect(lanes.map(laneExtent)).toEqual(old.map(laneExtent));
      // the chart's padding: each lane's interval as laneInterval made it of its times (the file's gap for a
      // lane of one call)
      const span = Math.max(...old.map((l) => l.times[l.times.length - 1])) - Math.min(...old.map((l) => l.times[0]));
      const fileGap = () => typicalGap(allTimes(old));
      lanes.forEach((l, i) => {
        expect(callLaneInterval(l, {}, span)).toEqual(laneInterval(old[i].times, {}, fileGap, span));
        if (l.gapFrom === 'gap') expect(l.gap).toBe(typicalGap(old[i].times));
      });
      if (oneCall) {
        expect(lanes.find((l) => l.count === 1)).toMatchObject({ gapFrom: 'file gap' });
        expect(lanes.find((l) => l.count === 1)?.gap).toBe(fileGap());
        expect(fileGap()).toBeGreaterThan(0);
      }
      if (open) expect(s.flameRows().calls).toBeGreaterThan(s.sampleCount()); // (the cut log's open calls are in the rows)
      // the calls started per column: the whole span (the overview), zoomed windows, a column narrower than a
      // tick, windows before and after the calls, every lane at once and one at a time
      const lo = Math.min(...old.map((l) => l.times[0]));
      const hi = Math.max(...old.map((l) => l.times[l.times.length - 1]));
      const d = hi - lo || 1;
      const windows = [
        [lo, hi + 1, 600],
        [lo, hi + d * 0.01, 1280],
        [lo + d * 0.3, lo + d * 0.35, 97],
        [lo + d * 0.5, lo + d * 0.5 + 0.5, 10],
        [lo, hi + 1, 1],
        [lo - d, lo, 50],
        [hi + 1, hi + d, 50],
        [lo, lo, 20],
      ];
      const threads = Int32Array.from(lanes, (l) => l.thread);
      for (const [t0, t1, cols] of windows) {
        const act = s.callActivity(threads, scale, t0, t1, cols);
        expect(act).toBeInstanceOf(Float32Array);
        expect(act.length).toBe(threads.length * cols);
        old.forEach((l, j) => expect(Array.from(act.subarray(j * cols, (j + 1) * cols)), `lane ${l.thread} [${t0}, ${t1}) ${cols}`).toEqual(Array.from(laneActivity(l, t0, t1, cols, null))));
      }
      // one lane alone, the last first
      const j = old.length - 1;
      expect(Array.from(s.callActivity(Int32Array.from([old[j].thread]), scale, lo, hi + 1, 300))).toEqual(Array.from(laneActivity(old[j], lo, hi + 1, 300, null)));
      // a sample's thread lane (where the chart marks it)
      for (const l of old) for (let k = 0; k < l.samples.length; k += Math.max(1, l.samples.length >> 6)) expect(s.sampleLane(l.samples[k])).toBe(l.thread);
      expect(s.sampleLane(-1)).toBe(-1);
      expect(s.sampleLane(s.sampleCount())).toBe(-1);
    } finally {
      close();
    }
  }, 120_000);
});

describe('a sampler: its lanes of samples, as before', () => {
  it.each([
    ['perf pipe_mode', D('perf', 'pipe_mode', 'pipe.data')],
    ['perf quipper_i686 (11 threads)', D('perf', 'quipper_i686_perf3.4', 'perf.data')],
    ['gperf calltree_1000hz', D('gperf', 'calltree_1000hz', 'cpu.prof')],
  ])('%s: no call lanes; the timeline carries each lane\'s samples and times', async (_n, f) => {
    const { session: s, close } = await openSession(f, {});
    try {
      const scale = s.timeBase().scale;
      expect(s.callLanes(scale)).toBeNull();
      expect(s.callActivity(Int32Array.from([0]), scale, 0, 1e9, 10)).toEqual(new Float32Array(10));
      const posted = [];
      await makeTables(s, { scale, counts: s.sampleCounts() }, { between: async () => {}, current: () => true, post: (m) => posted.push(m) });
      const { lanes } = posted.find((m) => m.type === 'timeline');
      expect(lanes.length).toBeGreaterThan(0);
      expect(lanes.every((l) => !l.calls && l.samples instanceof Int32Array && l.times instanceof Float64Array)).toBe(true);
      expect(lanes.map((l) => [l.thread, Array.from(l.samples)])).toEqual(lanesFrom(s.sampleLanes(false), scale, s.sampleCounts()).map((l) => [l.thread, Array.from(l.samples)]));
    } finally {
      close();
    }
  }, 60_000);
});

describe("an XRay log's timeline", () => {
  it('holds a summary per thread and no entry per call, and asks nothing of Session.sampleLanes', async () => {
    const { session: s, close } = await openSession(D('xray', 'fdr_threads', 'xray.log'), { side: [D('xray', 'fdr_threads', 'xray_threads')] });
    try {
      const scale = s.timeBase().scale;
      const asked = [];
      const watched = new Proxy(s, {
        get(target, prop) {
          const v = Reflect.get(target, prop);
          if (typeof v !== 'function') return v;
          return (...args) => (asked.push(String(prop)), v.apply(target, args));
        },
      });
      const posted = [];
      await makeTables(watched, { scale, counts: s.sampleCounts() }, { between: async () => {}, current: () => true, post: (m) => posted.push(m) });
      expect(asked).not.toContain('sampleLanes');
      const { lanes, intervals } = posted.find((m) => m.type === 'timeline');
      expect(lanes.length).toBeGreaterThan(1);
      for (const l of lanes) expect(Object.keys(l).sort()).toEqual(['calls', 'count', 'first', 'gap', 'gapFrom', 'last', 'thread']);
      expect(lanes.reduce((n, l) => n + l.count, 0)).toBe(s.sampleCount());
      expect(intervals.calls).toBe(s.sampleCount());
    } finally {
      close();
    }
  }, 60_000);
});
