// profscope diff across the other formats where frames are comparable: XRay vs XRay (the
// same program in FDR and basic mode: fdr_threads, basic_threads), gperftools vs gperftools,
// simpleperf vs perf. Columns sum to each profile's samples (`profscope info`), native = WASM.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfscope, openSession } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);

const PAIRS = [
  {
    name: 'XRay FDR vs XRay basic (same program; names from its binary)',
    a: D('xray', 'fdr_threads', 'xray.log'),
    b: D('xray', 'basic_threads', 'xray.log'),
    side: [D('xray', 'fdr_threads', 'xray_threads')],
    sideFlag: '--instr-map',
    common: ['worker(int)', 'deep(int, unsigned long)'],
  },
  {
    name: 'gperftools vs itself',
    a: D('gperf', 'calltree_1000hz', 'cpu.prof'),
    b: D('gperf', 'calltree_1000hz', 'cpu.prof'),
    side: [D('gperf', 'calltree_1000hz', 'calltree_prof')],
    sideFlag: '--symbols',
    common: ['main', 'leaf_a', 'leaf_b'],
    equal: true,
  },
  {
    name: 'simpleperf vs perf',
    a: D('simpleperf', 'perf_g_fp', 'perf.data'),
    b: D('perf', 'default_event', 'perf.data'),
    side: [],
    common: [],
  },
];

function parse(text) {
  return text.split('\n').filter(Boolean).map((l) => {
    const m = /^(.*) (\d+) (\d+)$/.exec(l);
    expect(m, l).not.toBeNull();
    return { stack: m[1], a: Number(m[2]), b: Number(m[3]) };
  });
}

describe.runIf(fs.existsSync(NATIVE))('profscope diff across formats', { timeout: 120_000 }, () => {
  it.each(PAIRS)('$name', async (c) => {
    const sideArgs = c.side.flatMap((s) => [c.sideFlag, s]);
    const r = spawnSync(NATIVE, ['diff', c.a, c.b, ...sideArgs], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(r.status, r.stderr).toBe(0);
    const lines = parse(r.stdout);
    const samples = (f) => JSON.parse(spawnSync(NATIVE, ['info', f, ...sideArgs], { encoding: 'utf8' }).stdout).samples;
    expect(lines.reduce((s, l) => s + l.a, 0)).toBe(samples(c.a));
    expect(lines.reduce((s, l) => s + l.b, 0)).toBe(samples(c.b));
    if (c.equal) for (const l of lines) expect(l.a).toBe(l.b);
    for (const name of c.common) {
      const hit = lines.filter((l) => l.stack.split(';').includes(name) && l.a > 0 && l.b > 0);
      expect(hit.length, `${name} in both columns`).toBeGreaterThan(0);
    }
    for (const l of lines) expect(l.stack).not.toMatch(/^thread_\d+(;|$)/);
    await loadProfscope();
    const wa = await openSession(c.a, { side: c.side });
    const wb = await openSession(c.b, { side: c.side });
    try {
      expect(wa.session.diffText(wb.session, '', false).text).toBe(r.stdout);
    } finally {
      wa.close();
      wb.close();
    }
  });
});
