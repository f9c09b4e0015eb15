import { describe, expect, it } from 'vitest';
import { readerOf } from './file-reader.js';

// A Blob of bytes 0..n-1 (mod 256) and a FileReaderSync stand-in that counts its calls.
function setup(n) {
  const bytes = Uint8Array.from({ length: n }, (_, i) => i & 255);
  const blob = new Blob([bytes]);
  const calls = [];
  const reader = {
    readAsArrayBuffer(b) {
      calls.push(b.size);
      // Blob.slice keeps the range; read it back synchronously from the source bytes.
      return bytes.slice(b.start, b.start + b.size).buffer;
    },
  };
  const slice = blob.slice.bind(blob);
  blob.slice = (a, e) => Object.assign(slice(a, e), { start: a });
  return { bytes, blob, calls, reader };
}

describe('readerOf', () => {
  it('reads ahead while the reads follow each other, and gives the same bytes', () => {
    const { bytes, blob, calls, reader } = setup(1000);
    const read = readerOf(blob, 256, reader);
    const got = [];
    for (let at = 0; at < 1000; at += 40) got.push(...read(at, 40));
    expect(Uint8Array.from(got)).toEqual(bytes);
    // the first read alone, then one call per 256 bytes ahead
    expect(calls.length).toBeLessThanOrEqual(1 + Math.ceil(1000 / 256) + 1);
  });
  it('reads a jump, a re-read and a read past the end as asked', () => {
    const { bytes, blob, calls, reader } = setup(1000);
    const read = readerOf(blob, 256, reader);
    expect(read(500, 10)).toEqual(bytes.slice(500, 510));
    expect(read(100, 10)).toEqual(bytes.slice(100, 110));
    expect(read(990, 50)).toEqual(bytes.slice(990, 1000));
    expect(read(2000, 5).length).toBe(0);
    expect(calls).toEqual([10, 10, 10]);
    // a read that continues the one before reads ahead; one inside that block is served from it
    expect(read(110, 10)).toEqual(bytes.slice(110, 120));
    expect(read(120, 10)).toEqual(bytes.slice(120, 130));
    expect(read(200, 20)).toEqual(bytes.slice(200, 220));
    expect(calls).toEqual([10, 10, 10, 10, 256]);
  });
  it('gives no bytes for a read that fails (a file changed since it was dropped)', () => {
    const { bytes, blob, reader } = setup(1000);
    let fail = false;
    const flaky = {
      readAsArrayBuffer(/** @type {Blob} */ b) {
        if (fail) throw new DOMException('The requested file could not be read', 'NotReadableError');
        return reader.readAsArrayBuffer(b);
      },
    };
    const read = readerOf(blob, 256, flaky);
    expect(read(0, 10)).toEqual(bytes.slice(0, 10));
    fail = true;
    expect(read(600, 10).length).toBe(0); // a jump
    expect(read(610, 20).length).toBe(0); // a read ahead
    fail = false;
    expect(read(630, 10)).toEqual(bytes.slice(630, 640)); // (the failed read ahead left no block behind)
  });
});
