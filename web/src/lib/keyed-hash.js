// @ts-check
// Keys of Maps and Sets that a profile's author chooses (pids, function names, record labels) made with a
// secret of this page (worker), so that a crafted file cannot put them all in one bucket of V8's hash table
// (each lookup would then walk all of them: quadratic, the page hangs). V8 hashes a Map's number keys with
// no seed at all (int32s: ComputeUnseededHash, other numbers: ComputeLongHash; a bucket is the hash's low
// bits), a string longer than 16383 characters by its length alone, a string of digits by the number it
// spells unless built with v8_enable_seeded_array_index_hash, and Chromium's rapidhash with its public
// default secret lets chosen bytes cancel the seed (a word equal to the secret zeroes the product). So:
//   intKey(n)      a Map key for an int32 n: a keyed permutation of it (distinct ints, distinct keys)
//   distinctInts   the distinct numbers of a list in first-seen order (what [...new Set(list)] gives)
//   hashString(s)  a keyed hash of a string (HalfSipHash-1-3 over its UTF-16 code units)
//   StringMap      string -> value, bucketed by hashString, never by V8's hash of the string
// The C++ core does the same with its own per-process secret (core/io/keyed_hash.h).

const KEY = new Uint32Array(8);
globalThis.crypto.getRandomValues(KEY);
const M1 = KEY[1] | 1; // odd: multiplying by it is a permutation of the int32s
const M2 = KEY[3] | 1;
const M3 = KEY[5] | 1;

/**
 * A keyed permutation of the int32s (a few rounds of xor/add a key, xorshift, multiply by an odd key).
 * @param {number} x an int32
 */
function permute(x) {
  x ^= KEY[0];
  x = Math.imul(x ^ (x >>> 16), M1);
  x = (x + KEY[2]) | 0;
  x = Math.imul(x ^ (x >>> 15), M2);
  x ^= KEY[4];
  x = Math.imul(x ^ (x >>> 16), M3);
  return x ^ (x >>> 15);
}

/**
 * The Map key of `v`: an int32 becomes its keyed permutation (an int32 again: distinct ints stay
 * distinct, and no other number equals one); anything else (null, undefined, other numbers) is
 * returned as it is. Use the same for set and get.
 * @template T
 * @param {T} v
 * @returns {T | number}
 */
export function intKey(v) {
  return typeof v === 'number' && (v | 0) === v ? permute(v) : v;
}

/**
 * The distinct values of a list of numbers, in the order they first come ([...new Set(values)]).
 * @param {Iterable<number>} values
 * @returns {number[]}
 */
export function distinctInts(values) {
  /** @type {Map<number, number>} */
  const seen = new Map();
  for (const v of values) {
    const k = /** @type {number} */ (intKey(v));
    if (!seen.has(k)) seen.set(k, v);
  }
  return [...seen.values()];
}

const S0 = KEY[6];
const S1 = KEY[7];

/**
 * A keyed 30-bit hash of a string (HalfSipHash-1-3 of its UTF-16 code units, two a word, then its length):
 * without the page's secret no one can tell which strings share a value.
 * @param {string} s
 */
export function hashString(s) {
  let v0 = S0;
  let v1 = S1;
  let v2 = S0 ^ 0x6c796765;
  let v3 = S1 ^ 0x74656462;
  const n = s.length;
  // the words: code units two by two, the last one alone (odd lengths), then the length
  const words = (n >> 1) + (n & 1) + 1;
  for (let w = 0, i = 0; w < words; w++, i += 2) {
    const m = i + 1 < n ? s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16) : i < n ? s.charCodeAt(i) : n;
    v3 ^= m;
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2;
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0;
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16);
    v0 ^= m;
  }
  v2 ^= 0xff;
  for (let r = 0; r < 3; r++) {
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2;
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0;
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16);
  }
  return (v1 ^ v3) & 0x3fffffff; // (a small integer on every platform)
}

/**
 * String -> value, where the strings come from a file: bucketed by hashString (a bucket holds the strings
 * whose keyed hashes are equal, so one string almost always), compared only within their bucket.
 * @template V
 */
export class StringMap {
  constructor() {
    /** @type {Map<number, any[]>} keyed hash -> [string, value, string, value, ...] */
    this.buckets = new Map();
    this.size = 0;
  }

  /** @param {string} s @returns {V | undefined} */
  get(s) {
    const b = this.buckets.get(hashString(s));
    if (b) for (let i = 0; i < b.length; i += 2) if (b[i] === s) return b[i + 1];
    return undefined;
  }

  /** @param {string} s */
  has(s) {
    const b = this.buckets.get(hashString(s));
    if (b) for (let i = 0; i < b.length; i += 2) if (b[i] === s) return true;
    return false;
  }

  /** @param {string} s @param {V} value */
  set(s, value) {
    const h = hashString(s);
    const b = this.buckets.get(h);
    if (!b) {
      this.buckets.set(h, [s, value]);
      this.size++;
      return this;
    }
    for (let i = 0; i < b.length; i += 2) {
      if (b[i] === s) {
        b[i + 1] = value;
        return this;
      }
    }
    b.push(s, value);
    this.size++;
    return this;
  }
}
