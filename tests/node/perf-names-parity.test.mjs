// perf's names in the WASM CLI: on the perf archive cases (issue 13), given
// only what a person has — the case's perf.data, the tarball `perf archive`
// made, this machine's libc.so.6 and ld.so (stripped: their symbols are in
// libc6-dbg's /usr/lib/debug/.build-id/xx/yyyy.debug, which the command line
// finds itself, as perf does) — `node wasm/cli.mjs` and build/native/profscope
// must print perf's own outputs and the same bytes:
//   script            == script_default.txt (perf script's default output)
//   stacks            == folded_sym.txt
//   stacks --addresses == folded_addrs.txt
// tracepoint_sched_g's script prints payloads through libtraceevent, in WASM
// too (scripts/wasm-deps/traceevent.sh).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const CORPUS = path.join(ROOT, 'tests', 'data', 'perf');
const LIBC = '/lib/x86_64-linux-gnu/libc.so.6';
const LDSO = '/lib64/ld-linux-x86-64.so.2';
const LIBC_DEBUG = '/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug';

// The machine the cases were recorded on (Debian 12's libc6 2.36 + libc6-dbg).
const haveSystem = [LIBC, LDSO, LIBC_DEBUG].every((f) => fs.existsSync(f));
const haveNative = fs.existsSync(NATIVE);

const CASES = ['archive_mt_fp', 'archive_kernel_fp', 'tracepoint_sched_g', 'archive_dwarf_lib', 'archive_stripped_fp'];
const tarball = (name) =>
  path.join(CORPUS, name === 'tracepoint_sched_g' ? 'archive_kernel_fp' : name, 'perf.data.tar.bz2');
const sideArgs = (name) => ['--symbols', tarball(name), '--symbols', LIBC, '--symbols', LDSO];
const read = (name, file) => fs.readFileSync(path.join(CORPUS, name, file));

function native(args) {
  const r = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
  return { stdout: r.stdout, stderr: String(r.stderr), status: r.status };
}

// The first line where two texts differ, for a readable failure.
function firstDifference(want, got) {
  const a = want.toString('utf8').split('\n');
  const b = got.toString('utf8').split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (a[i] !== b[i]) return `line ${i + 1}\n perf: ${a[i]}\n ours: ${b[i]}`;
  return '';
}

describe.runIf(haveNative && haveSystem)('perf names: WASM CLI = native CLI = perf (archive cases)', () => {
  let mod;
  beforeAll(async () => {
    mod = await loadProfscope();
  }, 120_000);

  const runs = [];
  for (const name of CASES) {
    const data = path.join(CORPUS, name, 'perf.data');
    runs.push([name, 'stacks', ['stacks', data, ...sideArgs(name)], 'folded_sym.txt']);
    runs.push([name, 'stacks --addresses', ['stacks', data, '--addresses', ...sideArgs(name)], 'folded_addrs.txt']);
    runs.push([name, 'script', ['script', data, ...sideArgs(name)], 'script_default.txt']);
  }
  // Tracepoint payloads with kernel addresses (%pS, %ps), pointers (%p, NULL
  // too) and %Lu: named from the archive's kallsyms, printed as glibc prints
  // them natively (the wasm32 build of libtraceevent must agree).
  const kt = path.join(CORPUS, 'tracepoint_kmem_timer');
  runs.push([
    'tracepoint_kmem_timer',
    'script',
    ['script', path.join(kt, 'perf.data'), '--symbols', path.join(kt, 'perf.data.tar.bz2'), '--symbols', path.join(kt, 'ksys')],
    'script_default.txt',
  ]);

  it.each(runs)('%s: %s', async (name, _, args, reference) => {
    const n = native(args);
    expect(n.status, n.stderr).toBe(0);
    const w = await runCli(args);
    expect(w.status, w.stderr).toBe(0);
    const want = read(name, reference);
    // Natively every case equals perf byte for byte.
    expect(firstDifference(want, n.stdout)).toBe('');
    expect(n.stdout.equals(want)).toBe(true);
    // setup builds libtraceevent for WASM (Debian's source package, or the
    // kernel tree's copy Debian's perf links): tracepoint payloads included.
    expect(mod.traceEventAvailable()).toBe(true);
    expect(firstDifference(want, w.stdout)).toBe('');
    expect(w.stdout.equals(n.stdout), 'WASM stdout differs from native').toBe(true);
  }, 120_000);

  it('archive_mt_fp: libc frames are named from the debug file the command line found', async () => {
    const args = ['stacks', path.join(CORPUS, 'archive_mt_fp', 'perf.data'), ...sideArgs('archive_mt_fp')];
    const w = await runCli(args);
    const text = w.stdout.toString('utf8');
    expect(text).toContain('start_thread;worker_b;work_b;spin_b');
    expect(text).not.toContain('[unknown]');
    const info = await runCli(['info', path.join(CORPUS, 'archive_mt_fp', 'perf.data'), ...sideArgs('archive_mt_fp')]);
    const diags = JSON.parse(info.stdout.toString('utf8')).diagnostics;
    expect(diags.map((d) => d.message)).toContain(
      `debug file of ${LIBC} found at ${LIBC_DEBUG} (perf's build-id place)`,
    );
    const n = native(['info', path.join(CORPUS, 'archive_mt_fp', 'perf.data'), ...sideArgs('archive_mt_fp')]);
    expect(info.stdout.equals(n.stdout)).toBe(true);
  }, 120_000);

  it('the WASM CLI knows every command the native one does', async () => {
    const usage = native([]).stderr;
    const commands = [...usage.matchAll(/profscope (\w+) /g)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(['info', 'records', 'stacks', 'events', 'export', 'diff', 'script']));
    const w = await runCli([]);
    expect(w.stderr).toBe(usage);
    const data = path.join(CORPUS, 'archive_mt_fp', 'perf.data');
    for (const c of commands) {
      const args = c === 'diff' ? [c, data, data] : c === 'export' ? [c, data, '--format', 'folded'] : [c, data];
      const n = native(args);
      const x = await runCli(args);
      expect([c, x.status]).toEqual([c, n.status]);
      expect(x.stdout.equals(n.stdout), `${c}: stdout differs`).toBe(true);
    }
  }, 240_000);
});
