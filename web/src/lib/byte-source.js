// Lazy, chunked reads of a File/Blob for the hex view: file.slice().arrayBuffer()
// in fixed-size chunks kept in a small LRU cache. Never reads the whole file.
// A read that fails (the file was changed or removed since it was dropped: the
// browser's NotReadableError) or comes back short (cut) is kept as `error`; the
// bytes it did not give stay unread (-1) and are not asked for again.

const hexOf = (/** @type {number} */ n) => `0x${n.toString(16)}`;

export class ByteSource {
  /**
   * @param {Blob} blob
   * @param {{chunkSize?: number, maxChunks?: number}} [opts]
   */
  constructor(blob, opts = {}) {
    this.blob = blob;
    this.size = blob.size;
    this.chunkSize = opts.chunkSize ?? 64 * 1024;
    this.maxChunks = opts.maxChunks ?? 48;
    /** @type {Map<number, Uint8Array>} insertion order = LRU order */
    this.cache = new Map();
    /** @type {Map<number, Promise<Uint8Array>>} */
    this.loading = new Map();
    /** @type {Set<() => void>} */
    this.listeners = new Set();
    this.version = 0;
    /** @type {string | null} why some bytes could not be read (the first failure) */
    this.error = null;
    /** @type {Set<number>} chunks whose read failed */
    this.failed = new Set();
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Chunk `i` if cached (refreshes its LRU position), else null and starts loading it. */
  chunk(i) {
    const c = this.cache.get(i);
    if (c) {
      this.cache.delete(i);
      this.cache.set(i, c);
      return c;
    }
    if (!this.failed.has(i)) this.load(i).catch(() => {});  // (a failure is kept in `error`)
    return null;
  }

  load(i) {
    if (this.cache.has(i)) return Promise.resolve(this.cache.get(i));
    let p = this.loading.get(i);
    if (p) return p;
    const start = i * this.chunkSize;
    const end = Math.min(this.size, start + this.chunkSize);
    p = this.blob
      .slice(start, end)
      .arrayBuffer()
      .then((buf) => {
        const bytes = new Uint8Array(buf);
        this.loading.delete(i);
        // (a short chunk: the bytes before the cut are kept, the rest is not asked for again)
        if (bytes.length < end - start) this.fail(i, start, `the file ended at byte offset ${start + bytes.length}, though it had ${this.size} bytes when it was opened`);
        this.cache.set(i, bytes);
        while (this.cache.size > this.maxChunks) {
          const oldest = this.cache.keys().next().value;
          this.cache.delete(oldest);
        }
        this.version++;
        for (const fn of this.listeners) fn();
        return bytes;
      })
      .catch((err) => {
        this.loading.delete(i);
        // (the browser's NotReadableError is named, its long message left out)
        this.fail(i, start, err?.name === 'NotReadableError' ? err.name : String(err?.message || err));
        this.version++;
        for (const fn of this.listeners) fn();
        throw err;
      });
    this.loading.set(i, p);
    return p;
  }

  /** Chunk `i` (from byte `start`) could not be read whole: kept, so it is not asked for again. */
  fail(i, start, why) {
    this.failed.add(i);
    if (!this.error) this.error = `from ${hexOf(start)}: ${why}`;
  }

  /** Whether some of the bytes [off, off + len) cannot be read (their chunk failed). */
  unreadable(off, len) {
    const end = Math.min(this.size, off + len);
    for (let i = Math.floor(off / this.chunkSize); i * this.chunkSize < end; i++) {
      if (!this.failed.has(i)) continue;
      const c = this.cache.get(i);
      if (!c || i * this.chunkSize + c.length < end) return true;
    }
    return false;
  }

  /** Byte at `off`, or -1 when its chunk is not loaded yet (loading starts). */
  byteAt(off) {
    if (off < 0 || off >= this.size) return -1;
    const i = Math.floor(off / this.chunkSize);
    const c = this.chunk(i);
    return c && off - i * this.chunkSize < c.length ? c[off - i * this.chunkSize] : -1;
  }

  /** Up to `len` bytes from `off` if all loaded, else null (loading starts). */
  peek(off, len) {
    if (off < 0 || off >= this.size) return null;
    const end = Math.min(this.size, off + len);
    const out = new Uint8Array(end - off);
    for (let p = off; p < end; ) {
      const i = Math.floor(p / this.chunkSize);
      const c = this.chunk(i);
      const base = i * this.chunkSize;
      if (!c || p - base >= c.length) return null; // (not loaded yet, or past where a short chunk ended)
      const n = Math.min(end, base + c.length) - p;
      out.set(c.subarray(p - base, p - base + n), p - off);
      p += n;
    }
    return out;
  }
}
