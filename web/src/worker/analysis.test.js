// Unit tests of the analysis aggregation: call node table, flame rows, transforms, sandwich,
// filters, search, lanes, callchain slots (run: npx vitest run web).
import { describe, expect, it } from 'vitest';
import {
  analyze,
  buildLanes,
  callchainSlot,
  frameAddressFor,
  layoutFlame,
  nodePath,
  prepare,
  samplesOf,
  sandwich,
  searchFuncs,
  transformPath,
} from './analysis.js';

// funcs 0 main, 1 a, 2 b, 3 a (same name as 1), 4 libc_f, 5 libc_g
// stacks (prefix tree): 0 main; 1 main>a; 2 main>a>b; 3 main>a>b>a(func 3); 4 main>libc_f; 5 main>libc_f>libc_g
const strings = ['main', 'a', 'b', 'libc_f', 'libc_g'];
function profile() {
  return {
    funcNames: Int32Array.from([0, 1, 2, 1, 3, 4]),
    funcMappings: Int32Array.from([0, 0, 0, 0, 1, 1]),
    frameFuncs: Int32Array.from([0, 1, 2, 3, 4, 5]),
    frameMappings: Int32Array.from([0, 0, 0, 0, 1, 1]),
    frameAddresses: Float64Array.from([0x100, 0x200, 0x300, 0x210, 0x7000, 0x7100]),
    stackFrames: Int32Array.from([0, 1, 2, 3, 4, 5]),
    stackPrefixes: Int32Array.from([-1, 0, 1, 2, 0, 4]),
    // samples: 0:main>a>b 1:main>a>b>a 2:main>a 3:main>libc_f>libc_g 4:main>a>b (thread 1) 5: empty stack
    sampleStacks: Int32Array.from([2, 3, 1, 5, 2, -1]),
    sampleThreads: Int32Array.from([0, 0, 0, 0, 1, 0]),
    sampleCpus: Int32Array.from([0, 1, 0, 1, 0, 0]),
    sampleEvents: Int32Array.from([0, 0, 0, 0, 0, 0]),
    sampleTimes: Float64Array.from([10, 20, 30, 40, 15, 50]),
    sampleWeights: Float64Array.from([1, 1, 1, 1, 1, 1]),
    sampleRecords: Int32Array.from([0, 1, 2, 3, 4, 5]),
  };
}
const mappings = [{ path: '/bin/app' }, { path: '/lib/libc.so.6' }];

function rows(tree, ctx) {
  // [path joined, total, self] per node with total > 0
  const out = [];
  for (let n = 1; n < tree.count; n++) {
    if (tree.total[n] > 0) out.push([nodePath(tree, n).map((f) => ctx.names[f]).join('>'), tree.total[n], tree.self[n]]);
  }
  return out.sort((x, y) => (x[0] < y[0] ? -1 : 1));
}

describe('analysis: call node table', () => {
  it('merges funcs by name and counts self/total per call path', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    expect(t.samples).toBe(6);
    expect(t.total[0]).toBe(6);
    expect(t.self[0]).toBe(1); // the empty stack
    expect(rows(t, ctx)).toEqual([
      ['main', 5, 0],
      ['main>a', 4, 1],
      ['main>a>b', 3, 2],
      ['main>a>b>a', 1, 1],
      ['main>libc_f', 1, 0],
      ['main>libc_f>libc_g', 1, 1],
    ]);
  });

  it('inverted tree: roots are leaf functions with their self counts as totals', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, { invert: true });
    const roots = rows(t, ctx).filter((r) => !r[0].includes('>'));
    expect(roots).toEqual([
      ['a', 2, 0],
      ['b', 2, 0],
      ['libc_g', 1, 0],
    ]);
    expect(rows(t, ctx)).toContainEqual(['b>a>main', 2, 2]);
  });

  it('filters by thread, cpu and time range', () => {
    const ctx = prepare(profile(), strings, mappings);
    expect(analyze(ctx, { filter: { threads: [1] } }).samples).toBe(1);
    expect(analyze(ctx, { filter: { cpus: [1] } }).samples).toBe(2);
    const r = analyze(ctx, { filter: { t0: 12, t1: 35 } });
    expect(r.samples).toBe(3);
    expect(Array.from(r.sampleNode).map((n) => n >= 0)).toEqual([false, true, true, false, true, false]);
  });
});

