// An allocation failure in the WASM module is a diagnostic, never an abort
// (issue 16). The build links a twin of the module whose heap cannot grow past
// 96 MB (build/wasm-build/wasm-small, CMakeLists.txt): with the memory budget
// lifted (--max-memory 100000), the hostile set's 10 GB zstd bomb runs that
// heap out. The decode must end with an out_of_memory diagnostic that keeps
// what was decoded, and the SAME module instance must then open the next file
// normally: the page's worker keeps one module for every file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, nodeCliHost } from '../../wasm/load-node.mjs';
import { makeHostileSet } from './hostile/make-hostile.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SMALL = path.join(ROOT, 'build', 'wasm-build', 'wasm-small');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const ready = fs.existsSync(path.join(SMALL, 'profscope_wasm.wasm')) && fs.existsSync(NATIVE);
if (!ready) console.warn('wasm-oom: SKIPPED, needs build/wasm-build/wasm-small (bash scripts/build.sh wasm) and build/native');

// Runs the WASM command line in this process's module; returns {code, stdout, stderr}.
function run(mod, args) {
  const chunks = { out: [], err: [] };
  const { host, close } = nodeCliHost({
    stdout: (b) => chunks.out.push(Buffer.from(b)),
    stderr: (b) => chunks.err.push(Buffer.from(b)),
  });
  try {
    const code = mod.runCli(args, host);
    return { code, stdout: Buffer.concat(chunks.out).toString('utf8'), stderr: Buffer.concat(chunks.err).toString('utf8') };
  } finally {
    close();
  }
}

describe.skipIf(!ready)('WASM allocation failure', () => {
  let dir;
  let bomb;
  let mod;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-oom-'));
    const set = makeHostileSet(path.join(ROOT, 'tests', 'data'), dir);
    bomb = set.cases.find((c) => c.name === 'z_bomb_mmap_len.data').file;
    mod = await loadProfscope({ dir: SMALL });
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('ends the decode with out_of_memory, keeps what was decoded, and the module opens the next file', () => {
    const r = run(mod, ['info', bomb, '--max-memory', '100000']);
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    const oom = info.diagnostics.filter((d) => d.code === 'out_of_memory');
    expect(oom.length, JSON.stringify(info.diagnostics).slice(0, 800)).toBe(1);
    expect(oom[0].severity).toBe('error');
    expect(oom[0].message).toMatch(/out of memory while decoding the record at byte offset \d+ \(\d+ records read\)/);
    // The offset names the COMPRESSED record of the file being expanded, not 0.
    expect(oom[0].offset).toBeGreaterThan(0);
    expect(oom[0].offset).toBeLessThan(fs.statSync(bomb).size);
    expect(oom[0].message).toContain(`offset ${oom[0].offset} `);
    expect(info.records).toBeGreaterThan(10000);
    expect(info.samples).toBeGreaterThan(1000);

    // The same instance, the next file: exactly what the native CLI prints.
    const next = path.join(ROOT, 'tests', 'data', 'perf', 'archive_mt_fp', 'perf.data');
    const args = ['stacks', next, '--symbols', path.join(path.dirname(next), 'perf.data.tar.bz2')];
    const again = run(mod, args);
    expect(again.code, again.stderr).toBe(0);
    const native = spawnSync(NATIVE, args, { encoding: 'utf8' });
    expect(again.stdout).toBe(native.stdout);
    expect(again.stdout).toMatch(/spin_b/);
  }, 300_000);
});
