// @ts-check
// The session's interned strings as they cross the boundary: one UTF-8 blob plus offsets
// (wasm/profscope.d.ts StringBlob). The worker decodes them all once (decodeStrings); the
// page keeps the blob and decodes the few it shows (stringOf).

/** @typedef {import('../../../wasm/profscope').StringBlob} StringBlob */

const decoder = new TextDecoder();

/**
 * String `id` of the blob; '' for -1 or an id out of range.
 * @param {StringBlob | null | undefined} blob
 * @param {number} id
 */
export function stringOf(blob, id) {
  if (!blob || !(id >= 0 && id + 1 < blob.offsets.length)) return '';
  return decoder.decode(blob.bytes.subarray(blob.offsets[id], blob.offsets[id + 1]));
}

/**
 * Every string of the blob.
 * @param {StringBlob} blob
 * @returns {string[]}
 */
export function decodeStrings({ bytes, offsets }) {
  const n = Math.max(0, offsets.length - 1);
  const out = new Array(n);
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    // one decode: byte offsets are character offsets
    const all = decoder.decode(bytes);
    for (let i = 0; i < n; i++) out[i] = all.slice(offsets[i], offsets[i + 1]);
  } else {
    for (let i = 0; i < n; i++) out[i] = decoder.decode(bytes.subarray(offsets[i], offsets[i + 1]));
  }
  return out;
}