describe('analysis: flame layout', () => {
  it('is preorder and left-heavy, each child inside its parent', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    const L = layoutFlame(t, ctx.names);
    const named = Array.from(L.func).map((f, i) => [L.depth[i], i === 0 ? 'root' : ctx.names[f], L.start[i], L.total_[i], L.end[i]]);
    expect(named).toEqual([
      [0, 'root', 0, 6, 7],
      [1, 'main', 0, 5, 7],
      [2, 'a', 0, 4, 5], // heavier child first
      [3, 'b', 0, 3, 5],
      [4, 'a', 0, 1, 5],
      [2, 'libc_f', 4, 1, 7],
      [3, 'libc_g', 4, 1, 7],
    ]);
    expect(L.maxDepth).toBe(4);
    for (let i = 0; i < L.node.length; i++) expect(L.layoutOf[L.node[i]]).toBe(i);
  });
});

describe('analysis: transforms', () => {
  const ctx = prepare(profile(), strings, mappings);
  const id = (n) => ctx.names.indexOf(n);
  const P = (...ns) => ns.map(id);
  it('focus on subtree keeps the node as the new root', () => {
    expect(transformPath(P('main', 'a', 'b'), [{ type: 'focus-subtree', path: P('main', 'a') }], ctx)).toEqual(P('a', 'b'));
    expect(transformPath(P('main', 'libc_f'), [{ type: 'focus-subtree', path: P('main', 'a') }], ctx)).toBeNull();
  });
  it('focus on function starts at its first occurrence', () => {
    expect(transformPath(P('main', 'a', 'b', 'a'), [{ type: 'focus-function', func: id('b') }], ctx)).toEqual(P('b', 'a'));
  });
  it('merge removes the function, drop removes the samples', () => {
    expect(transformPath(P('main', 'a', 'b'), [{ type: 'merge-function', func: id('a') }], ctx)).toEqual(P('main', 'b'));
    expect(transformPath(P('main', 'a', 'b'), [{ type: 'drop-function', func: id('b') }], ctx)).toBeNull();
  });
  it('collapse recursion keeps the outermost call', () => {
    expect(transformPath(P('main', 'a', 'b', 'a', 'b'), [{ type: 'collapse-recursion', func: id('a') }], ctx)).toEqual(P('main', 'a', 'b'));
  });
  it('collapse library turns a run of its frames into one', () => {
    const out = transformPath(P('main', 'libc_f', 'libc_g'), [{ type: 'collapse-library', lib: '/lib/libc.so.6' }], ctx);
    expect(out.map((f) => ctx.names[f])).toEqual(['main', '[lib] /lib/libc.so.6']);
  });
  it('stack in order and change the aggregation', () => {
    const t = analyze(ctx, { transforms: [{ type: 'merge-function', func: id('a') }, { type: 'drop-function', func: id('libc_g') }] });
    expect(t.samples).toBe(5); // the libc_g sample is dropped (the empty stack stays)
    expect(rows(t, ctx)).toEqual([
      ['main', 4, 1],
      ['main>b', 3, 3],
    ]);
  });
});

