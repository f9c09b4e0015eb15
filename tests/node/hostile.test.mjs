// The hostile-input set (issue 16): perf record -z bombs inside and past
// mmap_len, zstd content-size lies, a callchain count lie, built from a real
// recording by tests/node/hostile/make-hostile.mjs. Each goes through the
// native CLI and the WASM CLI (node wasm/cli.mjs): exit 0, the expected
// diagnostic in `info`'s JSON, the same bytes from both, within a time and
// peak-memory limit (measured by /usr/bin/time).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHostileSet } from './hostile/make-hostile.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const WASM_CLI = path.join(ROOT, 'wasm', 'cli.mjs');
const TIME = '/usr/bin/time';
const LIMIT_SECONDS = Number(process.env.PROFSCOPE_HOSTILE_SECONDS || 120);  // generous: a shared 2-core machine
const LIMIT_KB = 2 * 1024 * 1024;  // 2 GB peak resident memory

const ready = fs.existsSync(NATIVE) && fs.existsSync(path.join(ROOT, 'build', 'wasm', 'profscope_wasm.wasm')) && fs.existsSync(TIME);
if (!ready) console.warn('hostile: SKIPPED, needs build/native/profscope, build/wasm and /usr/bin/time');

// Runs a command under /usr/bin/time: its status, stdout, seconds and peak RSS (KB).
function timed(cmd, args) {
  const r = spawnSync(TIME, ['-f', '@@time %e %M', cmd, ...args], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const m = /@@time ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: m ? Number(m[1]) : NaN, kb: m ? Number(m[2]) : NaN };
}

describe.skipIf(!ready)('hostile inputs, native and WASM', () => {
  let dir;
  let set;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-hostile-'));
    set = makeHostileSet(path.join(ROOT, 'tests', 'data'), dir);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // z_bomb_mmap_len.data (the default budget) is measured by hand: docs/PERFORMANCE.md.
  const names = ['z_bomb_mmap_len_64.data', 'z_past_mmap_len.data', 'z_content_size_small.data',
    'z_content_size_huge.data', 'callchain_count_lie.data'];
  for (const name of names) {
    it(name, () => {
      const c = set.cases.find((x) => x.name === name);
      expect(c, `${name} was built`).toBeTruthy();
      const native = timed(NATIVE, ['info', c.file, ...c.args]);
      const wasm = timed(process.execPath, [WASM_CLI, 'info', c.file, ...c.args]);
      console.log(`hostile ${name} (${c.what}): native ${native.seconds} s ${Math.round(native.kb / 1024)} MB, ` +
        `WASM ${wasm.seconds} s ${Math.round(wasm.kb / 1024)} MB`);
      for (const [who, r] of [['native', native], ['WASM', wasm]]) {
        expect(r.status, `${who} exit status (stderr: ${r.stderr.slice(0, 400)})`).toBe(0);
        expect(r.seconds, `${who} seconds`).toBeLessThan(LIMIT_SECONDS);
        expect(r.kb, `${who} peak KB`).toBeLessThan(LIMIT_KB);
      }
      const info = JSON.parse(native.stdout);
      const hit = info.diagnostics.filter((d) => d.code === c.code);
      expect(hit.length, `a ${c.code} diagnostic in ${JSON.stringify(info.diagnostics).slice(0, 600)}`).toBeGreaterThan(0);
      expect(wasm.stdout).toBe(native.stdout);
      if (c.code === 'memory_budget') {
        // Stopped at a byte offset with the budget named; what came before is there.
        expect(hit[0].message).toMatch(new RegExp(`stopped at byte offset ${hit[0].offset}: .* memory budget of ${c.args[1] || 768} MB`));
        expect(hit[0].offset).toBeGreaterThan(0);
        expect(info.samples).toBeGreaterThan(1000);
      }
      if (name === 'z_past_mmap_len.data') {
        expect(hit[0].message).toMatch(/expands past the 528384 bytes of HEADER_COMPRESSED's mmap_len/);
        // The stream is out of step after the refused container: the next five fail, reported once with a count.
        const failed = info.diagnostics.filter((d) => d.code === 'decompress_failed');
        expect(failed.length).toBe(1);
        expect(failed[0].count).toBe(5);
        expect(failed[0].last_offset).toBeGreaterThan(failed[0].offset);
      }
      if (name === 'callchain_count_lie.data') {
        // 20 000 times the same damage: one diagnostic with its count and first/last offsets.
        expect(hit.length).toBe(1);
        expect(hit[0].count).toBeGreaterThanOrEqual(20000);
        expect(hit[0].last_offset).toBeGreaterThan(hit[0].offset);
      }
    }, 300_000);
  }

  it('stacks of the budget-stopped bomb are the same natively and in WASM', () => {
    const c = set.cases.find((x) => x.name === 'z_bomb_mmap_len_64.data');
    const native = timed(NATIVE, ['stacks', c.file, ...c.args]);
    const wasm = timed(process.execPath, [WASM_CLI, 'stacks', c.file, ...c.args]);
    expect(native.status).toBe(0);
    expect(native.stdout.split('\n').length).toBeGreaterThan(1);
    expect(wasm.stdout).toBe(native.stdout);
  }, 300_000);
});
