// Unit tests of the flame chart's model: the sample under a time, boxes per depth.
import { describe, expect, it } from 'vitest';
import { analyze, prepare } from '../../../../tests/reference/analysis.js';
import { mappings, profile, strings } from '../../../../tests/reference/small-profile.js';
import { ancestorAt, laneBoxes, lastAtOrBefore, sampleAt, typicalGap } from './chart-model.js';

describe('flame chart model', () => {
  it('finds the sample covering a time, with gaps after 4 typical intervals', () => {
    const lane = { samples: Int32Array.from([0, 1, 2, 3]), times: Float64Array.from([0, 10, 20, 100]) };
    expect(lastAtOrBefore(lane.times, 15)).toBe(1);
    expect(lastAtOrBefore(lane.times, -1)).toBe(-1);
    const gap = typicalGap(lane.times);
    expect(gap).toBe(10);
    expect(sampleAt(lane, 25, gap)).toBe(2);
    expect(sampleAt(lane, 70, gap)).toBe(-1); // 20 + 4*10 = 60 < 70
    expect(sampleAt(lane, 100, gap)).toBe(3);
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

