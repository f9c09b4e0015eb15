// The module's contract (wasm/profscope.d.ts) names exactly what the bindings (wasm/bindings.cc)
// give: every Session method declared there exists on the module's Session and the other way
// round, and the typed getters return the array types it declares. (The worker is type-checked
// against the .d.ts by `tsc -p web/tsconfig.json`; this ties the .d.ts to the module.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfscope, openSession } from '../../wasm/load-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DTS = fs.readFileSync(path.join(ROOT, 'wasm', 'profscope.d.ts'), 'utf8');

/** name -> declared return type text, for the methods of `export interface Session { ... }` */
function declaredSession() {
  const body = DTS.slice(DTS.indexOf('export interface Session {'));
  const end = body.indexOf('\n}\n');
  const out = new Map();
  // methods without parameters (those the checks below can call as they are)
  for (const m of body.slice(0, end).matchAll(/^\s+(\w+)\((.*?)\):\s*([^;]+);/gm)) out.set(m[1], m[2].trim() ? `(${m[2].trim()}) ${m[3].trim()}` : m[3].trim());
  return out;
}

describe('wasm/profscope.d.ts', () => {
  it('declares every method of the module Session, and no other', async () => {
    const mod = await loadProfscope();
    const declared = [...declaredSession().keys()].filter((n) => n !== 'delete').sort();
    const proto = mod.Session.prototype;
    const actual = Object.getOwnPropertyNames(proto)
      .filter((n) => n !== 'constructor' && typeof proto[n] === 'function' && !/^(delete|clone|isAliasOf|isDeleted|deleteLater)$/.test(n))
      .sort();
    expect(declared).toEqual(actual);
  });

  it('gives the typed arrays it declares', async () => {
    const types = declaredSession();
    const { session: s, close } = await openSession(path.join(ROOT, 'tests', 'data', 'perf', 'pipe_mode', 'pipe.data'));
    try {
      let checked = 0;
      for (const [name, type] of types) {
        if (!/^(Int32|Uint32|Uint8|Float64|BigUint64)Array$/.test(type)) continue;
        expect(s[name]().constructor.name, name).toBe(type);
        checked++;
      }
      expect(checked).toBeGreaterThanOrEqual(30);
      const blob = s.strings();
      expect(blob.bytes).toBeInstanceOf(Uint8Array);
      expect(blob.offsets).toBeInstanceOf(Uint32Array);
      expect(blob.offsets.length).toBeGreaterThan(1);
      const base = s.timeBase();
      expect(typeof base.origin).toBe('string');
      expect(base.scale).toBe(1);
      expect(typeof base.zero).toBe('number');
      // a row that is no COMPRESSED container has no decompressed bytes
      expect(s.containerBytes(0)).toBeInstanceOf(Uint8Array);
      expect(s.containerBytes(0).length).toBe(0);
      expect(s.recordTypeName(0)).toBe('pipe header');
    } finally {
      close();
    }
  });
});
