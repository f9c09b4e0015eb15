// Unit tests of the hex view's byte source: chunks read lazily from a Blob, and a file that can no longer
// be read (changed, removed or cut since it was dropped) kept as an error, not asked for again.
import { describe, expect, it } from 'vitest';
import { ByteSource } from './byte-source.js';

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A Blob of `bytes` whose reads fail from byte `from` on (the browser's NotReadableError), or come back cut there. */
function changedBlob(bytes, from, how) {
  let reads = 0;
  const blob = {
    size: bytes.length,
    get reads() {
      return reads;
    },
    slice(start, end) {
      return {
        arrayBuffer() {
          reads++;
          if (end <= from) return Promise.resolve(bytes.slice(start, end).buffer);
          if (how === 'cut') return Promise.resolve(bytes.slice(start, Math.max(start, from)).buffer);
          const e = new Error('The requested file could not be read, typically due to permission problems that have occurred after a reference to a file was acquired.');
          e.name = 'NotReadableError';
          return Promise.reject(e);
        },
      };
    },
  };
  return blob;
}

describe('ByteSource', () => {
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i & 0xff);

  it('reads the bytes a chunk at a time and tells its listeners', async () => {
    const src = new ByteSource(new Blob([bytes]), { chunkSize: 64 });
    let told = 0;
    src.subscribe(() => told++);
    expect(src.byteAt(130)).toBe(-1);
    await settle();
    await settle();
    expect(src.byteAt(130)).toBe(130);
    expect(told).toBe(1);
    expect(Array.from(src.peek(130, 4))).toEqual([130, 131, 132, 133]);
    expect(src.error).toBe(null);
  });

  for (const how of ['fails', 'cut']) {
    it(`a file whose reads ${how === 'cut' ? 'come back cut' : 'fail'} since it was dropped: an error, the bytes unread, not asked again`, async () => {
      const blob = changedBlob(bytes, 500, how);
      const src = new ByteSource(/** @type {any} */ (blob), { chunkSize: 64 });
      let told = 0;
      src.subscribe(() => told++);
      expect(src.byteAt(10)).toBe(-1);
      expect(src.byteAt(505)).toBe(-1);
      await settle();
      await settle();
      expect(src.byteAt(10)).toBe(10); // before the change: read
      expect(src.byteAt(505)).toBe(-1); // after it: not read
      // the same chunk before the cut: read when the chunk came back short, not when it failed
      expect(src.byteAt(480)).toBe(how === 'cut' ? 480 & 0xff : -1);
      expect(told).toBe(2);
      expect(src.error).toBe(how === 'cut' ? 'from 0x1c0: the file ended at byte offset 500, though it had 1000 bytes when it was opened' : 'from 0x1c0: NotReadableError');
      const reads = blob.reads;
      for (let k = 0; k < 5; k++) expect(src.byteAt(505)).toBe(-1); // (a render each: no read again)
      await settle();
      expect(blob.reads).toBe(reads);
      expect(src.peek(495, 10)).toBe(null); // (across the cut)
      expect(src.unreadable(495, 10)).toBe(true);
      expect(src.unreadable(10, 32)).toBe(false);
      expect(src.unreadable(470, 20)).toBe(how !== 'cut');
    });
  }
});
