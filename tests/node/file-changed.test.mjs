// A file that cannot be read to the size it had when it was opened (cut or changed on disk after it was
// dropped: the worker's reads then come back empty): the WASM module reads the rest as zeros, says where
// the file ended (`file_changed`, an error with its byte offset), keeps what it decoded before, and opens
// the next file normally. The native side: tests/unit/file_source_test.cc.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FILE = path.join(ROOT, 'tests', 'data', 'perf', 'leader_group_u', 'perf.data');

/** @type {any} */
let mod;
beforeAll(async () => {
  mod = await loadProfscope();
});

/** read(offset, length) over `bytes` that gives nothing from `cut` on, though the size says more. */
function cutReader(bytes, cut) {
  return (offset, length) => {
    const start = Math.min(Number(offset), cut);
    return bytes.slice(start, Math.min(cut, start + Number(length)));
  };
}

describe('a file cut after it was opened (WASM)', () => {
  it('decodes what came before the cut and says where the file ended', () => {
    const bytes = new Uint8Array(fs.readFileSync(FILE));
    const whole = new mod.Session(cutReader(bytes, bytes.length), bytes.length, 'perf.data');
    expect(whole.decode(() => {})).toBe(true);
    const all = JSON.parse(whole.infoJson()).samples;
    expect(JSON.parse(whole.diagnosticsJson()).some((d) => d.code === 'file_changed')).toBe(false);
    whole.delete();

    const cut = Math.floor(bytes.length / 2);
    const s = new mod.Session(cutReader(bytes, cut), bytes.length, 'perf.data');
    s.decode(() => {});
    const diags = JSON.parse(s.diagnosticsJson());
    const said = diags.find((d) => d.code === 'file_changed');
    expect(said, JSON.stringify(diags)).toBeTruthy();
    expect(said.severity).toBe('error');
    expect(said.offset).toBe(cut);
    expect(said.length).toBe(bytes.length - cut);
    expect(said.message).toContain(`ended at byte offset ${cut}`);
    const info = JSON.parse(s.infoJson());
    expect(info.samples).toBeGreaterThan(0);
    expect(info.samples).toBeLessThan(all);
    s.delete();

    // the module goes on: the next file decodes as before
    const again = new mod.Session(cutReader(bytes, bytes.length), bytes.length, 'perf.data');
    expect(again.decode(() => {})).toBe(true);
    expect(JSON.parse(again.infoJson()).samples).toBe(all);
    again.delete();
  });

  it('a record opened after the file was cut says that its bytes from the cut read as zeros', () => {
    const bytes = new Uint8Array(fs.readFileSync(FILE));
    let cut = bytes.length;
    const reader = (offset, length) => {
      const start = Math.min(Number(offset), cut);
      return bytes.slice(start, Math.min(cut, start + Number(length)));
    };
    const s = new mod.Session(reader, bytes.length, 'perf.data');
    expect(s.decode(() => {})).toBe(true);
    const rows = s.recordCount();
    /** @type {number[]} */
    const samples = [];
    for (let r = 0; r < rows; r++) if (s.recordLabel(r).startsWith('SAMPLE')) samples.push(r);
    expect(samples.length).toBeGreaterThan(2);
    const [first, last] = [samples[0], samples[samples.length - 1]];
    const fields = (/** @type {number} */ row) => JSON.parse(s.recordFieldsJson(row));
    // (the module reads ahead from the bytes asked for, and keeps them: the last sample's are read first)
    const before = fields(last);
    expect(before.some((f) => f.name === 'file changed')).toBe(false);

    // the file is cut where the last sample starts: the first sample's fields read as before, the last
    // one's say where the file ended
    cut = before[0].offset;
    expect(fields(first).some((f) => f.name === 'file changed')).toBe(false);
    const after = fields(last);
    expect(after[0].name).toBe('file changed');
    expect(after[0].offset).toBe(cut);
    expect(after[0].value).toContain(`reading the file found it ending at byte offset ${cut}, though it had ${bytes.length} bytes`);
    expect(after[1].value).not.toBe(before[0].value);
    s.delete();
  });
});
