// The WASM module's decode in steps (Session.decodeStart / decodeResume / decodeStop), as the page's
// worker runs it (it reads the file ahead and hears Cancel between steps): pausing between records
// and resuming gives what decode() gives, and a stopped decode keeps, names and reports what it read.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileReader, loadProfscope } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PERF = path.join(ROOT, 'tests', 'data', 'perf');

/** @type {any} */
let mod;
beforeAll(async () => {
  mod = await loadProfscope();
});

function outputs(s) {
  return {
    records: s.recordsText(),
    stacks: s.stacksText(false, ''),
    addresses: s.stacksText(true, ''),
    info: s.infoJson(),
    diagnostics: s.diagnosticsJson(),
  };
}

function open(file, side = []) {
  const readers = [fileReader(file)];
  const s = new mod.Session(readers[0].read, readers[0].size, path.basename(file));
  for (const f of side) {
    const r = fileReader(f);
    readers.push(r);
    s.addSideFile(r.read, r.size, path.basename(f));
  }
  return {
    s,
    size: readers[0].size,
    close() {
      s.delete();
      for (const r of readers) r.close();
    },
  };
}

describe('decode in steps (WASM)', () => {
  const cases = ['dwarf_mt_nofp_pipe', 'perfparser_vector_static_gcc_zstd', 'archive_mt_fp', 'quipper_piped_corrupted_zero_size_sample_perf3.2', 'truncated'];
  for (const name of cases) {
    it(`${name}: pausing at every record and resuming decodes the same as decode()`, () => {
      const dir = path.join(PERF, name);
      const input = ['perf.data', 'pipe.data'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
      const whole = open(input);
      const ok = whole.s.decode(() => {});
      const expected = outputs(whole.s);
      whole.close();

      const stepped = open(input);
      let asked = 0;
      let pauses = 0;
      const done = [];
      let paused = stepped.s.decodeStart((d) => done.push(d), () => (++asked, true), 1);
      while (paused) {
        pauses++;
        paused = stepped.s.decodeResume();
      }
      expect(pauses).toBe(asked);
      expect(pauses).toBeGreaterThan(2);
      expect(done.at(-1)).toBe(stepped.size);
      expect(stepped.s.decodeOk()).toBe(ok);
      expect(outputs(stepped.s)).toEqual(expected);
      stepped.close();
    });
  }

  it('an XRay log pauses and resumes to what decode() gives, with its function map naming the calls', () => {
    const dir = path.join(ROOT, 'tests', 'data', 'xray', 'fdr_threads');
    const input = path.join(dir, 'xray.log');
    const side = [path.join(dir, 'xray_threads')];
    const whole = open(input, side);
    whole.s.decode(() => {});
    const expected = outputs(whole.s);
    whole.close();
    const stepped = open(input, side);
    let pauses = 0;
    let paused = stepped.s.decodeStart(null, () => true, 1);
    while (paused) {
      pauses++;
      paused = stepped.s.decodeResume();
    }
    expect(pauses).toBeGreaterThan(2);
    expect(outputs(stepped.s)).toEqual(expected);
    expect(expected.stacks).toContain('worker(int)');
    stepped.close();
  });

  it('a perf --threads directory pauses in its data files too (pausedFile) and decodes the same', () => {
    const dir = path.join(ROOT, 'tests', 'data', 'perf_dir', 'threads_dir', 'perf.data');
    const make = () => {
      const o = open(path.join(dir, 'data'));
      const rs = ['data.0', 'data.1'].map((n) => fileReader(path.join(dir, n)));
      rs.forEach((r, i) => o.s.addDataFile(r.read, r.size, `data.${i}`));
      return { s: o.s, close: () => (o.close(), rs.forEach((r) => r.close())) };
    };
    const whole = make();
    whole.s.decode(() => {});
    const expected = outputs(whole.s);
    whole.close();
    const stepped = make();
    const files = new Set();
    let paused = stepped.s.decodeStart(null, (_off, file) => (files.add(file), true), 1);
    let inData = 0;
    while (paused) {
      if (stepped.s.pausedFile() === 1) inData++;
      paused = stepped.s.decodeResume();
    }
    expect(files.has(1)).toBe(true);
    expect(inData).toBeGreaterThan(2);
    expect(outputs(stepped.s)).toEqual(expected);
    stepped.close();
  });

  it('a stopped decode keeps what it read, names it from the side files and says where it stopped', () => {
    const dir = path.join(PERF, 'archive_mt_fp');
    const input = path.join(dir, 'perf.data');
    const tar = path.join(dir, 'perf.data.tar.bz2');
    const whole = open(input, [tar]);
    whole.s.decode(() => {});
    const wholeStacks = whole.s.stacksText(false, '');
    const wholeSamples = JSON.parse(whole.s.summaryJson()).samples;
    whole.close();

    const o = open(input, [tar]);
    const half = o.size / 2;
    expect(o.s.decodeStart(null, (off) => off >= half, 4096)).toBe(true);
    const at = o.s.pausedAt();
    expect(at).toBeGreaterThanOrEqual(half);
    o.s.decodeStop();
    expect(o.s.decodeResume()).toBe(false);
    expect(o.s.decodeOk()).toBe(true);
    const diags = JSON.parse(o.s.diagnosticsJson());
    const stop = diags.find((d) => d.code === 'decode_stopped');
    expect(stop).toBeTruthy();
    expect(stop.offset).toBe(at);
    expect(stop.message).toContain(`decoding was stopped at byte offset ${at} of ${o.size}`);
    const samples = JSON.parse(o.s.summaryJson()).samples;
    expect(samples).toBeGreaterThan(0);
    expect(samples).toBeLessThan(wholeSamples);
    // names, not only addresses: every stack the stopped decode shows is one the whole decode shows
    const stacks = o.s.stacksText(false, '').split('\n').filter(Boolean);
    expect(stacks.length).toBeGreaterThan(0);
    expect(stacks.join('\n')).toMatch(/[a-z_]{3,}/);
    for (const line of stacks) expect(wholeStacks).toContain(line.slice(0, line.lastIndexOf(' ')) + ' ');
    o.close();
  });
});
