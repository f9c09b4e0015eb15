// Unit tests of the worker's call-node helpers over depth-first call trees (made here by the
// reference aggregation, tests/reference/analysis.js, which numbers nodes as the core does).
import { describe, expect, it } from 'vitest';
import { analyze, prepare } from '../../../tests/reference/analysis.js';
import { mappings, profile, strings } from '../../../tests/reference/small-profile.js';
import { functionTotals, isUnder, layoutFlame, nodePath, searchFuncs } from './call-nodes.js';

const nodeOf = (t, ctx, path) => {
  for (let n = 1; n < t.count; n++) if (nodePath(t, n).map((f) => ctx.names[f]).join('>') === path) return n;
  return -1;
};

describe('flame layout', () => {
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

describe('isUnder', () => {
  it("is a node's place in another's subtree range (a sample's node under main>a>b; main>libc_f not)", () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    const nb = nodeOf(t, ctx, 'main>a>b');
    expect(isUnder(t, t.sampleNode[1], nb)).toBe(true);
    expect(isUnder(t, nodeOf(t, ctx, 'main>libc_f'), nb)).toBe(false);
  });
});

describe('function totals', () => {
  it('sum self per function and count a recursive function once in its total', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    const { self, total } = functionTotals(t, ctx.names.length);
    const at = (arr, name) => arr[ctx.names.indexOf(name)];
    // a: main>a (self 1, total 4) and main>a>b>a (self 1) inside it
    expect(at(self, 'a')).toBe(2);
    expect(at(total, 'a')).toBe(4);
    expect(at(total, 'main')).toBe(5);
    expect(at(total, 'b')).toBe(3);
    expect(at(self, 'libc_g')).toBe(1);
  });
  it('agree with an ancestor walk on an inverted tree', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, { invert: true });
    const walk = new Float64Array(ctx.names.length);
    for (let n = 1; n < t.count; n++) {
      let outer = true;
      for (let a = t.parent[n]; a > 0; a = t.parent[a]) if (t.func[a] === t.func[n]) outer = false;
      if (outer) walk[t.func[n]] += t.total[n];
    }
    expect(Array.from(functionTotals(t, ctx.names.length).total)).toEqual(Array.from(walk));
  });
});

describe('function search', () => {
  it('matches a substring (case-insensitive) or a /regex/', () => {
    expect(Array.from(searchFuncs(['main', 'libc_f', 'Alloc'], 'LIB'))).toEqual([0, 1, 0]);
    expect(Array.from(searchFuncs(['main', 'libc_f', 'Alloc'], '/^(main|alloc)$/'))).toEqual([1, 0, 1]);
    expect(Array.from(searchFuncs(['a'], '/[/'))).toEqual([0]); // bad regex matches nothing
  });
});
