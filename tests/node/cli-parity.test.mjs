// The WASM module must print exactly what the native CLI prints.
// For every corpus case (tests/data/perf/<case>/{perf,pipe}.data) and each of
// `info`, `records`, `stacks --addresses`: native build/native/profscope vs the
// WASM module loaded in this process (wasm/load-node.mjs, the code behind
// wasm/cli.mjs), byte for byte, and the same exit status.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, openSession, runCommand } from '../../wasm/load-node.mjs';

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
  { label: 'info', command: 'info', args: [], opts: {} },
  { label: 'records', command: 'records', args: [], opts: {} },
  { label: 'stacks --addresses', command: 'stacks', args: ['--addresses'], opts: { addresses: true } },
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
    let wasm;
    beforeAll(async () => {
      wasm = await openSession(input);
    }, 120_000);
    afterAll(() => wasm?.close());

    it.each(COMMANDS)('$label', ({ command, args, opts }) => {
      const native = spawnSync(NATIVE, [command, input, ...args], {
        maxBuffer: 1 << 30,
        timeout: 120_000,
      });
      expect(native.error, String(native.error)).toBeUndefined();
      expect([0, 1], `native exit status ${native.status}: ${native.stderr}`).toContain(native.status);

      const { stdout, status } = runCommand(wasm.session, wasm.ok, command, opts);
      const ours = Buffer.from(stdout, 'utf8');
      if (!ours.equals(native.stdout)) {
        expect.fail(`${command} output differs at ${firstDifference(native.stdout, ours)}`);
      }
      expect(status, 'exit status (0 decoded, 1 nothing decodable)').toBe(native.status);
    }, 120_000);
  });
});

if (!haveNative) {
  describe('native CLI and WASM print the same bytes', () => {
    it.skip(`skipped: native binary missing (${path.relative(ROOT, NATIVE)})`, () => {});
  });
}
