// Unit tests of the call tree table's rows.
import { describe, expect, it } from 'vitest';
import { analyze, prepare } from '../../../../tests/reference/analysis.js';
import { mappings, profile, strings } from '../../../../tests/reference/small-profile.js';
import { visibleRows } from './tree-rows.js';

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
