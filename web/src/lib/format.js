// Small formatting helpers (no file data is ever turned into HTML).

export function hex(n, width = 0) {
  if (n == null || Number.isNaN(n)) return '';
  const s = typeof n === 'bigint' ? n.toString(16) : Math.floor(Number(n)).toString(16);
  return '0x' + (width ? s.padStart(width, '0') : s);
}

export function hexPad(n, width) {
  return Math.floor(Number(n)).toString(16).padStart(width, '0');
}

export function formatInt(n) {
  if (n == null || n === '') return '';
  const v = Number(n);
  if (!Number.isFinite(v)) return String(n);
  return v.toLocaleString('en-US');
}

export function formatBytes(n) {
  const v = Number(n);
  if (!Number.isFinite(v)) return '';
  if (v < 1024) return `${v} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let x = v / 1024;
  let u = 0;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  return `${x.toFixed(x < 10 ? 2 : 1)} ${units[u]}`;
}

/** ns -> human duration */
export function formatDuration(ns) {
  const v = Number(ns);
  if (!Number.isFinite(v) || v < 0) return '';
  if (v < 1e3) return `${v} ns`;
  if (v < 1e6) return `${(v / 1e3).toFixed(1)} µs`;
  if (v < 1e9) return `${(v / 1e6).toFixed(1)} ms`;
  return `${(v / 1e9).toFixed(3)} s`;
}

/** perf timestamps (ns since boot) -> "12345.678901 s" */
export function formatTimestamp(ns) {
  const v = Number(ns);
  if (!Number.isFinite(v)) return '';
  return `${(v / 1e9).toFixed(6)} s`;
}

export function formatPercent(part, whole) {
  if (!whole) return '0%';
  const p = (100 * part) / whole;
  if (p >= 99.995 && part < whole) return '99.99%';
  return `${p < 10 ? p.toFixed(2) : p.toFixed(1)}%`;
}

/** Hex digits needed for the offsets of a file of `size` bytes (8 at least). */
export function offsetWidth(size) {
  let w = 8;
  while (w < 16 && size > 16 ** w) w++;
  return w;
}

export function byteHex(b) {
  return HEX2[b];
}

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function byteAscii(b) {
  return b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
}

/**
 * What a file's samples are called: a tracer's (XRay) samples are its calls, as llvm-xray names them.
 * @param {{summary?: {samples_are_calls?: boolean}} | null | undefined} doc
 */
export function sampleWord(doc) {
  return doc?.summary?.samples_are_calls ? 'call' : 'sample';
}

/**
 * A count and its noun, singular or plural: plural(1, 'function') = "1 function", plural(2, 'sample')
 * = "2 samples", plural(3, 'child', 'children'). The count is formatted with thousands separators.
 * @param {number} n
 * @param {string} one
 * @param {string} [many] default: one + 's'
 */
export function plural(n, one, many) {
  return `${formatInt(n)} ${Number(n) === 1 ? one : many ?? one + 's'}`;
}

/**
 * A time in ns as a person reads it, for times from the start of the file and durations:
 * "1.234 s", "12.35 ms", "56.7 µs", "80 ns" (raw ns only in the inspector).
 * @param {number} ns
 */
export function formatTime(ns) {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${(ns / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (a >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${Math.round(ns)} ns`;
}
