// profscope diff A B on two real recordings of the same multi-threaded program
// (tests/data/perf_diff: perf record -g of mt_work, run A sorting 4 rounds, B 8; produce.sh):
// native = WASM byte for byte, the columns sum to each profile's sample total (perf script's
// count, a.samples.txt / b.samples.txt), `diff A A` has equal columns, and frames are matched
// by name or module+offset, never by address (the two runs loaded everything elsewhere).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, openSession } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const DIR = path.join(ROOT, 'tests', 'data', 'perf_diff');
const A = path.join(DIR, 'a.perf.data');
const B = path.join(DIR, 'b.perf.data');
const BIN = path.join(DIR, 'mt_work');
const perfTotal = (r) => Number(fs.readFileSync(path.join(DIR, `${r}.samples.txt`), 'utf8').trim());

function native(...args) {
  const r = spawnSync(NATIVE, args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120_000 });
  if (r.error) throw r.error;
  return r;
}

function parse(text) {
  const lines = text.split('\n').filter(Boolean).map((l) => {
    const m = /^(.*) (\d+) (\d+)$/.exec(l);
    expect(m, l).not.toBeNull();
    return { stack: m[1], a: Number(m[2]), b: Number(m[3]) };
  });
  return { lines, a: lines.reduce((s, l) => s + l.a, 0), b: lines.reduce((s, l) => s + l.b, 0) };
}