describe('analysis: sandwich, samples, search', () => {
  it('sandwich of b: callers inverted from b, callees from b', () => {
    const ctx = prepare(profile(), strings, mappings);
    const b = ctx.names.indexOf('b');
    const { callers, callees } = sandwich(ctx, {}, b);
    expect(rows(callers, ctx)).toEqual([
      ['b', 3, 0],
      ['b>a', 3, 0],
      ['b>a>main', 3, 3],
    ]);
    expect(rows(callees, ctx)).toEqual([
      ['b', 3, 2],
      ['b>a', 1, 1],
    ]);
  });

  it('samplesOf lists the samples of a subtree; frameAddressFor finds the frame', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    let nb = -1;
    for (let n = 1; n < t.count; n++) if (nodePath(t, n).map((f) => ctx.names[f]).join('>') === 'main>a>b') nb = n;
    expect(Array.from(samplesOf(t, nb))).toEqual([0, 1, 4]);
    // in sample 1 (main>a>b>a) the node main>a>b is frame 2 (0x300); the inner a is 0x210
    expect(frameAddressFor(ctx, t, 1, nb, true)).toBe(0x300);
    const inner = t.sampleNode[1];
    expect(frameAddressFor(ctx, t, 1, inner, true)).toBe(0x210);
  });

  it('search: substring (case-insensitive) and /regex/', () => {
    expect(Array.from(searchFuncs(['main', 'libc_f', 'Alloc'], 'LIB'))).toEqual([0, 1, 0]);
    expect(Array.from(searchFuncs(['main', 'libc_f', 'Alloc'], '/^(main|alloc)$/'))).toEqual([1, 0, 1]);
    expect(Array.from(searchFuncs(['a'], '/[/'))).toEqual([0]); // bad regex matches nothing
  });
});

describe('analysis: lanes, markers, callchain slots', () => {
  it('lanes per thread sorted by time', () => {
    const lanes = buildLanes(profile(), 2);
    expect(lanes.map((l) => [l.thread, Array.from(l.samples)])).toEqual([
      [0, [0, 1, 2, 3, 5]],
      [1, [4]],
    ]);
  });
  it('finds the callchain entry holding an address (perf field JSON)', () => {
    const fields = [
      { name: 'ip', offset: 8, size: 8, value: '0x55743e196164' },
      {
        name: 'callchain',
        offset: 48,
        size: 32,
        value: '3 entries',
        children: [
          { name: '[0]', offset: 56, size: 8, value: '0xfffffffffffffe00 (context USER)' },
          { name: '[1]', offset: 64, size: 8, value: '0x55743e196164' },
          { name: '[2]', offset: 72, size: 8, value: '0x55743e1961ed' },
        ],
      },
    ];
    expect(callchainSlot(fields, 0x55743e1961ed)).toEqual({ name: 'callchain[2]', offset: 72, size: 8, path: '1.2' });
    expect(callchainSlot([fields[0]], 0x55743e196164)).toEqual({ name: 'ip', offset: 8, size: 8, path: '0' });
    expect(callchainSlot(fields, 0x1234)).toBeNull();
  });
});

import { ancestorAt, laneBoxes, lastAtOrBefore, sampleAt, typicalGap } from '../views/flame-chart/chart-model.js';

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

import { visibleRows } from '../views/call-tree/tree-rows.js';

describe('call tree rows', () => {
  it('lists expanded nodes in preorder, sorted by the chosen column', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    const kids = Array.from({ length: t.count }, () => []);
    for (let n = 1; n < t.count; n++) if (t.total[n] > 0) kids[t.parent[n]].push(n);
    const main = kids[0][0];
    const label = (rows) => rows.map((n) => ctx.names[t.func[n]]);
    expect(label(visibleRows(t, kids, ctx.names, new Set([0]), { key: 'total', desc: true }))).toEqual(['main']);
    const all = new Set(Array.from({ length: t.count }, (_, i) => i));
    expect(label(visibleRows(t, kids, ctx.names, all, { key: 'total', desc: true }))).toEqual(['main', 'a', 'b', 'a', 'libc_f', 'libc_g']);
    expect(label(visibleRows(t, kids, ctx.names, new Set([0, main]), { key: 'name', desc: true }))).toEqual(['main', 'libc_f', 'a']);
    expect(label(visibleRows(t, kids, ctx.names, new Set([0, main]), { key: 'self', desc: false }))).toEqual(['main', 'libc_f', 'a']);
  });
});
