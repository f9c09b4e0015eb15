// jitdump through the WASM module (wasm/load-node.mjs):
//  - for every case of tests/data/jitdump, `info` and `records` of the dump
//    print the same bytes as the native CLI, and the perf.data + jit dump join
//    (`stacks`, `stacks --addresses`, `info` with --jitdump) too;
//  - the WASM module alone: record counts against jitdump_ref.txt's summary,
//    the timeline of code loads, and the JIT names perf inject --jit gave
//    (jit_folded_sym.txt) in the joined stacks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, openSession, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = process.env.PROFSCOPE_NATIVE ?? path.join(ROOT, 'build', 'native', 'profscope');
const DATA = path.join(ROOT, 'tests', 'data', 'jitdump');

const cases = fs.existsSync(DATA)
  ? fs
      .readdirSync(DATA, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => {
        const dir = path.join(DATA, e.name);
        const dump = fs.readdirSync(dir).find((f) => /^jit-.*\.dump$/.test(f));
        return dump ? { name: e.name, dir, dump: path.join(dir, dump) } : null;
      })
      .filter(Boolean)
      .sort((a, b) => a.name.localeCompare(b.name))
  : [];

function readRef(dir) {
  const p = path.join(dir, 'jitdump_ref.txt');
  if (fs.existsSync(p)) return fs.readFileSync(p, 'utf8');
  return zlib.gunzipSync(fs.readFileSync(p + '.gz')).toString('utf8');
}

const haveNative = fs.existsSync(NATIVE);
if (!haveNative) console.warn(`jitdump-parity: native comparisons SKIPPED, ${NATIVE} missing`);

function native(args) {
  const r = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
  expect(r.error, String(r.error)).toBeUndefined();
  return r;
}

describe('jitdump in WASM', () => {
  beforeAll(async () => {
    await loadProfscope();
  }, 120_000);

  it('has the corpus cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(6);
  });

  describe.each(cases)('$name', ({ dir, dump }) => {
    let wasm;
    beforeAll(async () => {
      wasm = await openSession(dump);
    }, 120_000);
    afterAll(() => wasm?.close());

    it('counts match jitdump_ref.txt', () => {
      const ref = readRef(dir);
      const m = /# summary: records=(\d+)/.exec(ref);
      const info = JSON.parse(wasm.session.infoJson());
      expect(info.format).toBe('jitdump');
      expect(info.records).toBe(Number(m[1]));
      for (const [, type, n] of ref.matchAll(/^# {3}(\S+) (\d+)$/gm)) expect(info.record_counts[type]).toBe(Number(n));
      const loads = JSON.parse(wasm.session.timelineJson()).filter((e) => e.kind === 'load');
      expect(loads.length).toBe(info.record_counts.CODE_LOAD);
    });

    it.runIf(haveNative).each(['info', 'records'])('%s is byte-identical to the native CLI', async (command) => {
      const n = native([command, dump]);
      const { stdout, status } = await runCli([command, dump]);
      expect(stdout.equals(n.stdout), 'stdout differs').toBe(true);
      expect(status).toBe(n.status);
    });
  });

  describe('perf.data + jit-25830.dump', () => {
    const dir = path.join(DATA, 'perf_inject_jit');
    const perf = path.join(dir, 'perf.data');
    const dump = path.join(dir, 'jit-25830.dump');
    let wasm;
    beforeAll(async () => {
      wasm = await openSession(perf, { side: [dump] });
    }, 120_000);
    afterAll(() => wasm?.close());

    it('names JIT frames like perf inject --jit', () => {
      const names = new Set(
        [...readRef(dir).matchAll(/ CODE_LOAD .* name='(.*)' code_crc32/g)].map((m) => m[1]),
      );
      const count = (text) => {
        const out = new Map();
        for (const line of text.split('\n')) {
          const sp = line.lastIndexOf(' ');
          if (sp < 0) continue;
          const n = Number(line.slice(sp + 1));
          for (const f of line.slice(0, sp).split(';')) if (names.has(f)) out.set(f, (out.get(f) ?? 0) + n);
        }
        return Object.fromEntries([...out].sort());
      };
      const ours = count(wasm.session.stacksText(false, ''));
      const perfs = count(fs.readFileSync(path.join(dir, 'jit_folded_sym.txt'), 'utf8'));
      expect(Object.keys(ours).length).toBe(66);
      expect(ours).toEqual(perfs);
    });

    it.runIf(haveNative).each([
      ['stacks', []],
      ['stacks', ['--addresses']],
      ['info', []],
    ])('%s %j is byte-identical to the native CLI', async (command, args) => {
      const n = native([command, perf, ...args, '--jitdump', dump]);
      const { stdout, status } = await runCli([command, perf, ...args, '--jitdump', dump]);
      expect(stdout.equals(n.stdout), 'stdout differs').toBe(true);
      expect(status).toBe(n.status);
    });
  });
});
