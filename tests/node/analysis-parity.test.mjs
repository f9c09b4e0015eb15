// The core's aggregation (session.analyze: core/analysis/call_tree.cc, run by the worker) gives
// the same call trees as the JavaScript reference (web/src/worker/analysis.js) on real files of
// every format, for plain, filtered (thread, CPU, event, time range), transformed, inverted
// and sandwich analyses. Trees are compared as folded text by function name.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { analyze, prepare, sandwich } from '../../web/src/worker/analysis.js';

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
  const ids = s.analysisNameIds();
  const extra = JSON.parse(s.analysisExtraNamesJson());
  return Array.from(ids, (id, i) => (id >= 0 ? strings[id] : extra[i]));
}

describe.each(CASES)('$name', ({ file, side }) => {
  it('core call trees equal the JavaScript reference', async () => {
    const { session: s, close } = await openSession(file, { side: side || [] });
    try {
      const strings = JSON.parse(s.stringsJson());
      const mappings = JSON.parse(s.mappingsJson());
      const profile = {
        funcNames: s.funcNames(),
        funcMappings: s.funcMappings(),
        frameAddresses: s.frameAddresses(),
        frameFuncs: s.frameFuncs(),
        frameMappings: s.frameMappings(),
        stackFrames: s.stackFrames(),
        stackPrefixes: s.stackPrefixes(),
        sampleTimes: s.sampleTimes(),
        sampleThreads: s.sampleThreads(),
        sampleCpus: s.sampleCpus(),
        sampleEvents: s.sampleEvents(),
        sampleWeights: s.sampleWeights(),
        sampleStacks: s.sampleStacks(),
        sampleRecords: s.sampleRecords(),
        sampleCounts: s.sampleCounts(),
      };
      const ctx = prepare(profile, strings, mappings);
      const cnames = coreNames(s, strings);
      // canonical ids agree (functions merged by name in the same order)
      const canon = s.analysisCanon();
      for (let f = 0; f < canon.length; f++) expect(cnames[canon[f]]).toBe(ctx.names[ctx.canon[f]]);
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
        const core = s.analyze({ filter: {}, ...bind(o, cnames) });
        const names2 = coreNames(s, strings); // collapse-library may add a pseudo function
        expect(folded(core, names2), JSON.stringify(o)).toBe(folded(js, ctx.names));
        expect(core.samples, JSON.stringify(o)).toBe(js.samples);
        expect(Array.from(core.sampleNode).map((n) => n >= 0)).toEqual(Array.from(js.sampleNode).map((n) => n >= 0));
      }
      // sandwich halves of the heaviest function
      const js = sandwich(ctx, {}, ctx.names.indexOf(fA));
      for (const mode of ['callers', 'callees']) {
        const core = s.analyze({ sandwich: { mode, func: idOf(fA) } });
        expect(folded(core, coreNames(s, strings)), mode).toBe(folded(js[mode], ctx.names));
      }
    } finally {
      close();
    }
  });
});
