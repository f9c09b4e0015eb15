// profscope export, checked by consumers nobody here wrote:
//   - every export of every case below: the native CLI and the WASM module write the same bytes;
//   - folded = `profscope stacks`, byte for byte;
//   - pprof: Go's `go tool pprof -raw` (Debian golang-go, offline) reads it with the same sample
//     total as `profscope info` and the same function names as the folded stacks;
//   - speedscope: valid against speedscope's own file-format-schema.json (shipped in its npm
//     package), with ajv; Gecko and Chrome: valid against the JSON schemas in
//     tests/node/schemas/ (written from the formats' definitions: the Firefox Profiler's
//     src/types/gecko-profile.ts and Linux perf's gecko.py; the Trace Event Format), plus the
//     structural rules a schema cannot say (indexes in range, stacks' prefixes earlier, X events
//     nested per thread, sample totals).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope, openSession } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const DATA = path.join(ROOT, 'tests', 'data');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-export-'));
const GOHOME = path.join(TMP, 'gohome');

const CASES = [
  { name: 'perf_diff a (3 threads, perf 6.1, cpu-clock)', file: 'perf_diff/a.perf.data', side: ['perf_diff/mt_work'], timed: true },
  { name: 'perf default_event', file: 'perf/default_event/perf.data', timed: true },
  { name: 'perf pipe_mode', file: 'perf/pipe_mode/pipe.data', timed: true },
  { name: 'perf vector_static_gcc (perfparser)', file: 'perf/perfparser_vector_static_gcc/perf.data', timed: true },
  { name: 'perf + jit dump (node --perf-prof)', file: 'jitdump/perf_inject_jit/perf.data', side: ['jitdump/perf_inject_jit/jit-25830.dump'], timed: true },
  { name: 'simpleperf two event types', file: 'simpleperf/perf_with_two_event_types/perf.data', timed: true },
  { name: 'simpleperf jit symbols', file: 'simpleperf/perf_with_jit_symbol/perf.data', timed: true },
  { name: 'xray fdr_threads', file: 'xray/fdr_threads/xray.log', side: ['xray/fdr_threads/instrmap.yaml'], timed: true },
  { name: 'xray basic_threads', file: 'xray/basic_threads/xray.log', side: ['xray/basic_threads/instrmap.yaml'], timed: true },
  { name: 'gperftools calltree_1000hz', file: 'gperf/calltree_1000hz/cpu.prof', side: ['gperf/calltree_1000hz/calltree_prof'], timed: false },
  { name: 'gperftools pprof_go_crc32_cpu', file: 'gperf/pprof_go_crc32_cpu/cpu.prof', timed: false },
];
const FORMATS = ['folded', 'speedscope', 'gecko', 'pprof', 'chrome'];

const haveNative = fs.existsSync(NATIVE);
const haveGo = spawnSync('go', ['version']).status === 0;
const SPEEDSCOPE_SCHEMA = path.join(ROOT, 'node_modules', 'speedscope', 'dist', 'release', 'file-format-schema.json');

function nativeRun(args) {
  const r = spawnSync(NATIVE, args, { maxBuffer: 1 << 30, timeout: 120_000 });
  if (r.error) throw r.error;
  return r;
}

function sideArgs(c) {
  return (c.side ?? []).flatMap((s) => [s.endsWith('.yaml') ? '--instr-map' : s.includes('jit-') ? '--jitdump' : '--symbols', path.join(DATA, s)]);
}

function goPprof(file, ...args) {
  fs.mkdirSync(GOHOME, { recursive: true });
  return spawnSync('go', ['tool', 'pprof', '-symbolize=none', ...args, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 120_000,
    // offline: no module proxy, no network symbolizer, caches in a temporary home
    env: { ...process.env, HOME: GOHOME, GOCACHE: path.join(GOHOME, 'cache'), GOPATH: path.join(GOHOME, 'go'), GOPROXY: 'off', GOFLAGS: '-mod=mod', GO111MODULE: 'off', PPROF_TMPDIR: GOHOME },
  });
}

