// --call-graph dwarf unwinding (core/format/perf/perf_unwind) prints the same
// bytes natively and in WASM: for every dwarf case of tests/data/perf, with
// the case's program and this machine's Debian 12 libc6/libstdc++ binaries as
// --symbols (perf's folded_addrs.txt is checked natively by
// tests/corpus/perf_unwind_corpus_test.cc), `stacks --addresses`, `stacks`
// and `info` (its diagnostics say which binaries are missing) must be equal,
// as must those without any binary. With libc6-dbg's debug files of libc and
// ld.so too, the stacks carry perf's inlined frames (perf_inlines), read from
// the DWARF of those files and of the case's program: `stacks` and `script`
// must still be byte-identical, and name the inlined functions.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const CORPUS = path.join(ROOT, 'tests', 'data', 'perf');
const SYSTEM = [
  '/lib/x86_64-linux-gnu/libc.so.6',
  '/lib64/ld-linux-x86-64.so.2',
  '/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30',
  '/lib/x86_64-linux-gnu/libm.so.6',
].filter((f) => fs.existsSync(f));
// libc6-dbg's separate debug files of the system binaries (by build-id).
const DEBUG = SYSTEM.map((f) => {
  const id = /Build ID: ([0-9a-f]+)/.exec(spawnSync('readelf', ['-n', f]).stdout?.toString() ?? '')?.[1];
  return id ? `/usr/lib/debug/.build-id/${id.slice(0, 2)}/${id.slice(2)}.debug` : '';
}).filter((f) => f && fs.existsSync(f));

const isElf = (f) => {
  try {
    const b = fs.readFileSync(f);
    return b.length > 4 && b[0] === 0x7f && b.toString('latin1', 1, 4) === 'ELF';
  } catch {
    return false;
  }
};

const cases = fs
  .readdirSync(CORPUS, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name.startsWith('dwarf_'))
  .map((e) => {
    const dir = path.join(CORPUS, e.name);
    const input = ['perf.data', 'pipe.data'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    const own = fs.readdirSync(dir).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile() && isElf(f));
    return input ? { name: e.name, input, binaries: [...own, ...SYSTEM, ...DEBUG] } : null;
  })
  .filter(Boolean);

const haveNative = fs.existsSync(NATIVE);

describe.runIf(haveNative)('dwarf unwinding: native CLI and WASM print the same bytes', () => {
  beforeAll(async () => {
    await loadProfscope();
  }, 120_000);

  it('has the dwarf cases', () => {
    expect(cases.map((c) => c.name)).toEqual(expect.arrayContaining(['dwarf_static_nofp', 'dwarf_mt_nofp_pipe']));
  });

  const runs = [];
  for (const c of cases) {
    const sym = c.binaries.flatMap((b) => ['--symbols', b]);
    runs.push([`${c.name}: stacks --addresses with binaries`, ['stacks', c.input, '--addresses', ...sym]]);
    runs.push([`${c.name}: stacks with binaries`, ['stacks', c.input, ...sym]]);
    runs.push([`${c.name}: info with the program alone`, ['info', c.input, '--symbols', c.binaries[0]]]);
    runs.push([`${c.name}: info without binaries`, ['info', c.input]]);
    runs.push([`${c.name}: script with binaries`, ['script', c.input, ...sym]]);
  }
  it.each(runs)('%s', async (_, args) => {
    const native = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
    expect(native.status, String(native.stderr)).toBe(0);
    const wasm = await runCli(args);
    expect(wasm.status).toBe(native.status);
    expect(wasm.stdout.equals(native.stdout), 'stdout differs').toBe(true);
    if (args[0] === 'stacks' && args.length > 3) expect(native.stdout.length).toBeGreaterThan(0);
  }, 120_000);

  it('names perf\'s inlined frames in both builds (dwarf_cpp_nofp)', async () => {
    const c = cases.find((x) => x.name === 'dwarf_cpp_nofp');
    expect(c).toBeTruthy();
    expect(DEBUG.length).toBeGreaterThanOrEqual(2);
    const args = ['stacks', c.input, ...c.binaries.flatMap((b) => ['--symbols', b])];
    const text = (await runCli(args)).stdout.toString();
    // perf: "..._start;__libc_start_main_impl;__libc_start_call_main;main;shapes;std::make_unique<Square, double>;operator new;__GI___libc_malloc 2"
    expect(text).toContain(';main;shapes;std::make_unique<Square, double>;operator new;__GI___libc_malloc 2\n');
    expect(text).toContain('_dl_start;_dl_start_final;_dl_sysdep_start;dl_main');
    const script = (await runCli(['script', c.input, ...c.binaries.flatMap((b) => ['--symbols', b])])).stdout.toString();
    expect(script).toMatch(/ 1bccb _dl_start_final\+0x[0-9a-f]+ \(inlined\)\n/);
  }, 120_000);

  // node --perf-prof --perf-prof-unwinding-info: unwound through the JIT code
  // with the dump's UNWINDING_INFO tables, as perf inject --jit + perf script.
  describe('JIT frames (tests/data/jitdump/perf_inject_jit_dwarf)', () => {
    const dir = path.join(ROOT, 'tests', 'data', 'jitdump', 'perf_inject_jit_dwarf');
    const dump = path.join(dir, 'jit-12629.dump');
    const sym = ['/usr/bin/node', ...SYSTEM, ...DEBUG].flatMap((b) => ['--symbols', b]);
    it.each([
      ['perf.data', ['stacks', '--addresses']],
      ['perf.data', ['stacks']],
      ['perf.data', ['info']],
      ['perf.jit.data', ['stacks']],
      ['perf.jit.data', ['script']],
    ])('%s %j is byte-identical to the native CLI', async (file, [command, ...rest]) => {
      const args = [command, path.join(dir, file), ...rest, '--jitdump', dump, ...sym];
      const native = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
      expect(native.status, String(native.stderr)).toBe(0);
      const wasm = await runCli(args);
      expect(wasm.status).toBe(native.status);
      expect(wasm.stdout.equals(native.stdout), 'stdout differs').toBe(true);
    }, 120_000);

    it('names the JS frames under the interpreter\'s, as perf does', async () => {
      const text = (await runCli(['stacks', path.join(dir, 'perf.data'), '--jitdump', dump, ...sym])).stdout.toString();
      // perf: "...;v8::internal::(anonymous namespace)::Invoke;Builtin:JSEntry;Builtin:JSEntryTrampoline;...;JS:*fib /opt/demo/run/perf_inject_jit_dwarf/jswork.js:3:13;..."
      expect(text).toContain(';v8::internal::(anonymous namespace)::Invoke;Builtin:JSEntry;Builtin:JSEntryTrampoline;Builtin:InterpreterEntryTrampoline;');
      expect(text).toContain(';Builtin:InterpreterEntryTrampoline;JS:*fib /opt/demo/run/perf_inject_jit_dwarf/jswork.js:3:13;JS:*fib ');
      const roots = text.split('\n').filter((l) => l.startsWith('JS:'));
      expect(roots).toEqual([]);
    }, 120_000);
  });
});
