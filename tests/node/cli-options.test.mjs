// `--option KEY=VALUE` (decoder options, Session::SetOption) in both CLIs:
//  - wasm/cli.mjs with pprof's three adjustments on (pc_minus_one,
//    drop_duplicate_leaf, strip_signal_frames) prints the same stacks as the
//    native CLI and Go pprof's folded_addrs_pprof.txt (`pprof -raw`);
//  - `--option=KEY=VALUE` is the same as `--option KEY=VALUE`;
//  - an unknown key is a diagnostic in `info`, a malformed one a usage error (2).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = process.env.PROFSCOPE_NATIVE ?? path.join(ROOT, 'build', 'native', 'profscope');
const CLI = path.join(ROOT, 'wasm', 'cli.mjs');
const GPERF = path.join(ROOT, 'tests', 'data', 'gperf');
const haveNative = fs.existsSync(NATIVE);

const cases = fs
  .readdirSync(GPERF, { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(GPERF, e.name, 'cpu.prof')))
  .map((e) => ({ name: e.name, dir: path.join(GPERF, e.name), input: path.join(GPERF, e.name, 'cpu.prof') }))
  .sort((a, b) => a.name.localeCompare(b.name));

const wasmCli = (args) => spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 1 << 30, timeout: 120_000 });
const nativeCli = (args) => spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
const sorted = (text) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .sort();

const ALL = ['--option', 'pc_minus_one=1', '--option', 'drop_duplicate_leaf=1', '--option', 'strip_signal_frames=1'];

describe('CLI --option KEY=VALUE', () => {
  it('has gperf cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(5);
  });

  describe.each(cases)('$name', ({ name, dir, input }) => {
    it.runIf(haveNative)('native parity with the three pprof options', () => {
      const args = ['stacks', input, '--addresses', ...ALL];
      const w = wasmCli(args);
      const n = nativeCli(args);
      expect(w.status).toBe(n.status);
      expect(w.stdout.equals(n.stdout), 'stdout differs').toBe(true);
    }, 120_000);

    // (The Java variant holds method ids, which Go pprof prints as 0x0.)
    it.skipIf(name === 'pprof_java_cpu')('the three pprof options match Go pprof -raw', () => {
      const w = wasmCli(['stacks', input, '--addresses', '--option=pc_minus_one=1', ...ALL.slice(2)]);
      expect(w.status).toBe(0);
      const want = fs.readFileSync(path.join(dir, 'folded_addrs_pprof.txt'), 'utf8');
      expect(sorted(w.stdout.toString('utf8'))).toEqual(sorted(want));
    }, 120_000);
  });

  it('an unknown key is a diagnostic; a malformed one a usage error', () => {
    const input = cases[0].input;
    const info = wasmCli(['info', input, '--option', 'no_such_option=1']);
    expect(info.status).toBe(0);
    expect(JSON.parse(info.stdout.toString('utf8')).diagnostics.map((d) => d.message).join('\n')).toContain(
      'no_such_option',
    );
    expect(wasmCli(['stacks', input, '--option', 'pc_minus_one']).status).toBe(2);
    expect(wasmCli(['stacks', input, '--option', '=1']).status).toBe(2);
    // stacks --weight: count|samples|time|period; anything else is a usage error
    expect(wasmCli(['stacks', input, '--weight', 'ticks']).status).toBe(2);
    expect(wasmCli(['stacks', input, '--weight', 'count']).stdout.toString('utf8')).toBe(wasmCli(['stacks', input]).stdout.toString('utf8'));
    if (haveNative) {
      expect(nativeCli(['stacks', input, '--weight', 'ticks']).status).toBe(2);
      expect(nativeCli(['stacks', input, '--weight', 'time']).stdout.equals(wasmCli(['stacks', input, '--weight', 'time']).stdout)).toBe(true);
      expect(nativeCli(['stacks', input, '--option', 'pc_minus_one']).status).toBe(2);
      expect(nativeCli(['info', input, '--option', 'no_such_option=1']).stdout.toString('utf8')).toContain('no_such_option');
    }
  }, 120_000);
});
