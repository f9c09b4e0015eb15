// JIT frames named from a perf map (/tmp/perf-PID.map, node --perf-basic-prof) in the WASM
// CLI: tests/data/jitdump/perf_map_node with the map file, node, libc, ld.so and libstdc++
// (the files perf used). `stacks`, `stacks --addresses` and `script` print the same bytes
// natively and in WASM; every JS frame line of perf script's output is ours too.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const DIR = path.join(ROOT, 'tests', 'data', 'jitdump', 'perf_map_node');
const SYSTEM = ['/usr/bin/node', '/lib/x86_64-linux-gnu/libc.so.6', '/lib64/ld-linux-x86-64.so.2',
  '/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30'];
const MAP = fs.existsSync(DIR) ? fs.readdirSync(DIR).find((f) => /^perf-\d+\.map$/.test(f)) : undefined;
const ready = fs.existsSync(NATIVE) && !!MAP && SYSTEM.every((f) => fs.existsSync(f));

describe.runIf(ready)('perf map: WASM CLI = native CLI, JS frames as perf names them', () => {
  beforeAll(async () => {
    await loadProfscope();
  }, 120_000);
  const data = path.join(DIR, 'perf.data');
  const side = [...SYSTEM, path.join(DIR, /** @type {string} */ (MAP))].flatMap((f) => ['--symbols', f]);
  for (const args of [['stacks'], ['stacks', '--addresses'], ['script']]) {
    it(args.join(' '), async () => {
      const all = [args[0], data, ...args.slice(1), ...side];
      const n = spawnSync(NATIVE, all, { maxBuffer: 1 << 30, timeout: 120_000 });
      expect(n.status, String(n.stderr)).toBe(0);
      const w = await runCli(all);
      expect(w.status, w.stderr).toBe(0);
      expect(Buffer.from(w.stdout).equals(n.stdout)).toBe(true);
      if (args[0] === 'script') {
        const want = fs.readFileSync(path.join(DIR, 'script_default.txt'), 'utf8').split('\n');
        const got = n.stdout.toString('utf8').split('\n');
        expect(got.length).toBe(want.length);
        let js = 0;
        for (let i = 0; i < want.length; i++) {
          if (!want[i].includes('(/tmp/perf-')) continue;
          js++;
          expect(got[i], `line ${i + 1}`).toBe(want[i]);
        }
        expect(js).toBeGreaterThan(1000);
      }
      if (args.length === 2 && args[1] === '--addresses')
        expect(n.stdout.toString('utf8')).toBe(fs.readFileSync(path.join(DIR, 'folded_addrs.txt'), 'utf8'));
    }, 300_000);
  }
});
