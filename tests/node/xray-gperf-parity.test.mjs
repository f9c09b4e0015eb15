// XRay and gperftools through the WASM module (wasm/load-node.mjs):
//  - for every case of tests/data/xray and tests/data/gperf, `info`, `records`,
//    `stacks`, `stacks --addresses` and `events` print the same bytes as the
//    native CLI (with the side file the references used: the XRay binary or
//    instrmap.yaml);
//  - the WASM module alone matches the references: XRay stacks against
//    llvm-xray's stack_flame_count.txt (names from the ELF binary, read in
//    WASM), gperf raw stacks against folded_addrs.txt and, with
//    setOption('pc_minus_one'/'strip_signal_frames'), against Go pprof's
//    folded_addrs_pprof.txt.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileReader, loadProfscope, openSession, runCli } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = process.env.PROFSCOPE_NATIVE ?? path.join(ROOT, 'build', 'native', 'profscope');
const DATA = path.join(ROOT, 'tests', 'data');

function list(format, input) {
  const dir = path.join(DATA, format);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, input)))
    .map((e) => {
      const d = path.join(dir, e.name);
      const files = fs.readdirSync(d);
      const binary = files.find((f) => f.startsWith('xray_') && f !== 'xray.log');
      const side = binary ? [path.join(d, binary)] : files.includes('instrmap.yaml') ? [path.join(d, 'instrmap.yaml')] : [];
      return { name: `${format}/${e.name}`, dir: d, input: path.join(d, input), side: format === 'xray' ? side : [] };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const cases = [...list('xray', 'xray.log'), ...list('gperf', 'cpu.prof')];
const COMMANDS = [
  { label: 'info', command: 'info', args: [] },
  { label: 'records', command: 'records', args: [] },
  { label: 'stacks', command: 'stacks', args: [] },
  { label: 'stacks --addresses', command: 'stacks', args: ['--addresses'] },
  { label: 'stacks --weight time', command: 'stacks', args: ['--weight', 'time'] },
  { label: 'stacks --weight count', command: 'stacks', args: ['--weight', 'count'] },
  { label: 'events', command: 'events', args: [] },
];
const haveNative = fs.existsSync(NATIVE);
const sortedLines = (s) => s.split('\n').filter(Boolean).sort();

describe('XRay and gperftools in WASM', () => {
  beforeAll(async () => {
    await loadProfscope();
  }, 120_000);

  it('has the cases', () => {
    expect(cases.filter((c) => c.name.startsWith('xray/')).length).toBeGreaterThanOrEqual(9);
    expect(cases.filter((c) => c.name.startsWith('gperf/')).length).toBeGreaterThanOrEqual(5);
  });

  describe.each(cases)('$name', ({ name, dir, input, side }) => {
    let wasm;
    beforeAll(async () => {
      wasm = await openSession(input, { side });
    }, 120_000);
    afterAll(() => wasm?.close());

    it.runIf(haveNative).each(COMMANDS)('native parity: $label', async ({ command, args }) => {
      const sideArgs = side.flatMap((s) => ['--instr-map', s]);
      const native = spawnSync(NATIVE, [command, input, ...args, ...sideArgs], { maxBuffer: 1 << 30 });
      expect(native.error).toBeUndefined();
      const { stdout, status } = await runCli([command, input, ...args, ...sideArgs]);
      expect(stdout.equals(native.stdout), 'stdout differs').toBe(true);
      expect(status).toBe(native.status);
    });

    if (name.startsWith('xray/')) {
      it('stacks match llvm-xray stack -aggregation-type=count', () => {
        const ref = fs
          .readFileSync(path.join(dir, 'stack_flame_count.txt'), 'utf8')
          .split('\n')
          .filter((l) => l && !l.endsWith('; 0'))
          .map((l) => l.replace(/; (\d+)$/, ' $1'))
          .sort();
        expect(sortedLines(wasm.session.stacksText(false, ''))).toEqual(ref);
      });
      it('stacks --weight time (WASM command line) match llvm-xray stack (time, TSC ticks)', async () => {
        const ref = fs
          .readFileSync(path.join(dir, 'stack_flame.txt'), 'utf8')
          .split('\n')
          .filter((l) => l && !l.endsWith('; 0'))
          .map((l) => l.replace(/; (\d+)$/, ' $1'))
          .sort();
        const sideArgs = side.flatMap((s) => ['--instr-map', s]);
        const time = await runCli(['stacks', input, '--weight', 'time', ...sideArgs]);
        expect(time.status).toBe(0);
        expect(sortedLines(time.stdout.toString('utf8'))).toEqual(ref);
        const count = await runCli(['stacks', input, '--weight', 'count', ...sideArgs]);
        expect(count.stdout.toString('utf8')).toBe(wasm.session.stacksText(false, ''));
      });
      it('has an accounting table', () => {
        const rows = JSON.parse(wasm.session.accountJson());
        expect(rows.length).toBeGreaterThan(0);
        expect(wasm.session.intervalStarts().length).toBeGreaterThan(0);
      });
    } else {
      const raw = path.join(dir, 'folded_addrs.txt');
      it.runIf(fs.existsSync(raw))('raw stacks match folded_addrs.txt', () => {
        expect(sortedLines(wasm.session.stacksText(true, ''))).toEqual(sortedLines(fs.readFileSync(raw, 'utf8')));
      });
      it.runIf(!name.endsWith('java_cpu'))('with pprof adjustments: folded_addrs_pprof.txt', async () => {
        const mod = await loadProfscope();
        const r = fileReader(input);
        const s = new mod.Session(r.read, r.size, input);
        try {
          s.setOption('pc_minus_one', '1');
          s.setOption('strip_signal_frames', '1');
          expect(s.decode(() => {})).toBe(true);
          expect(sortedLines(s.stacksText(true, ''))).toEqual(
            sortedLines(fs.readFileSync(path.join(dir, 'folded_addrs_pprof.txt'), 'utf8')),
          );
        } finally {
          s.delete();
          r.close();
        }
      });
    }
  });
});