describe.runIf(fs.existsSync(NATIVE))('profscope diff', { timeout: 120_000 }, () => {
  let wa, wb;
  beforeAll(async () => {
    await loadProfscope();
    wa = await openSession(A, { side: [BIN] });
    wb = await openSession(B, { side: [BIN] });
  }, 120_000);
  afterAll(() => {
    wa?.close();
    wb?.close();
  });

  it('columns sum to each recording\'s sample total (perf script\'s count); lines sorted, root first', () => {
    const r = native('diff', A, B, '--symbols', BIN);
    expect(r.status, r.stderr).toBe(0);
    const d = parse(r.stdout);
    expect(d.a).toBe(perfTotal('a'));
    expect(d.b).toBe(perfTotal('b'));
    expect(d.a).toBe(JSON.parse(native('info', A).stdout).samples);
    const stacks = d.lines.map((l) => l.stack);
    expect(stacks).toEqual([...stacks].sort((x, y) => (Buffer.compare(Buffer.from(x), Buffer.from(y)))));
    expect(new Set(stacks).size).toBe(stacks.length);
  });

  it('matches functions by name across the two runs (symbols from the program binary)', () => {
    const d = parse(native('diff', A, B, '--symbols', BIN).stdout);
    const both = (re) => d.lines.filter((l) => re.test(l.stack) && l.a > 0 && l.b > 0);
    for (const re of [/;hash_worker;mix$/, /;hash_worker;hash_block$/, /;sum_series$/, /^cmp_u32$/]) expect(both(re).length, String(re)).toBeGreaterThan(0);
    // the sort thread did twice the rounds in B: its comparison function grew
    const cmp = d.lines.filter((l) => /(^|;)cmp_u32$/.test(l.stack)).reduce((s, l) => [s[0] + l.a, s[1] + l.b], [0, 0]);
    expect(cmp[1]).toBeGreaterThan(cmp[0]);
    // no absolute address of a user-space frame: ASLR put the program elsewhere in each run
    for (const l of d.lines) expect(l.stack, l.stack).not.toMatch(/(^|;)0x[0-9a-f]+(;|$)/);
  });

  it('without symbols, frames match by module and file offset (not the load address)', () => {
    const r = native('diff', A, B);
    expect(r.status, r.stderr).toBe(0);
    const d = parse(r.stdout);
    expect(d.a).toBe(perfTotal('a'));
    expect(d.b).toBe(perfTotal('b'));
    const matched = d.lines.filter((l) => /(^|;)mt_work\+0x[0-9a-f]+$/.test(l.stack) && l.a > 0 && l.b > 0);
    expect(matched.length).toBeGreaterThan(0);
    for (const l of d.lines) expect(l.stack).not.toContain('/tmp/profscope-mt/');  // file name, not path
  });

  it('diff A A gives equal columns; --normalize scales A to B\'s total', () => {
    const same = parse(native('diff', A, A).stdout);
    expect(same.lines.length).toBeGreaterThan(0);
    for (const l of same.lines) expect(l.a, l.stack).toBe(l.b);
    const n = parse(native('diff', A, B, '--normalize', '--symbols', BIN).stdout);
    expect(n.a).toBe(perfTotal('b'));
    expect(n.b).toBe(perfTotal('b'));
  });

  it('the WASM module prints the same bytes', () => {
    for (const normalize of [false, true]) {
      const r = native('diff', A, B, '--symbols', BIN, ...(normalize ? ['--normalize'] : []));
      const w = wa.session.diffText(wb.session, '', normalize);
      expect(w.error).toBe('');
      expect(w.text).toBe(r.stdout);
    }
    const bad = wa.session.diffText(wb.session, 'no-such-event', false);
    expect(bad.error).toMatch(/no event named no-such-event/);
    const nat = native('diff', A, B, '--event', 'no-such-event');
    expect(nat.status).toBe(1);
    expect(nat.stderr).toContain(bad.error);
  });

  it('Session.diff (the Compare tab\'s model) agrees with the folded text: sums, tree, functions by change', () => {
    for (const normalize of [false, true]) {
      const d = wa.session.diff(wb.session, '', normalize);
      expect(d.error).toBe('');
      const text = parse(wa.session.diffText(wb.session, '', normalize).text);
      expect(d.sumA).toBe(text.a);
      expect(d.sumB).toBe(text.b);
      expect(d.rawSumA).toBe(perfTotal('a'));
      expect(d.totalA[0]).toBe(text.a);
      expect(d.totalB[0]).toBe(perfTotal('b'));
      // each node's self counts are its folded line's columns
      const dec = new TextDecoder();
      const label = (f) => dec.decode(d.labels.bytes.subarray(d.labels.offsets[f], d.labels.offsets[f + 1]));
      const stackOf = (n) => {
        const out = [];
        for (; n > 0; n = d.parent[n]) out.unshift(label(d.func[n]));
        return out.join(';');
      };
      const byStack = new Map(text.lines.map((l) => [l.stack, l]));
      let lines = 0;
      for (let n = 1; n < d.parent.length; n++) {
        if (!d.selfA[n] && !d.selfB[n]) continue;
        const l = byStack.get(stackOf(n));
        expect(l, stackOf(n)).toBeDefined();
        expect([d.selfA[n], d.selfB[n]]).toEqual([l.a, l.b]);
        lines++;
      }
      expect(lines).toBe(text.lines.length);
      // functions by |self delta|, first: the sort thread's comparison function grew
      const f = d.functions;
      for (let i = 1; i < f.func.length; i++) expect(Math.abs(f.deltaSelf[i - 1])).toBeGreaterThanOrEqual(Math.abs(f.deltaSelf[i]));
      const i = Array.from(f.func).findIndex((x) => label(x) === 'cmp_u32');
      expect(i).toBeGreaterThanOrEqual(0);
      expect(f.deltaSelf[i]).toBe(f.selfB[i] - f.selfA[i]);
      if (!normalize) expect(f.selfB[i]).toBeGreaterThan(f.selfA[i]);
    }
    expect(wa.session.diff(wb.session, 'no-such-event', false).error).toMatch(/no event named no-such-event/);
  });

  it('the WASM CLI (node wasm/cli.mjs) prints the same text and exit codes', () => {
    const cli = path.join(ROOT, 'wasm', 'cli.mjs');
    const w = spawnSync(process.execPath, [cli, 'diff', A, B, '--symbols', BIN], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(w.status, w.stderr).toBe(0);
    expect(w.stdout).toBe(native('diff', A, B, '--symbols', BIN).stdout);
    const usage = spawnSync(process.execPath, [cli, 'diff', A], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(native('diff', A).status).toBe(2);
    const ex = spawnSync(process.execPath, [cli, 'export', A, '--format', 'pprof'], { maxBuffer: 1 << 28 });
    expect(ex.status).toBe(0);
    expect(Buffer.compare(ex.stdout, spawnSync(NATIVE, ['export', A, '--format', 'pprof']).stdout)).toBe(0);
  });
});