// `go tool pprof -raw`: the Samples section's first column (sample_type[0] = samples/count)
// and the function names of the Locations section.
function parseRaw(text) {
  const lines = text.split('\n');
  let section = '';
  let total = 0;
  const names = new Set();
  const types = [];
  for (const line of lines) {
    if (/^Samples:/.test(line)) { section = 'samples'; continue; }
    if (/^Locations/.test(line)) { section = 'locations'; continue; }
    if (/^Mappings/.test(line)) { section = 'mappings'; continue; }
    if (section === 'samples') {
      const m = /^\s+(\d+)\s+.*:/.exec(line);
      if (m) total += Number(m[1]);
      else if (!types.length && /\S/.test(line)) types.push(...line.trim().split(/\s+/));
    } else if (section === 'locations') {
      // "     1: 0x1234 M=1 name file:line s=0" (a location with inlined lines continues on indented lines)
      const m = /^\s+(?:\d+: 0x[0-9a-f]+(?: M=\d+)?)?\s+(.*) (\S*):(-?\d+) s=\d+$/.exec(line);
      if (m) names.add(m[1]);
    }
  }
  return { total, names, types };
}

// Function names of folded stacks; skipRoot leaves out each line's first item (simpleperf's
// stackcollapse form starts with the thread's name).
function foldedNames(folded, skipRoot = false) {
  const names = new Set();
  for (const line of folded.split('\n')) {
    if (!line) continue;
    const frames = line.slice(0, line.lastIndexOf(' ')).split(';');
    for (const f of skipRoot ? frames.slice(1) : frames) names.add(f);
  }
  return names;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const schema = (f) => JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'node', 'schemas', f), 'utf8'));
const validateGecko = ajv.compile(schema('gecko-profile.schema.json'));
const validateChrome = ajv.compile(schema('chrome-trace.schema.json'));
const validateSpeedscope = fs.existsSync(SPEEDSCOPE_SCHEMA) ? ajv.compile(JSON.parse(fs.readFileSync(SPEEDSCOPE_SCHEMA, 'utf8'))) : null;

function expectValid(validate, doc, what) {
  const ok = validate(doc);
  if (!ok) expect.fail(`${what}: ${ajv.errorsText(validate.errors?.slice(0, 5))}`);
}

