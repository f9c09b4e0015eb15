// Unit tests of the JavaScript reference aggregation (the oracle tests/node/analysis-parity holds
// the core to): call node table, filters, transforms, sandwich, depth-first order.
import { describe, expect, it } from 'vitest';
import { nodePath } from '../../web/src/worker/call-nodes.js';
import { analyze, prepare, sandwich, transformPath } from './analysis.js';
import { mappings, profile, strings } from './small-profile.js';

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

describe('analysis: sandwich', () => {
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
});

describe('analysis: depth-first order', () => {
  it('numbers each subtree as one range', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    for (let n = 1; n < t.count; n++) {
      const p = t.parent[n];
      expect(p).toBeLessThan(n);
      expect(n < t.subtreeEnd[p] && t.subtreeEnd[n] <= t.subtreeEnd[p]).toBe(true);
    }
    expect(t.subtreeEnd[0]).toBe(t.count);
    // main>a>b>a is the only node below main>a>b
    let nb = -1;
    for (let n = 1; n < t.count; n++) if (nodePath(t, n).map((f) => ctx.names[f]).join('>') === 'main>a>b') nb = n;
    expect(t.subtreeEnd[nb]).toBe(nb + 2);
  });
});
