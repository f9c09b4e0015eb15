// Side folders of symbols in the WASM CLI (`--symbols DIR`): on the real case
// tests/data/perf_symdirs/symdir_fp (its produce.sh), `node wasm/cli.mjs` and
// build/native/profscope print the same bytes, and those are perf's:
//   script --symbols cache|debugdir|plain == script_cache.txt (perf named the
//     program from the build-id cache perf record wrote; the other two folders
//     hold the same symbols in /usr/lib/debug's layout and as a renamed file)
//   script --symbols mismatch == script_mismatch.txt (another build at the
//     recorded path: perf refuses it by build-id, so does profscope)
//   info --symbols DIR: the same JSON (diagnostics, what is missing)
//   script --symbols vmlinux (or its folder): the kernel frame lines of
//     `perf script --vmlinux` (tests/data/perf_symdirs/vmlinux_fp)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const CASE = path.join(ROOT, 'tests', 'data', 'perf_symdirs', 'symdir_fp');
const DATA = path.join(CASE, 'perf.data');
const haveNative = fs.existsSync(NATIVE);

function native(args) {
  const r = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
  return { stdout: r.stdout, stderr: String(r.stderr), status: r.status };
}

describe.runIf(haveNative)('--symbols DIR: WASM CLI = native CLI = perf', () => {
  beforeAll(async () => {
    await loadProfscope();
  }, 120_000);

  const runs = [
    ['cache', 'script_cache.txt'],
    ['debugdir', 'script_cache.txt'],
    ['plain', 'script_cache.txt'],
    ['mismatch', 'script_mismatch.txt'],
  ];
  it.each(runs)('script --symbols %s', async (folder, reference) => {
    const args = ['script', DATA, '--symbols', path.join(CASE, folder)];
    const n = native(args);
    const w = await runCli(args);
    expect(n.status, n.stderr).toBe(0);
    expect(w.status, w.stderr).toBe(0);
    const want = fs.readFileSync(path.join(CASE, reference));
    expect(n.stdout.toString('utf8')).toBe(want.toString('utf8'));
    expect(w.stdout.equals(n.stdout)).toBe(true);
    if (folder !== 'mismatch') expect(want.toString('utf8')).toContain('leaf_a+0x23 (/opt/demo/run/symdir_fp/symdir)');
  });

  it.each(['cache', 'mismatch'])('info --symbols %s', async (folder) => {
    const args = ['info', DATA, '--symbols', path.join(CASE, folder)];
    const n = native(args);
    const w = await runCli(args);
    expect(w.stdout.toString('utf8')).toBe(n.stdout.toString('utf8'));
    const info = JSON.parse(n.stdout.toString('utf8'));
    const missing = (info.missing?.mappings || []).map((m) => m.path);
    if (folder === 'cache') expect(missing).not.toContain('/opt/demo/run/symdir_fp/symdir');
    else {
      expect(missing).toContain('/opt/demo/run/symdir_fp/symdir');
      expect(info.diagnostics.map((d) => d.message).join('\n')).toContain('opt/demo/run/symdir_fp/symdir has build-id');
    }
  });

  // The kernel from a vmlinux (tests/data/perf_symdirs/vmlinux_fp): its kernel frame lines are perf's
  // (perf script --vmlinux), the file alone or in its folder; a compressed module in a folder.
  const KCASE = path.join(ROOT, 'tests', 'data', 'perf_symdirs', 'vmlinux_fp');
  const kernelLines = (b) => b.toString('utf8').split('\n').filter((l) => l.includes('([kernel.kallsyms])'));
  it.each([['vmlinux', path.join(KCASE, 'vmlinux')], ['its folder', KCASE]])('script --symbols %s', async (_, side) => {
    const args = ['script', path.join(KCASE, 'perf.data'), '--symbols', side];
    const n = native(args);
    const w = await runCli(args);
    expect(n.status, n.stderr).toBe(0);
    expect(w.stdout.equals(n.stdout)).toBe(true);
    const want = kernelLines(fs.readFileSync(path.join(KCASE, 'script_vmlinux.txt')));
    expect(want.length).toBeGreaterThan(3000);
    expect(kernelLines(n.stdout)).toEqual(want);
  });

  it('a folder without binaries, and one past the file limit, are reported the same way', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-symdirs-'));
    try {
      fs.mkdirSync(path.join(dir, 'empty', 'sub'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'empty', 'sub', 'notes.txt'), 'hello\n');
      const bin = fs.readFileSync(path.join(CASE, 'symdir'));
      fs.mkdirSync(path.join(dir, 'many'));
      for (let i = 0; i < 515; i++) fs.writeFileSync(path.join(dir, 'many', `b${100000 + i}`), bin);
      for (const folder of ['empty', 'many']) {
        const args = ['info', DATA, '--symbols', path.join(dir, folder)];
        const n = native(args);
        const w = await runCli(args);
        expect(w.stdout.toString('utf8')).toBe(n.stdout.toString('utf8'));
        const text = JSON.parse(n.stdout.toString('utf8')).diagnostics.map((d) => d.message).join('\n');
        if (folder === 'empty') expect(text).toContain('holds no ELF file, kallsyms or tarball; not used');
        else expect(text).toContain('is larger than profscope looks through');
      }
      // the capped folder still names the program (its first files are copies of it)
      const s = await runCli(['script', DATA, '--symbols', path.join(dir, 'many')]);
      expect(s.stdout.toString('utf8')).toBe(fs.readFileSync(path.join(CASE, 'script_cache.txt'), 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
