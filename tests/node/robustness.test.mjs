// Thousands of damaged files through the WASM module (issue 6): every profile in
// tests/data is mutated with a fixed-seed generator (bit flips, extreme values
// over aligned fields, truncation) and decoded from in-memory read callbacks,
// as the web worker does. The module must never trap or abort: decode() returns
// a boolean, a false one comes with a fatal diagnostic, every text and the
// fields of a sample of rows can be produced, and the module stays usable for
// the next file (an abort would poison every later call).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfscope } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.join(ROOT, 'tests', 'data');
const SKIP = /\.(txt|md|json|stderr|rc|gz|sh|pb_text|ya?ml|cc?|cpp|py|svg|html|js)$|(^|\/)calltree$/;
const MUTANTS_PER_FILE = Number(process.env.PROFSCOPE_ROBUSTNESS_MUTANTS || 80);

function listFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    // regular files only: a build-id cache's .build-id links (perf_symdirs) point at files tested anyway
    else if (e.isFile() && !SKIP.test(p)) {
      const size = fs.statSync(p).size;
      if (size > 0 && size <= 1 << 20) out.push(p);
    }
  }
  return out.sort();
}

// xorshift64*: the same mutants on every run
function rng(seed) {
  let x = BigInt.asUintN(64, BigInt(seed) ^ 0x9e3779b97f4a7c15n);
  return () => {
    x ^= x >> 12n; x ^= BigInt.asUintN(64, x << 25n); x ^= x >> 27n;
    return Number(BigInt.asUintN(64, x * 0x2545f4914f6cdd1dn) >> 11n) / 2 ** 53;
  };
}

const EXTREMES = [0n, 0xffffffffffffffffn, 1n << 60n, 0x8000000000000000n, 0x7fffffffn, 0xffffffffn, 0x10000n];

function mutate(orig, r, m) {
  const kind = m % 4;
  if (kind === 3) return orig.slice(0, Math.floor(r() * orig.length)); // truncation
  const b = new Uint8Array(orig);
  if (kind === 0) {
    const flips = 1 + Math.floor(r() * 4);
    for (let i = 0; i < flips; i++) b[Math.floor(r() * b.length)] ^= 1 << Math.floor(r() * 8);
  } else {
    const w = kind === 1 ? 8 : 4;
    if (b.length < w) return b;
    const at = Math.floor(r() * (b.length - w + 1)) & ~(w - 1);
    let v = EXTREMES[Math.floor(r() * EXTREMES.length)];
    for (let i = 0; i < w; i++, v >>= 8n) b[at + i] = Number(v & 0xffn);
  }
  return b;
}

function decodeBytes(mod, bytes) {
  const read = (offset, length) => {
    const start = Math.max(0, Math.min(Number(offset), bytes.length));
    return bytes.subarray(start, Math.min(bytes.length, start + Number(length)));
  };
  const s = new mod.Session(read, bytes.length, 'mutant');
  try {
    const ok = s.decode(() => {});
    expect(typeof ok).toBe('boolean');
    const diags = JSON.parse(s.diagnosticsJson());
    JSON.parse(s.infoJson());
    if (!ok) {
      expect(diags.some((d) => d.severity === 'fatal')).toBe(true);
      return { ok, diags: diags.length };
    }
    s.recordsText();
    s.stacksText(false, '');
    JSON.parse(s.summaryJson());
    const n = s.recordCount();
    const step = Math.max(1, Math.floor(n / 200));
    for (let row = 0; row < n; row += step) {
      s.recordLabel(row);
      JSON.parse(s.recordFieldsJson(row));
    }
    s.sampleStacks();
    s.stackPrefixes();
    return { ok, diags: diags.length };
  } finally {
    s.delete();
  }
}

describe('WASM module under damaged input', () => {
  let mod;
  beforeAll(async () => {
    mod = await loadProfscope();
  });
  const files = fs.existsSync(DATA) ? listFiles(DATA) : [];

  it('finds test files to damage', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  for (const file of files) {
    const rel = path.relative(DATA, file);
    it(`never traps on ${MUTANTS_PER_FILE} mutants of ${rel}`, () => {
      const orig = new Uint8Array(fs.readFileSync(file));
      let base;
      try {
        base = decodeBytes(mod, orig);
      } catch (e) {
        throw new Error(`undamaged ${rel}: ${e.stack || e}`);
      }
      if (!base.ok) return; // not a format any decoder opens: nothing to damage
      let seed = 0;
      for (const ch of rel) seed = (seed * 31 + ch.charCodeAt(0)) >>> 0;
      const r = rng(seed);
      let withDiags = 0;
      for (let m = 0; m < MUTANTS_PER_FILE; m++) {
        const bytes = mutate(orig, r, m);
        let res;
        try {
          res = decodeBytes(mod, bytes);
        } catch (e) {
          // a RuntimeError (trap), an abort() or an embind error: all are bugs
          const out = path.join(ROOT, 'build', 'test-results', `wasm-crash-${rel.replace(/\W/g, '_')}-${m}.bin`);
          fs.mkdirSync(path.dirname(out), { recursive: true });
          fs.writeFileSync(out, bytes);
          throw new Error(`${rel} mutant ${m} (kept in ${out}): ${e && e.stack ? e.stack : e}`);
        }
        if (res.diags > 0) withDiags++;
      }
      // damage is reported: most mutants carry at least one diagnostic
      expect(withDiags).toBeGreaterThan(0);
      // and the module still decodes the undamaged file the same way afterwards
      expect(decodeBytes(mod, orig).ok).toBe(true);
    }, 120_000);
  }
});
