// @ts-check
// For the tests (hash flooding): keys a file's author can choose so that V8 puts them all in one bucket
// of a Map. V8 hashes a small-integer key with ComputeUnseededHash (Thomas Wang's 32-bit hash, no seed:
// src/utils/utils.h) and a Map's bucket is the hash's low bits (OrderedHashTable::HashToBucket); the
// hash is a permutation of the 32-bit values, so keys with any chosen low bits are its inverse of them.

const inverse = (/** @type {number} */ m) => {
  let x = m;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(m, x));
  return x;
};
const I32767 = inverse(32767);
const I5 = inverse(5);
const I2057 = inverse(2057);

/**
 * V8's ComputeUnseededHash.
 * @param {number} key an int32
 */
export function v8IntHash(key) {
  let h = key | 0;
  h = ~h + (h << 15);
  h ^= h >>> 12;
  h = (h + (h << 2)) | 0;
  h ^= h >>> 4;
  h = Math.imul(h, 2057);
  h ^= h >>> 16;
  return h & 0x3fffffff;
}

/** @param {number} h the full 32-bit hash (before V8's & 0x3fffffff) */
function unhash(h) {
  h ^= h >>> 16;
  h = Math.imul(h, I2057);
  h ^= (h >>> 4) ^ (h >>> 8) ^ (h >>> 12) ^ (h >>> 16) ^ (h >>> 20) ^ (h >>> 24) ^ (h >>> 28);
  h = Math.imul(h, I5);
  h ^= (h >>> 12) ^ (h >>> 24);
  return Math.imul((h + 1) | 0, I32767);
}

/**
 * `count` distinct non-negative int32s whose V8 hashes share their low `bits` bits: in a Map of up to
 * 2^(bits+1) keys they all share one bucket.
 * @param {number} count
 * @param {number} [bits]
 */
export function collidingInts(count, bits = 15) {
  const out = [];
  for (let i = 0; out.length < count; i++) {
    if (i >= 2 ** (32 - bits)) throw new Error('not that many');
    const k = unhash((i << bits) | (0x1234 & ((1 << bits) - 1)));
    if (k >= 0) out.push(k);
  }
  return out;
}
