// Unit tests of the flame chart's model: the sample under a time, boxes per depth.
import { describe, expect, it } from 'vitest';
import { analyze, prepare } from '../../../../tests/reference/analysis.js';
import { mappings, profile, strings } from '../../../../tests/reference/small-profile.js';
import { ancestorAt, intervalAt, intervalBoxes, intervalRows, laneActivity, laneBoxes, laneInterval, lastAtOrBefore, niceTicks, orderLanes, sampleAt, typicalGap } from './chart-model.js';

describe('flame chart model', () => {
  it('finds the sample covering a time: a sample lasts its interval or until the next one', () => {
    const lane = { samples: Int32Array.from([0, 1, 2, 3]), times: Float64Array.from([0, 10, 20, 100]) };
    expect(lastAtOrBefore(lane.times, 15)).toBe(1);
    expect(lastAtOrBefore(lane.times, -1)).toBe(-1);
    const gap = typicalGap(lane.times);
    expect(gap).toBe(10);
    expect(sampleAt(lane, 25, gap)).toBe(2);
    expect(sampleAt(lane, 31, gap)).toBe(-1); // 20 + 10 = 30: nothing sampled until 100
    expect(sampleAt(lane, 100, gap)).toBe(3);
    expect(sampleAt(lane, 109, gap)).toBe(3); // the last sample lasts its interval too
    expect(sampleAt(lane, 110, gap)).toBe(-1);
    expect(sampleAt(lane, 5, 4)).toBe(-1); // a shorter interval than the gap leaves a hole
  });

  it('gives every lane a sampling interval: the event\'s, else the median gap, never 0', () => {
    const one = Float64Array.from([500]);
    const many = Float64Array.from([0, 3, 6, 10, 13]);
    // perf cpu-clock -c 250000: the period in ns; -F 4000: 1 / frequency
    expect(laneInterval(one, { interval_ns: 250000, interval_from: 'period' }, 7, 1e6)).toEqual({ ns: 250000, from: 'period' });
    expect(laneInterval(many, { interval_ns: 250000, interval_from: 'frequency' }, 7, 1e6)).toEqual({ ns: 250000, from: 'frequency' });
    // cycles: the event does not say
    expect(laneInterval(many, { interval_ns: 0 }, 7, 1e6)).toEqual({ ns: 3, from: 'gap' });
    expect(laneInterval(one, {}, 7, 1e6)).toEqual({ ns: 7, from: 'file gap' }); // one sample: the file's median gap
    expect(laneInterval(one, {}, () => 7, 1e6)).toEqual({ ns: 7, from: 'file gap' }); // (or what makes it)
    let asked = 0;
    expect(laneInterval(many, { interval_ns: 0 }, () => ++asked, 1e6).from).toBe('gap');
    expect(asked).toBe(0); // made only when a lane needs it
    expect(laneInterval(one, null, 0, 1e6)).toEqual({ ns: 1000, from: 'span' });
    expect(laneInterval(one, null, 0, 0).ns).toBeGreaterThan(0);
    expect(typicalGap(one)).toBe(0);
  });

  it('draws a thread with one sample as wide as its interval', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    const lane = { samples: Int32Array.from([0]), times: Float64Array.from([1000]) };
    // window 0..2000 ns over 20 columns (100 ns each); interval 400 ns: columns 10..13
    const boxes = laneBoxes(lane, t.sampleNode, t, 0, 2000, 20, 400);
    const top = boxes.find((b) => b.depth === 1);
    expect(top).toBeDefined();
    expect([top?.x0, top?.x1]).toEqual([10, 14]);
  });

  it('orders lanes busiest first, pinned lanes on top, hidden lanes apart', () => {
    const lanes = [
      { key: 't0', thread: 0, count: 5 },
      { key: 't1', thread: 1, count: 50 },
      { key: 't2', thread: 2, count: 1 },
      { key: 't3', thread: 3, count: 50 },
    ];
    const keys = (/** @type {any[]} */ ls) => ls.map((l) => l.key);
    expect(keys(orderLanes(lanes, [], new Set()).shown)).toEqual(['t1', 't3', 't0', 't2']);
    const o = orderLanes(lanes, ['t2', 't0'], new Set(['t3']));
    expect(keys(o.shown)).toEqual(['t2', 't0', 't1']);
    expect(keys(o.hidden)).toEqual(['t3']);
  });

  it('puts ruler ticks on round values (1/2/5 x 10^n) from the time zero', () => {
    // zero at 67 ms in a window 67..1067 ms: ticks at 0, 200, ... 1000 ms from zero (not 33 + k*200)
    const z = 67e6;
    const { step, ticks } = niceTicks(z, z + 1e9, z, 8);
    expect(step).toBe(2e8);
    expect(ticks.map((k) => k.value)).toEqual([0, 2e8, 4e8, 6e8, 8e8, 1e9]);
    expect(ticks[1].t).toBe(z + 2e8);
    // a window not starting at zero: the first tick is the first round value in it
    const w = niceTicks(z + 123456, z + 123456 + 9000, z, 10);
    expect(w.step).toBe(1000);
    expect(w.ticks[0].value).toBe(124000);
    expect(w.ticks.every((k) => k.value % 1000 === 0)).toBe(true);
    expect(niceTicks(0, 0.3, 0, 3).ticks.map((k) => k.value)).toEqual([0, 0.1, 0.2, 0.3]);
    expect([1, 2, 5].some((m) => niceTicks(0, 7e5, 0, 6).step === m * 1e5)).toBe(true);
    expect(niceTicks(5, 5, 0, 6).ticks).toEqual([]);
  });

  it('counts a lane\'s samples per column for the overview track (weighted by gperftools counts)', () => {
    const lane = { samples: Int32Array.from([0, 1, 2, 3]), times: Float64Array.from([0, 1, 5, 9.5]) };
    expect(Array.from(laneActivity(lane, 0, 10, 5, null))).toEqual([2, 0, 1, 0, 1]);
    expect(Array.from(laneActivity(lane, 0, 10, 5, Uint32Array.from([3, 1, 2, 4])))).toEqual([4, 0, 2, 0, 4]);
    expect(Array.from(laneActivity(lane, 1, 6, 5, null))).toEqual([1, 0, 0, 0, 1]);
  });

  it('merges adjacent columns with the same call node into boxes per depth', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    // lane of thread 0: samples 0 (t10 main>a>b), 1 (t20 main>a>b>a), 2 (t30 main>a), 3 (t40 main>libc_f>libc_g)
    const lane = { samples: Int32Array.from([0, 1, 2, 3]), times: Float64Array.from([10, 20, 30, 40]) };
    const boxes = laneBoxes(lane, t.sampleNode, t, 10, 50, 4, 10);
    const named = boxes
      .map((b) => [b.depth, ctx.names[t.func[b.node]], b.x0, b.x1])
      .sort((a, b) => a[0] - b[0] || a[2] - b[2]);
    expect(named).toEqual([
      [1, 'main', 0, 4],
      [2, 'a', 0, 3],
      [2, 'libc_f', 3, 4],
      [3, 'b', 0, 2],
      [3, 'libc_g', 3, 4],
      [4, 'a', 1, 2],
    ]);
    expect(ancestorAt(t, t.sampleNode[1], 2)).toBe(t.parent[t.parent[t.sampleNode[1]]]);
  });
});


