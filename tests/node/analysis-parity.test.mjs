// The core's aggregation (session.analyze: core/analysis/call_tree.cc, run by the worker) gives
// the same call trees as the JavaScript reference (tests/reference/analysis.js) on real files of
// every format, for plain, filtered (thread, CPU, event, time range), transformed, inverted
// and sandwich analyses. Trees are compared as folded text by function name; the core's trees
// are depth-first with a subtree range per node. The columns are read as the worker reads them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { decodeStrings } from '../../web/src/lib/strings.js';
import { readProfile } from '../../web/src/worker/session-columns.js';
import { analyze, prepare, sandwich } from '../reference/analysis.js';
import { deepXRay } from './hostile/make-hostile-formats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);

const CASES = [
  { name: 'perf pipe_mode', file: D('perf', 'pipe_mode', 'pipe.data'), side: [D('perf', 'pipe_mode', 'calltree')] },
  { name: 'perf quipper_i686 (11 threads, 4 CPUs, 6 events)', file: D('perf', 'quipper_i686_perf3.4', 'perf.data') },
  { name: 'perf perfparser_vector_static_gcc_zstd', file: D('perf', 'perfparser_vector_static_gcc_zstd', 'perf.data') },
  { name: 'simpleperf perf_with_callchain_record', file: D('simpleperf', 'perf_with_callchain_record', 'perf.data') },
  { name: 'xray fdr_calltree', file: D('xray', 'fdr_calltree', 'xray.log'), side: [D('xray', 'fdr_calltree', 'xray_calltree')] },
  { name: 'gperf calltree_1000hz', file: D('gperf', 'calltree_1000hz', 'cpu.prof'), side: [D('gperf', 'calltree_1000hz', 'calltree_prof')] },
].filter((c) => fs.existsSync(c.file));

function folded(tree, names) {
  const m = new Map();
  for (let n = 0; n < tree.parent.length; n++) {
    if (!tree.self[n]) continue;
    const parts = [];
    for (let x = n; x > 0; x = tree.parent[x]) parts.push(names[tree.func[x]]);
    const key = parts.reverse().join(';') || '<root>';
    m.set(key, (m.get(key) || 0) + tree.self[n]);
  }
  return [...m.entries()].map(([k, v]) => `${k} ${v}`).sort().join('\n');
}

function coreNames(s, strings) {
  return Array.from(s.analysisNameIds(), (id, i) => (id >= 0 ? strings[id] : s.analysisName(i)));
}

// Depth-first: parents first, each subtree the range [n, subtreeEnd[n]) inside its parent's.
function expectDepthFirst(t) {
  expect(t.subtreeEnd.length).toBe(t.count);
  expect(t.subtreeEnd[0]).toBe(t.count);
  const size = new Int32Array(t.count).fill(1);
  for (let n = t.count - 1; n > 0; n--) size[t.parent[n]] += size[n];
  for (let n = 1; n < t.count; n++) {
    const p = t.parent[n];
    if (!(p < n && n < t.subtreeEnd[p] && t.subtreeEnd[n] <= t.subtreeEnd[p] && t.subtreeEnd[n] === n + size[n])) {
      throw new Error(`node ${n} (parent ${p}) is not depth-first: subtree ends ${t.subtreeEnd[n]}, size ${size[n]}`);
    }
  }
}

const core = (s, o) => {
  const t = s.analyze(JSON.stringify(o));
  if (t.error) throw new Error(t.error);
  expectDepthFirst(t);
  return t;
};