describe.runIf(haveNative)('profscope export', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await loadProfscope();
  }, 120_000);
  afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

  it('knows speedscope\'s schema (the speedscope npm package is installed)', () => {
    expect(validateSpeedscope, SPEEDSCOPE_SCHEMA).not.toBeNull();
  });

  describe.each(CASES)('$name', (c) => {
    const input = path.join(DATA, c.file);
    let wasm;
    let info;
    const bytes = {};
    beforeAll(async () => {
      wasm = await openSession(input, { side: (c.side ?? []).map((s) => path.join(DATA, s)) });
      info = JSON.parse(wasm.session.infoJson());
    }, 120_000);
    afterAll(() => wasm?.close());

    it.each(FORMATS)('%s: native and WASM write the same bytes', (format) => {
      const out = path.join(TMP, `${path.basename(path.dirname(input))}.${format}`);
      const r = nativeRun(['export', input, '--format', format, '-o', out, ...sideArgs(c)]);
      const w = wasm.session.exportFile(format, '', '');
      if (!c.timed && format === 'chrome') {
        // no sample times (gperftools): a trace is refused by both, with the same reason
        expect(r.status).toBe(1);
        expect(w.error).toMatch(/no times/);
        expect(String(r.stderr)).toContain(w.error);
        return;
      }
      expect(r.status, String(r.stderr)).toBe(0);
      expect(w.error).toBe('');
      const native = fs.readFileSync(out);
      expect(native.length).toBeGreaterThan(0);
      expect(Buffer.from(w.bytes).equals(native), `${format}: ${native.length} B native vs ${w.bytes.length} B wasm`).toBe(true);
      bytes[format] = native;
    }, 120_000);

    it('folded is the text of `profscope stacks`', () => {
      const stacks = nativeRun(['stacks', input, ...sideArgs(c)]).stdout;
      expect(bytes.folded.equals(stacks)).toBe(true);
      expect(wasm.session.stacksText(false, '')).toBe(stacks.toString('utf8'));
    });

    it.runIf(haveGo)('pprof: go tool pprof -raw reads it, with the same sample total and function names', () => {
      const file = path.join(TMP, `${path.basename(path.dirname(input))}.check.pb.gz`);
      fs.writeFileSync(file, bytes.pprof);
      expect(bytes.pprof.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b])), 'gzip magic').toBe(true);
      expect(bytes.pprof[9], 'gzip header OS byte (fixed: unknown)').toBe(255);
      const r = goPprof(file, '-raw');
      expect(r.status, r.stderr).toBe(0);
      const raw = parseRaw(r.stdout);
      expect(raw.types[0]).toMatch(/^(samples|calls)\/count$/);
      expect(raw.total).toBe(info.samples);
      // function names: those of the profile's stacks (folded by name; simpleperf's
      // stackcollapse form leaves the leaf out and adds the thread name, so compare subsets there)
      const simpleperf = c.file.startsWith('simpleperf/');
      const folded = foldedNames(bytes.folded.toString('utf8'), simpleperf);
      if (!simpleperf) expect([...raw.names].sort()).toEqual([...folded].sort());
      else for (const n of folded) expect(raw.names.has(n), n).toBe(true);
      const top = goPprof(file, '-top', '-nodecount=3');
      expect(top.status, top.stderr).toBe(0);
      expect(top.stdout).toMatch(/flat\s+flat%/);
    }, 120_000);

    it('speedscope: valid against speedscope\'s schema; weights sum to the samples', () => {
      const doc = JSON.parse(bytes.speedscope.toString('utf8'));
      expectValid(validateSpeedscope, doc, 'speedscope');
      let sum = 0;
      for (const p of doc.profiles) {
        expect(p.samples.length).toBe(p.weights.length);
        for (const s of p.samples) for (const f of s) expect(f).toBeLessThan(doc.shared.frames.length);
        const w = p.weights.reduce((a, b) => a + b, 0);
        expect(p.endValue - p.startValue).toBe(w);
        sum += w;
      }
      expect(sum).toBe(info.samples);
      const names = new Set(doc.shared.frames.map((f) => f.name));
      for (const n of foldedNames(bytes.folded.toString('utf8'), c.file.startsWith('simpleperf/'))) expect(names.has(n), n).toBe(true);
    });

    it('gecko: valid against the Gecko profile schema; tables consistent; one row per sample', () => {
      const doc = JSON.parse(bytes.gecko.toString('utf8'));
      expectValid(validateGecko, doc, 'gecko');
      expect(doc.meta.version).toBe(24);
      expect(doc.meta.presymbolicated).toBe(true);
      let rows = 0;
      for (const t of doc.threads) {
        const nstr = t.stringTable.length;
        t.frameTable.data.forEach((f) => expect(f[0]).toBeLessThan(nstr));
        t.stackTable.data.forEach(([prefix, frame], i) => {
          if (prefix !== null) expect(prefix).toBeLessThan(i);
          expect(frame).toBeLessThan(t.frameTable.data.length);
        });
        let last = -Infinity;
        for (const [stack, time] of t.samples.data) {
          if (stack !== null) expect(stack).toBeLessThan(t.stackTable.data.length);
          expect(time).toBeGreaterThanOrEqual(last);
          last = time;
        }
        t.markers.data.forEach((m) => expect(m[0]).toBeLessThan(nstr));
        rows += t.samples.data.length;
      }
      expect(rows).toBe(info.samples);
    });

    it.runIf(c.timed)('chrome: valid trace events; X events nest per thread; threads named', () => {
      const doc = JSON.parse(bytes.chrome.toString('utf8'));
      expectValid(validateChrome, doc, 'chrome');
      const byThread = new Map();
      const named = new Set();
      for (const e of doc.traceEvents) {
        if (e.ph === 'M' && e.name === 'thread_name') named.add(`${e.pid}/${e.tid}`);
        if (e.ph !== 'X') continue;
        const k = `${e.pid}/${e.tid}`;
        if (!byThread.has(k)) byThread.set(k, []);
        byThread.get(k).push(e);
      }
      expect(byThread.size).toBeGreaterThan(0);
      for (const [k, list] of byThread) {
        expect(named.has(k), `thread_name for ${k}`).toBe(true);
        // events come sorted by start; each starts after its enclosing one starts and ends before
        // it ends (compared in integer ns: ts and dur have 3 decimals of us)
        const ns = (x) => Math.round(x * 1000);
        const open = [];
        for (const e of list) {
          const s = ns(e.ts);
          const end = s + ns(e.dur);
          while (open.length && open[open.length - 1].end <= s && open[open.length - 1].end > open[open.length - 1].s) open.pop();
          while (open.length && open[open.length - 1].end < s) open.pop();
          if (open.length) {
            const p = open[open.length - 1];
            expect(s).toBeGreaterThanOrEqual(p.s);
            expect(end, `${e.name} at ${e.ts} inside ${p.name}`).toBeLessThanOrEqual(p.end);
          }
          open.push({ s, end, name: e.name });
        }
      }
    });
  });

  it('weights: speedscope by period and time where the profile has them, refused (same reason) where not', () => {
    const perf = path.join(DATA, 'perf_diff/a.perf.data');
    for (const weight of ['period', 'time']) {
      const r = nativeRun(['export', perf, '--format', 'speedscope', '--weight', weight]);
      expect(r.status, String(r.stderr)).toBe(0);
      const doc = JSON.parse(r.stdout.toString('utf8'));
      expect(doc.profiles[0].unit).toBe('nanoseconds');  // cpu-clock's period is ns
      const total = doc.profiles.reduce((a, p) => a + p.endValue, 0);
      expect(total).toBe(296 * 1001001);  // 296 samples of period 1001001 (perf report -F period)
    }
    const xray = path.join(DATA, 'xray/fdr_threads/xray.log');
    const r = nativeRun(['export', xray, '--format', 'speedscope', '--weight', 'period']);
    expect(r.status).toBe(1);
    expect(String(r.stderr)).toMatch(/XRay calls have no period/);
    const t = nativeRun(['export', xray, '--format', 'speedscope', '--weight', 'time']);
    expect(t.status, String(t.stderr)).toBe(0);
    expect(JSON.parse(t.stdout.toString('utf8')).profiles[0].unit).toBe('nanoseconds');
    const bad = nativeRun(['export', perf, '--format', 'nope']);
    expect(bad.status).toBe(1);
    expect(String(bad.stderr)).toMatch(/unknown export format nope/);
  });

  it('exports carry no path of the exporting machine (the input is copied under a telltale name)', () => {
    const dir = path.join(TMP, 'SECRET_DIR_NAME');
    fs.mkdirSync(dir, { recursive: true });
    const copy = path.join(dir, 'SECRET_FILE_NAME.data');
    fs.copyFileSync(path.join(DATA, 'perf/default_event/perf.data'), copy);
    for (const format of FORMATS) {
      const r = nativeRun(['export', copy, '--format', format]);
      expect(r.status, String(r.stderr)).toBe(0);
      const text = format === 'pprof' ? zlib.gunzipSync(r.stdout).toString('latin1') : r.stdout.toString('utf8');
      expect(text.includes('SECRET'), format).toBe(false);
    }
  });
});
