// Unit tests of the flame chart's model: the sample under a time, boxes per depth.
import { describe, expect, it } from 'vitest';
import { analyze, prepare } from '../../../../tests/reference/analysis.js';
import { mappings, profile, strings } from '../../../../tests/reference/small-profile.js';
import { ancestorAt, boxAt, boxesByRow, callLaneInterval, firstLaneOfPid, intervalOf, laneActivity, laneBoxes, laneExtent, laneInterval, laneSamples, lastAtOrBefore, niceTicks, orderLanes, rowBoxes, sampleAt, stripCells, threadRows, typicalGap } from './chart-model.js';
import { collidingInts } from '../../lib/v8-collisions.js';

describe('flame chart model', () => {
  it('finds the first lane of a process, also among pids a crafted file chose to collide', () => {
    const threads = [{ pid: 7 }, { pid: 7 }, { pid: -1 }, {}, { pid: 9 }];
    const lanes = [{ thread: 4 }, { thread: 1 }, { thread: 0 }, { thread: 3 }, { thread: -1 }];
    const of = firstLaneOfPid(lanes, threads);
    expect([of(7), of(9), of(-1), of(undefined), of(8)]).toEqual([1, 0, undefined, undefined, undefined]);
    // threads of processes whose pids share one bucket of V8's (unseeded) hash of small integers, then a
    // marker of each (with 50 000 of them a Map of the pids themselves took 8.9 s in node; the keys
    // firstLaneOfPid uses spread them: lib/keyed-hash.test.js)
    const pids = collidingInts(5000);
    const many = pids.map((pid) => ({ pid }));
    const laneOf = firstLaneOfPid(many.map((_, i) => ({ thread: i })), many);
    let sum = 0;
    for (const pid of pids) sum += /** @type {number} */ (laneOf(pid));
    expect(sum).toBe((5000 * 4999) / 2);
  });

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


describe('exact calls (XRay): rows by depth, the worker\'s boxes', () => {
  // the session's rows (Session.flameRows): thread 0 at depths 0 and 2, thread 3 at depth 0
  const iv = { rows: { thread: Int32Array.from([0, 0, 3]), depth: Int32Array.from([0, 2, 0]), first: Int32Array.from([0, 2, 4, 5]) } };
  // the worker's answer for rows 0 and 1 (Session.flameBoxes): each row's boxes in start order
  const boxes = {
    row: Int32Array.from([0, 0, 1, 1, 1]),
    start: Float64Array.from([0, 50, 10, 20, 20.5]),
    end: Float64Array.from([40, 90, 15, 20.25, 20.75]),
    func: Int32Array.from([7, 8, 9, 9, 9]),
    record: Int32Array.from([1, 2, 3, 4, 5]),
  };
  it('a thread\'s rows by depth, a depth without calls a hole', () => {
    const rows = threadRows(iv, 0);
    expect(rows.length).toBe(3);
    expect(rows[1]).toBeUndefined();
    expect([rows[0], rows[2]]).toEqual([0, 1]);
    expect(threadRows(iv, 3)).toEqual([2]);
    expect(threadRows(iv, 1)).toEqual([]);
    expect(threadRows(iv, 7)).toEqual([]);
  });
  it('finds each row\'s boxes in the answer', () => {
    expect([...boxesByRow(boxes)]).toEqual([
      [0, [0, 2]],
      [1, [2, 5]],
    ]);
    expect(boxesByRow({ row: new Int32Array(0) }).size).toBe(0);
  });
  it('draws a row\'s boxes in the current view, a column wide at least, leaving out what is outside it', () => {
    const byRow = boxesByRow(boxes);
    // 0..100 over 100 columns: 1 a column
    expect(rowBoxes(boxes, byRow.get(0), 0, 100, 100)).toEqual([
      { k: 0, x0: 0, x1: 40 },
      { k: 1, x0: 50, x1: 90 },
    ]);
    expect(rowBoxes(boxes, byRow.get(1), 0, 100, 100)).toEqual([
      { k: 2, x0: 10, x1: 15 },
      { k: 3, x0: 20, x1: 21 },
      { k: 4, x0: 20.5, x1: 21.5 },
    ]);
    // a view a moment newer than the answer's: 45..100 at 11 columns (5 a column); the first call ends before it
    expect(rowBoxes(boxes, byRow.get(0), 45, 100, 11)).toEqual([{ k: 1, x0: 1, x1: 9 }]);
    // clipped to a column either side
    expect(rowBoxes(boxes, byRow.get(0), 20, 60, 4)).toEqual([
      { k: 0, x0: -1, x1: 2 },
      { k: 1, x0: 3, x1: 5 },
    ]);
  });
  it('finds the box under a time: the call covering it, or a thin one drawn a column wide over it', () => {
    const byRow = boxesByRow(boxes);
    expect(boxAt(boxes, byRow.get(0), 60, 1)).toBe(1);
    expect(boxAt(boxes, byRow.get(0), 45, 1)).toBe(-1);
    expect(boxAt(boxes, byRow.get(0), 95, 1)).toBe(-1);
    expect(boxAt(boxes, byRow.get(1), 12, 1)).toBe(2);
    expect(boxAt(boxes, byRow.get(1), 20.1, 1)).toBe(3);
    // past the call's end, within the column it is drawn over
    expect(boxAt(boxes, byRow.get(1), 20.4, 1)).toBe(3);
    expect(boxAt(boxes, byRow.get(1), 21.3, 1)).toBe(4);
    expect(boxAt(boxes, byRow.get(1), 21.6, 1)).toBe(-1);
    // (a row with no boxes in the answer)
    expect(boxAt(boxes, byRow.get(2), 12, 1)).toBe(-1);
  });
});

describe("a tracer's lanes (CallLane): a summary per thread, no entry per call", () => {
  const times = Float64Array.from([10, 13, 16, 20, 23]);
  const sampleLane = { thread: 0, samples: Int32Array.from([4, 0, 1, 2, 3]), times, count: 5 };
  // what the worker gives for the same calls (derive.js callLanesFrom of Session.callLanes)
  const callLane = { thread: 0, calls: true, count: 5, first: 10, last: 23, gap: typicalGap(times), gapFrom: 'gap' };
  it('its rows, extent and interval are those of its calls as a lane of samples', () => {
    expect(laneSamples(callLane)).toBe(laneSamples(sampleLane));
    expect(laneSamples(callLane)).toBe(5);
    expect(laneExtent(callLane)).toEqual(laneExtent(sampleLane));
    expect(laneExtent(callLane)).toEqual([10, 23]);
    expect(laneExtent({ thread: 1, samples: new Int32Array(0), times: new Float64Array(0) })).toBe(null);
    expect(laneExtent({ ...callLane, count: 0 })).toBe(null);
    expect(laneSamples({ thread: 1 })).toBe(0);
    for (const event of [null, {}, { interval_ns: 250000, interval_from: 'period' }])
      expect(callLaneInterval(callLane, event, 1e6)).toEqual(laneInterval(times, event, 7, 1e6));
  });
  it("a lane of one call: the file's gap (the worker's), else 1/1000 of the span, as laneInterval", () => {
    const one = Float64Array.from([500]);
    const lane = { thread: 0, calls: true, count: 1, first: 500, last: 500, gap: 7, gapFrom: 'file gap' };
    expect(callLaneInterval(lane, {}, 1e6)).toEqual(laneInterval(one, {}, 7, 1e6));
    expect(callLaneInterval({ ...lane, gap: 0 }, {}, 1e6)).toEqual(laneInterval(one, {}, 0, 1e6));
    expect(intervalOf(() => 3, null, 7, 1e6)).toEqual({ ns: 3, from: 'gap' });
  });
  it("places a collapsed lane's strip: the view asked for column by column, an older view's where its times are now", () => {
    const act = Float32Array.from([2, 0, 1, 0, 4]);
    // the view it was counted for: column c at c * width / cols, v the share of the busiest column
    expect(stripCells(act, { t0: 0, t1: 10 }, { t0: 0, t1: 10 }, 100)).toEqual([
      { x: 0, w: 20, v: 0.5 },
      { x: 40, w: 20, v: 0.25 },
      { x: 80, w: 20, v: 1 },
    ]);
    // the same as the samples' laneActivity gives in that view
    const lane = { samples: Int32Array.from([0, 1, 2, 3]), times: Float64Array.from([0, 1, 5, 9.5]) };
    expect(stripCells(laneActivity(lane, 0, 10, 5, null), { t0: 0, t1: 10 }, { t0: 0, t1: 10 }, 100).map((c) => c.x)).toEqual([0, 40, 80]);
    // panned by 2: the old columns two units (20 px) to the left; zoomed in 2x on [0, 5): twice as wide, those past it left out
    expect(stripCells(act, { t0: 0, t1: 10 }, { t0: 2, t1: 12 }, 100).map((c) => [c.x, c.w])).toEqual([[-20, 20], [20, 20], [60, 20]]);
    expect(stripCells(act, { t0: 0, t1: 10 }, { t0: 0, t1: 5 }, 100).map((c) => [c.x, c.w])).toEqual([[0, 40], [80, 40]]);
    expect(stripCells(new Float32Array(5), { t0: 0, t1: 10 }, { t0: 0, t1: 10 }, 100)).toEqual([]);
  });
});
