// The hostile-input set beyond perf -z (issue 16): a count or size lie in each format (perf file
// sections and features, simpleperf, gperftools, jit dump, XRay, ELF side files, a perf archive
// tarball) and wide and deep inputs (100 000 threads, 50 000 mappings, a 100 000-deep XRay
// recursion), built from real recordings by tests/node/hostile/make-hostile-formats.mjs. Each goes
// through the native CLI and the WASM CLI: exit 0, the expected diagnostic in `info`'s JSON, what
// lies around the damage still decoded, the same bytes from both, within a time and memory limit.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHostileFormats } from './hostile/make-hostile-formats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.join(ROOT, 'tests', 'data');
const NATIVE = path.join(ROOT, 'build', 'native', 'profscope');
const WASM_CLI = path.join(ROOT, 'wasm', 'cli.mjs');
const TIME = '/usr/bin/time';
const LIMIT_SECONDS = Number(process.env.PROFSCOPE_HOSTILE_SECONDS || 120);  // generous: a shared 2-core machine
const LIMIT_KB = 2 * 1024 * 1024;  // 2 GB peak resident memory

const ready = fs.existsSync(NATIVE) && fs.existsSync(path.join(ROOT, 'build', 'wasm', 'profscope_wasm.wasm')) && fs.existsSync(TIME);
if (!ready) console.warn('hostile-formats: SKIPPED, needs build/native/profscope, build/wasm and /usr/bin/time');

function timed(cmd, args) {
  const r = spawnSync(TIME, ['-f', '@@time %e %M', cmd, ...args], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const m = /@@time ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: m ? Number(m[1]) : NaN, kb: m ? Number(m[2]) : NaN };
}

const info = (file, args = []) => JSON.parse(spawnSync(NATIVE, ['info', file, ...args], { maxBuffer: 1 << 30, encoding: 'utf8' }).stdout);