describe.each(CASES)('$name', ({ file, side }) => {
  it('core call trees equal the JavaScript reference', async () => {
    const { session: s, close } = await openSession(file, { side: side || [] });
    try {
      const strings = decodeStrings(s.strings());
      const mappings = JSON.parse(s.mappingsJson());
      const profile = readProfile(s);
      const ctx = prepare(profile, strings, mappings);
      const cnames = coreNames(s, strings);
      // canonical ids agree (functions merged by name in the same order)
      const canon = s.analysisCanon();
      for (let f = 0; f < canon.length; f++) expect(cnames[canon[f]]).toBe(ctx.names[ctx.canon[f]]);
      // the library collapse-library puts each function in
      cnames.forEach((name, c) => {
        const oc = ctx.names.indexOf(name);
        if (oc >= 0) expect(s.analysisLibrary(c), name).toBe(ctx.libs[ctx.canonLib[oc]] ?? '');
      });
      const idOf = (name) => cnames.indexOf(name);
      const plain = analyze(ctx, {});
      expect(plain.samples).toBeGreaterThan(0);
      // the heaviest non-root functions, to use in transforms
      const byTotal = Array.from(plain.total.keys()).filter((n) => n > 0).sort((a, b) => plain.total[b] - plain.total[a]);
      const fA = ctx.names[plain.func[byTotal[0]]];
      const fB = ctx.names[plain.func[byTotal[Math.min(2, byTotal.length - 1)]]];
      const times = Array.from(profile.sampleTimes).filter((t) => t > 0).sort((a, b) => a - b);
      const lib = mappings.find((m) => m.path)?.path ?? '';
      const optsList = [
        {},
        { invert: true },
        { filter: { event: 0 } },
        { filter: { threads: [0] } },
        { filter: { cpus: [0, 1] } },
        times.length ? { filter: { t0: times[Math.floor(times.length / 4)], t1: times[Math.floor((3 * times.length) / 4)] } } : null,
        { transforms: [{ type: 'merge-function', func: '#A' }] },
        { transforms: [{ type: 'focus-function', func: '#B' }] },
        { transforms: [{ type: 'drop-function', func: '#B' }], invert: true },
        { transforms: [{ type: 'collapse-recursion', func: '#A' }] },
        { transforms: [{ type: 'focus-subtree', path: ['#A'] }] },
        lib ? { transforms: [{ type: 'collapse-library', lib }] } : null,
      ].filter(Boolean);
      const bind = (o, names) => {
        const id = (x) => (x === '#A' ? names.indexOf(fA) : x === '#B' ? names.indexOf(fB) : x);
        return {
          ...o,
          transforms: (o.transforms || []).map((t) => ({ ...t, ...(t.func != null ? { func: id(t.func) } : {}), ...(t.path ? { path: t.path.map(id) } : {}) })),
        };
      };
      for (const o of optsList) {
        const js = analyze(ctx, bind(o, ctx.names));
        const tree = core(s, { filter: {}, ...bind(o, cnames) });
        const names2 = coreNames(s, strings); // collapse-library may add a pseudo function
        expect(folded(tree, names2), JSON.stringify(o)).toBe(folded(js, ctx.names));
        expect(tree.samples, JSON.stringify(o)).toBe(js.samples);
        expect(Array.from(tree.sampleNode).map((n) => n >= 0)).toEqual(Array.from(js.sampleNode).map((n) => n >= 0));
      }
      // sandwich halves of the heaviest function
      const js = sandwich(ctx, {}, ctx.names.indexOf(fA));
      for (const mode of ['callers', 'callees']) {
        const tree = core(s, { sandwich: { mode, func: idOf(fA) } });
        expect(folded(tree, coreNames(s, strings)), mode).toBe(folded(js[mode], ctx.names));
      }
    } finally {
      close();
    }
  });
  it("a kept tree (analyzeKeeping: the page's) answers a node's samples and a sample's node as the tree's sample -> node says", async () => {
    const { session: s, close } = await openSession(file, { side: side || [] });
    try {
      // (the heaviest function below the root, for a transform and a callers half: views whose nodes are not
      // the plain tree's; weighted: the XRay page's default)
      const plain = core(s, { filter: {} });
      const heavy = Array.from(plain.total.keys()).filter((n) => n > 0).sort((a, b) => plain.total[b] - plain.total[a]);
      const f = plain.func[heavy[Math.min(1, heavy.length - 1)]];
      const views = [{}, { invert: true }, { filter: { threads: [0] } }, { weight: 'time' }, { transforms: [{ type: 'merge-function', func: f }] }, { sandwich: { mode: 'callers', func: f } }];
      for (const o of views) {
        const json = JSON.stringify({ filter: {}, ...o });
        const whole = core(s, { filter: {}, ...o });
        const kept = s.analyzeKeeping(json);
        expect(kept.sampleNode, 'not copied').toBeUndefined();
        for (const k of ['parent', 'func', 'depth', 'subtreeEnd', 'self', 'total']) expect(Array.from(kept[k]), k).toEqual(Array.from(whole[k]));
        expect(Array.from(s.keptSampleNode())).toEqual(Array.from(whole.sampleNode));
        const sn = whole.sampleNode;
        const step = Math.max(1, Math.floor(sn.length / 997));
        for (let k = 0; k < sn.length; k += step) expect(s.sampleNode(k)).toBe(sn[k]);
        expect([s.sampleNode(-1), s.sampleNode(sn.length)]).toEqual([-1, -1]);
        // the root, the heaviest nodes, a leaf, and nodes the tree does not have
        const byTotal = Array.from(whole.total.keys()).sort((a, b) => whole.total[b] - whole.total[a]);
        for (const n of [0, ...byTotal.slice(0, 8), whole.count - 1]) {
          const want = [];
          for (let k = 0; k < sn.length; k++) if (sn[k] >= n && sn[k] < whole.subtreeEnd[n]) want.push(k);
          expect(Array.from(s.nodeSamples(n)), `node ${n} of ${json}`).toEqual(want);
        }
        expect(Array.from(s.nodeSamples(-1))).toEqual([]);
        expect(Array.from(s.nodeSamples(whole.count))).toEqual([]);
        // another tree made without keeping leaves the kept one
        core(s, { filter: {}, invert: !o.invert });
        expect(Array.from(s.keptSampleNode())).toEqual(Array.from(whole.sampleNode));
      }
    } finally {
      close();
    }
  });
});

