// The WASM module must print exactly what the native CLI prints.
// For every corpus case (tests/data/perf/<case>/{perf,pipe}.data) and each of
// `info`, `records`, `stacks --addresses`: native build/native/profscope vs the
// WASM command line run in this process (wasm/load-node.mjs runCli, the code
// behind wasm/cli.mjs), byte for byte, and the same exit status; the same for
// a perf record --threads directory, usage errors and unreadable files.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const CORPUS = path.join(ROOT, 'tests', 'data', 'perf');

const cases = fs
  .readdirSync(CORPUS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => {
    const dir = path.join(CORPUS, e.name);
    const input = ['perf.data', 'pipe.data'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    return input ? { name: e.name, input } : null;
  })
  .filter(Boolean)
  .sort((a, b) => a.name.localeCompare(b.name));

const COMMANDS = [
  { label: 'info', command: 'info', args: [] },
  { label: 'records', command: 'records', args: [] },
  { label: 'stacks --addresses', command: 'stacks', args: ['--addresses'] },
];

const haveNative = fs.existsSync(NATIVE);
if (!haveNative) {
  console.warn(`cli-parity: SKIPPED, native binary missing (${NATIVE}); run: bash scripts/build.sh native`);
}

function firstDifference(a, b) {
  const la = a.toString('utf8').split('\n');
  const lb = b.toString('utf8').split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) {
      return `line ${i + 1}:\n  native: ${JSON.stringify(la[i])}\n  wasm:   ${JSON.stringify(lb[i])}`;
    }
  }
  return `same lines, different bytes (native ${a.length} B, wasm ${b.length} B)`;
}

describe.runIf(haveNative)('native CLI and WASM print the same bytes', () => {
  beforeAll(async () => {
    await loadProfscope(); // compile the module once, outside the per-test timeouts
  }, 120_000);

  it('has corpus cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  describe.each(cases)('$name', ({ input }) => {
    it.each(COMMANDS)('$label', async ({ command, args }) => {
      const native = spawnSync(NATIVE, [command, input, ...args], {
        maxBuffer: 1 << 30,
        timeout: 120_000,
      });
      expect(native.error, String(native.error)).toBeUndefined();
      expect([0, 1], `native exit status ${native.status}: ${native.stderr}`).toContain(native.status);

      const { stdout, status } = await runCli([command, input, ...args]);
      if (!stdout.equals(native.stdout)) {
        expect.fail(`${command} output differs at ${firstDifference(native.stdout, stdout)}`);
      }
      expect(status, 'exit status (0 decoded, 1 nothing decodable)').toBe(native.status);
    }, 120_000);
  });

  // One grammar for both (core/api/cli.cc): the same status, stdout and stderr
  // for usage errors, options in both spellings, unreadable files and a
  // perf record --threads directory.
  const THREADS = path.join(ROOT, 'tests', 'data', 'perf_dir', 'threads_dir', 'perf.data');
  const NAMED = path.join(ROOT, 'tests', 'data', 'perf_dir', 'threads_named', 'perf.data');
  const ONE = cases[0]?.input;
  it.each([
    ['no arguments', []],
    ['unknown command', ['frobnicate', 'x']],
    ['no file', ['stacks']],
    ['an option of another command', ['info', 'FILE', '--addresses']],
    ['an option without its value', ['stacks', 'FILE', '--event']],
    ['a malformed --option', ['stacks', 'FILE', '--option', 'pc_minus_one']],
    ['an unknown option', ['records', 'FILE', '--no-such']],
    ['a flag given a value', ['stacks', 'FILE', '--addresses=1']],
    ['--event=NAME', ['stacks', 'FILE', '--event=cycles']],
    ['--symbols and its old name --binary', ['info', 'FILE', '--symbols', 'FILE', '--binary=FILE']],
    ['a file that cannot be opened', ['records', path.join(ROOT, 'no', 'such', 'file')]],
    ['a side file that cannot be opened', ['info', 'FILE', '--symbols', path.join(ROOT, 'no-such-binary')]],
    ['a --threads directory', ['records', THREADS]],
    ['a --threads directory with a trailing slash', ['stacks', THREADS + '/', '--addresses']],
    ["a directory's files given one by one", ['records', path.join(THREADS, 'data'), path.join(THREADS, 'data.1')]],
    // both data files hold samples of three named threads: read in turns, as perf reads them
    ['a --threads directory of named threads, perf script', ['script', NAMED, '--symbols', path.join(NAMED, '..', 'named_threads')]],
    ['a --threads directory, a small queue (queue_size)', ['stacks', NAMED, '--option', 'queue_size=16K']],
    ['export without --format', ['export', 'FILE']],
    ['export to standard output', ['export', 'FILE', '--format=folded', '-o', '-']],
    ['export with an unknown weight', ['export', 'FILE', '--format', 'speedscope', '--weight', 'bananas']],
    ['export to a file that cannot be written', ['export', 'FILE', '--format', 'folded', '-o', path.join(ROOT, 'no', 'such', 'dir', 'x')]],
    ['diff with one file', ['diff', 'FILE']],
    ['diff of a file with itself', ['diff', 'FILE', 'FILE', '--normalize']],
    ['-o for another command', ['stacks', 'FILE', '-o', 'x']],
  ])('%s', async (_, template) => {
    const args = template.map((a) => (a === 'FILE' ? ONE : a.replace('=FILE', `=${ONE}`)));
    const native = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
    const wasm = await runCli(args);
    expect(wasm.status).toBe(native.status);
    expect(wasm.stdout.equals(native.stdout), 'stdout differs').toBe(true);
    expect(wasm.stderr).toBe(native.stderr.toString('utf8'));
  }, 120_000);
});

if (!haveNative) {
  describe('native CLI and WASM print the same bytes', () => {
    it.skip(`skipped: native binary missing (${path.relative(ROOT, NATIVE)})`, () => {});
  });
}