describe('exact calls (XRay) by depth', () => {
  // the session's rows (Session.flameIntervals): thread 0 at depths 0 and 2, thread 3 at depth 0
  const iv = {
    start: Float64Array.from([0, 50, 10, 20, 5]),
    end: Float64Array.from([40, 90, 15, 30, 9]),
    rows: { thread: Int32Array.from([0, 0, 3]), depth: Int32Array.from([0, 2, 0]), first: Int32Array.from([0, 2, 4, 5]) },
  };
  it('a thread\'s rows are views of the table, a depth without calls a hole', () => {
    const rows = intervalRows(iv, 0);
    expect(rows.length).toBe(3);
    expect(rows[1]).toBeUndefined();
    expect([Array.from(rows[0].start), Array.from(rows[0].end), rows[0].first]).toEqual([[0, 50], [40, 90], 0]);
    expect([Array.from(rows[2].start), rows[2].first]).toEqual([[10, 20], 2]);
    expect(rows[2].start.buffer).toBe(iv.start.buffer);
    expect(intervalRows(iv, 3).map((r) => r.first)).toEqual([4]);
    expect(intervalRows(iv, 1)).toEqual([]);
    expect(intervalRows(iv, 7)).toEqual([]);
  });
  it('the call at a time, and the boxes of a range, are indices into the table', () => {
    const rows = intervalRows(iv, 0);
    expect(intervalAt(rows[0], 60)).toBe(1);
    expect(intervalAt(rows[0], 45)).toBe(-1);
    expect(intervalAt(rows[2], 12)).toBe(2);
    expect(intervalAt(rows[2], 25)).toBe(3);
    expect(intervalAt(rows[1], 25)).toBe(-1);
    expect(intervalBoxes(rows[2], 0, 100, 100).map((b) => b.i)).toEqual([2, 3]);
    expect(intervalBoxes(rows[0], 45, 100, 10).map((b) => b.i)).toEqual([1]);
  });

  it('steps over the calls that end in drawn columns: the boxes are those of a call-by-call walk', () => {
    // the walk intervalBoxes makes in one search per column: every call looked at in turn
    const oneByOne = (row, t0, t1, width) => {
      const out = [];
      const dt = (t1 - t0) / width;
      let lastCol = -Infinity;
      for (let k = 0; k < row.start.length && row.start[k] < t1; k++) {
        if (row.end[k] <= t0) continue;
        const x0 = (row.start[k] - t0) / dt;
        const x1 = (row.end[k] - t0) / dt;
        if (x1 - x0 < 1 && Math.floor(x0) <= lastCol) continue;
        lastCol = Math.floor(Math.max(x1 - 1, x0));
        out.push({ i: row.first + k, x0: Math.max(x0, -1), x1: Math.min(Math.max(x1, x0 + 1), width + 1) });
      }
      return out;
    };
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let trial = 0; trial < 200; trial++) {
      // calls of one depth: one after another, many far thinner than a column, some wide, gaps between
      const n = 1 + Math.floor(rnd() * 400);
      const start = new Float64Array(n);
      const end = new Float64Array(n);
      let t = rnd() * 10;
      for (let k = 0; k < n; k++) {
        t += rnd() < 0.3 ? 0 : rnd() * (rnd() < 0.1 ? 50 : 0.5);
        start[k] = t;
        t += rnd() < 0.05 ? rnd() * 80 : rnd() * 0.3;
        end[k] = t;
      }
      const row = { start, end, first: trial };
      const t0 = rnd() * t * 0.8 - 5;
      const t1 = t0 + 1 + rnd() * t;
      const width = 1 + Math.floor(rnd() * 120);
      expect(intervalBoxes(row, t0, t1, width)).toEqual(oneByOne(row, t0, t1, width));
    }
    // a million calls a column apart from none: one box a column, found in a search each
    const n = 1_000_000;
    const row = { start: Float64Array.from({ length: n }, (_, k) => k), end: Float64Array.from({ length: n }, (_, k) => k + 0.5), first: 0 };
    const boxes = intervalBoxes(row, 0, n, 1000);
    expect(boxes.length).toBe(1000);
    expect(boxes).toEqual(oneByOne(row, 0, n, 1000));
  });
});