describe.skipIf(!ready)('hostile inputs of every format, native and WASM', () => {
  let dir;
  let cases;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-hostile-formats-'));
    cases = makeHostileFormats(DATA, dir);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const names = ['perf_attrs_size_lie.data', 'perf_data_size_lie.data', 'perf_build_id_feature_size_lie.data',
    'perf_event_desc_count_lie.data', 'perf_cmdline_count_lie.data', 'simpleperf_feature_size_lie.data',
    'gperf_depth_lie.prof', 'jit_total_size_lie.dump', 'jit_code_size_lie.dump', 'xray_extents_lie.log',
    'elf_symtab_size_lie', 'elf_strtab_size_lie', 'tar_entry_size_lie.tar.gz',
    'wide_100k_threads.data', 'wide_50k_mappings.data', 'deep_xray_100k.log',
    'tracepoint_unclosed_quote.data', 'tracepoint_brackets_deep.data', 'tracepoint_operator_chain.data'];

  it('builds every case', () => {
    expect(cases.map((c) => c.name).sort()).toEqual([...names].sort());
  });

  for (const name of names) {
    it(name, () => {
      const c = cases.find((x) => x.name === name);
      const native = timed(NATIVE, ['info', c.file, ...c.args]);
      const wasm = timed(process.execPath, [WASM_CLI, 'info', c.file, ...c.args]);
      console.log(`hostile ${name} (${c.what}): native ${native.seconds} s ${Math.round(native.kb / 1024)} MB, ` +
        `WASM ${wasm.seconds} s ${Math.round(wasm.kb / 1024)} MB`);
      for (const [who, r] of [['native', native], ['WASM', wasm]]) {
        expect(r.status, `${who} exit status (stderr: ${r.stderr.slice(0, 400)})`).toBe(0);
        expect(r.seconds, `${who} seconds`).toBeLessThan(LIMIT_SECONDS);
        expect(r.kb, `${who} peak KB`).toBeLessThan(LIMIT_KB);
      }
      expect(wasm.stdout).toBe(native.stdout);
      const got = JSON.parse(native.stdout);
      const diags = JSON.stringify(got.diagnostics).slice(0, 800);
      if (c.code) {
        const hit = got.diagnostics.filter((d) => d.code === c.code);
        expect(hit.length, `a ${c.code} diagnostic in ${diags}`).toBeGreaterThan(0);
        // the same damage is said once, not per record
        expect(hit.length, diags).toBeLessThanOrEqual(2);
      } else {
        // legal input: nothing is wrong with it
        expect(got.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal'), diags).toEqual([]);
      }
      if (c.keep === 'same-samples') expect(got.samples).toBe(info(path.join(DATA, c.intact)).samples);
      if (c.keep === 'some-samples') expect(got.samples).toBeGreaterThan(0);
      if (c.keep === 'some-records') expect(got.records).toBeGreaterThan(10);
      // what each lie says, where it says it
      if (name === 'xray_extents_lie.log') expect(got.diagnostics[0].message).toMatch(/BufferExtents declares a buffer of 1152921504606846976 bytes/);
      if (name === 'perf_data_size_lie.data') expect(got.diagnostics[0]).toMatchObject({ code: 'section_out_of_bounds', offset: 40 });
      if (name.startsWith('elf_')) {
        expect(JSON.stringify(got.diagnostics)).toMatch(/damaged ELF file \(.symtab.* \[\d+, \+1125899906842624\) lies outside the file\)/);
        // no frame is named from the lying table, and none is named "": the program's frames are
        // "[unknown]", as perf prints them for a file it has but cannot read symbols from
        const stacks = spawnSync(NATIVE, ['stacks', c.file, ...c.args], { encoding: 'utf8' }).stdout;
        expect(stacks).toMatch(/^\[unknown\](;\[unknown\])* \d+$/m);
        expect(stacks).not.toMatch(/;;|^;/m);
      }
      if (name === 'wide_100k_threads.data') expect(got.threads.length).toBeGreaterThanOrEqual(100000);
      if (name === 'deep_xray_100k.log') expect(got.samples).toBe(100000);
      if (c.script) {
        // the format is named with the byte where the library's trouble starts; perf script's text ends, the
        // same in both builds, the damaged event's payloads by field, the other events' through their print fmt
        const warn = got.diagnostics.find((d) => d.code === 'bad_feature');
        expect(warn.message).toMatch(/^TRACING_DATA: the format of kmem:kmalloc has (a quoted string that never closes|brackets nested deeper than 32|more than 1024 operators) at 0x[0-9a-f]+ /);
        expect(warn.offset).toBe(Number.parseInt(/ at 0x([0-9a-f]+) /.exec(warn.message)[1], 16));
        const ns = timed(NATIVE, ['script', c.file]);
        const ws = timed(process.execPath, [WASM_CLI, 'script', c.file]);
        for (const [who, r] of [['native', ns], ['WASM', ws]]) {
          expect(r.status, `${who} script exit status (stderr: ${r.stderr.slice(0, 400)})`).toBe(0);
          expect(r.seconds, `${who} script seconds`).toBeLessThan(LIMIT_SECONDS);
        }
        expect(ws.stdout).toBe(ns.stdout);
        expect(ns.stdout).toMatch(/ kmem:kmalloc: call_site=18446744071584599253 ptr=\d+ bytes_req=4096 bytes_alloc=4096 gfp_flags=3264 node=-1/);
        // (when the build has libtraceevent: the intact file's text shows it)
        const intact = spawnSync(NATIVE, ['script', path.join(DATA, c.intact)], { maxBuffer: 1 << 28, encoding: 'utf8' }).stdout;
        if (/ timer:hrtimer_start: hrtimer=0x/.test(intact)) expect(ns.stdout).toMatch(/ timer:hrtimer_start: hrtimer=0x/);
      }
    }, 300_000);
  }
});
