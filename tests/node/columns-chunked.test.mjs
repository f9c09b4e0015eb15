// Columns the module converts (record offsets and sizes: Uint32Arrays under 4 GB, else Float64Arrays;
// sample times: Float64Arrays) go through a small buffer, 65 536 values at a time (wasm/bindings.cc Fill), not through a temporary of
// the column's size in the module's heap. Across those chunk boundaries every value must still be right:
// a pipe-mode stream whose records repeat (~190 000 records) is decoded and its columns checked against
// the file's own record headers and the repetition.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileReader, loadProfscope } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PIPE = path.join(ROOT, 'tests', 'data', 'perf', 'pipe_mode', 'pipe.data');

/** @type {any} */
let mod;
beforeAll(async () => {
  mod = await loadProfscope();
});

/** The stream's header and kernel records once, then its other records `times` times; with every record's [offset, size]. */
function repeated(times) {
  const d = fs.readFileSync(PIPE);
  let first = -1;
  for (let off = 16; off + 8 <= d.length; off += d.readUInt16LE(off + 6)) if (d.readUInt32LE(off) < 64 && first < 0) first = off;
  const bytes = Buffer.concat([d.subarray(0, first), ...Array.from({ length: times }, () => d.subarray(first))]);
  const spans = [];
  for (let off = 16; off + 8 <= bytes.length; off += bytes.readUInt16LE(off + 6)) spans.push([off, bytes.readUInt16LE(off + 6)]);
  return { bytes, spans };
}

/** Decodes `bytes` (written to a temporary file) and hands the session to `use`. */
function decoded(bytes, use) {
  const file = path.join(os.tmpdir(), `profscope-columns-${process.pid}.data`);
  fs.writeFileSync(file, bytes);
  const r = fileReader(file);
  const s = new mod.Session(r.read, r.size, 'repeated.data');
  try {
    s.decode(() => {});
    return use(s);
  } finally {
    s.delete();
    r.close?.();
    fs.rmSync(file, { force: true });
  }
}

describe('Float64 columns across the conversion chunks', () => {
  it('record offsets and sizes are every record header, and sample times are one copy\'s, repeated', () => {
    const times = 700;
    const { bytes, spans } = repeated(times);
    expect(spans.length).toBeGreaterThan(3 * 65536);
    const got = decoded(bytes, (s) => {
      const offsets = s.recordOffsets();
      const sizes = s.recordSizes();
      const kinds = s.recordKinds();
      const rows = [];
      for (let i = 0; i < kinds.length; i++) if (kinds[i] === 5 /* Record */) rows.push([offsets[i], sizes[i]]);
      return { offsets, rows, times: s.sampleTimes(), types: s.recordTypes(), sizes };
    });
    expect(got.sizes).toBeInstanceOf(Uint16Array); // a pipe file's records: none past 64 KiB (the narrowest exact array)
    expect(got.types).toBeInstanceOf(Uint8Array); // perf record types, feature ids and attr indexes < 256 here
    // (a file under 4 GB: its offsets as a Uint32Array, the narrowest exact array)
    expect(got.offsets).toBeInstanceOf(Uint32Array);
    expect(got.rows.length).toBe(spans.length);
    let same = true;
    for (let i = 0; i < got.rows.length && same; i++) same = got.rows[i][0] === spans[i][0] && got.rows[i][1] === spans[i][1];
    expect(same).toBe(true);
    // the copies' samples are merged in time order (equal times interleave): as a sorted list, the
    // times are one copy's (a single chunk), each `times` times
    const one = decoded(repeated(1).bytes, (s) => s.sampleTimes());
    expect(got.times.length).toBe(one.length * times);
    expect(got.times.length).toBeGreaterThan(3 * 65536);
    const want = Float64Array.from({ length: one.length * times }, (_, i) => one[Math.floor(i / times)]).sort();
    const sorted = Float64Array.from(got.times).sort();
    let equal = true;
    for (let i = 0; i < want.length && equal; i++) equal = want[i] === sorted[i];
    expect(equal).toBe(true);
  });
});