// Deep stacks (issue 16): every view is linear in the stacks, so a 100 000-deep recursion (an XRay log
// where each call is a sample) is inverted, sandwiched and transformed at once; an inverted tree that is
// inherently too large (a chain of 20 000 distinct functions: 200 M nodes) is its heaviest part, said so, not minutes.
describe('deep stacks in the WASM module', () => {
  const real = () => fs.readFileSync(D('xray', 'fdr_threads', 'xray.log'));
  const tmp = (name, bytes) => {
    const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-deep-')), name);
    fs.writeFileSync(f, bytes);
    return f;
  };
  it('a 100 000-deep recursion: inverted, sandwich halves and collapse recursion', async () => {
    const file = tmp('deep.log', deepXRay(real(), 100000));
    const { session: s, close } = await openSession(file, {});
    try {
      const f = coreNames(s, decodeStrings(s.strings())).indexOf('#1');
      const inv = core(s, { invert: true });
      expect(inv.count).toBe(200001); // the root, #1's chain, thread_7 below each of its calls
      expect(inv.samples).toBe(100000);
      expect(inv.depth.reduce((a, d) => Math.max(a, d), 0)).toBe(100001);
      expect(core(s, { sandwich: { mode: 'callers', func: f } }).count).toBe(3);
      expect(core(s, { sandwich: { mode: 'callees', func: f } }).count).toBe(2);
      expect(core(s, { transforms: [{ type: 'collapse-recursion', func: f }] }).count).toBe(3);
    } finally {
      close();
      fs.rmSync(path.dirname(file), { recursive: true });
    }
  }, 60_000);
  it('a chain of 20 000 distinct functions: its inverted tree (200 M nodes) is its heaviest 1 M nodes, said so', async () => {
    const file = tmp('chain.log', deepXRay(real(), 20000, { distinct: true }));
    const { session: s, close } = await openSession(file, {});
    try {
      const t = s.analyze(JSON.stringify({ invert: true, weight: 'count' }));
      expect(t.error).toBeUndefined();
      expect(t.notice).toMatch(/^the inverted tree of these stacks is too large to show whole: it shows 1\.0 M nodes, the heaviest first; \d+ of them without all their callers \(each hiding at most 1 sample\)/);
      expect(t.count).toBeLessThanOrEqual(1 << 20);
      expect(t.total[0]).toBe(20000);
      // every function of the chain is a root (its one call's self), names and not only counts
      const names = coreNames(s, decodeStrings(s.strings()));
      const roots = new Set();
      for (let n = 1; n < t.count; n++) if (t.parent[n] === 0) roots.add(names[t.func[n]]);
      expect(roots.size).toBe(20000);
      expect(roots.has('#1') && roots.has('#20000')).toBe(true);
      expect(core(s, {}).count).toBe(20002); // the plain tree is linear
    } finally {
      close();
      fs.rmSync(path.dirname(file), { recursive: true });
    }
  }, 60_000);
});
