// Writes an XRay FDR log of several threads from a real log's header (its other bytes are not used), one
// buffer a thread, for the tests of a tracer's flame chart lanes (tests/node/call-lanes.test.mjs,
// e2e/xray-lanes.spec.js): thread t (tid 100 + t) starts 401 ticks after the one before (no two threads'
// records at one tick) and makes outer(t) calls of function 1, each holding one call of function 2 when
// inner(t) (records 10 ticks apart).
const u32 = (/** @type {Buffer} */ b, /** @type {number} */ at, /** @type {number} */ v) => b.writeUInt32LE(v >>> 0, at);
const u64 = (/** @type {Buffer} */ b, /** @type {number} */ at, /** @type {number} */ v) => b.writeBigUInt64LE(BigInt(v), at);

/**
 * @param {Buffer} realLog a real FDR log (its 32-byte header is kept)
 * @param {number} threads
 * @param {{outer?: (t: number) => number, inner?: (t: number) => boolean}} [shape]
 */
export function threadsXRay(realLog, threads, { outer = (t) => 8 * (t + 1), inner = () => true } = {}) {
  const meta = (/** @type {number} */ kind, /** @type {(r: Buffer) => void} */ body) => {
    const r = Buffer.alloc(16);
    r[0] = (kind << 1) | 1;
    body(r);
    return r;
  };
  const fn = (/** @type {number} */ action, /** @type {number} */ id, /** @type {number} */ delta) => {
    const r = Buffer.alloc(8);
    u32(r, 0, (id << 4) | (action << 1));
    u32(r, 4, delta);
    return r;
  };
  const parts = [realLog.subarray(0, 32)];
  for (let t = 0; t < threads; t++) {
    const records = [
      meta(0, (r) => u32(r, 1, 100 + t)), // NewBuffer, tid
      meta(4, (r) => {
        u64(r, 1, 1 + t);
        u32(r, 9, t);
      }), // WallTimeMarker
      meta(9, (r) => u32(r, 1, 4242)), // PID
      meta(2, (r) => {
        r.writeUInt16LE(t % 4, 1);
        u64(r, 3, 1000 + 401 * t);
      }), // NewCPUId, tsc
    ];
    for (let k = 0; k < outer(t); k++) {
      records.push(fn(0, 1, 10));
      if (inner(t)) records.push(fn(0, 2, 10), fn(1, 2, 10));
      records.push(fn(1, 1, 10));
    }
    const body = Buffer.concat(records);
    parts.push(meta(7, (r) => u64(r, 1, body.length)), body); // BufferExtents
  }
  return Buffer.concat(parts);
}
