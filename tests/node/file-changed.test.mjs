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
});
