// The read-ahead worker (read-ahead-worker.js) run in node with a stand-in for its worker scope: it reads
// the file's byte stream into chunks no further than it is asked, fills the buffers it is given back
// again, and reads with FileReaderSync (keeping no buffers) where there is no byte stream.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const CH = 1 << 16; // the smallest chunk it takes
const bytes = Uint8Array.from({ length: 5 * CH + 123 }, (_, i) => (i * 13) & 255);

/** @type {{m: any, transfer: any[]}[]} */
let posted;
let scope;
beforeEach(async () => {
  posted = [];
  // (the bytes as posted: a buffer given back is filled again, as a transferred one would be elsewhere)
  scope = { onmessage: null, postMessage: (m, transfer) => posted.push({ m: { ...m, copy: m.buffer ? new Uint8Array(m.buffer, 0, m.length).slice() : null }, transfer }) };
  globalThis.self = scope;
  vi.resetModules();
  await import('./read-ahead-worker.js');
});
afterEach(() => {
  delete globalThis.self;
  delete globalThis.FileReaderSync;
});

const send = (m) => scope.onmessage({ data: m });
const turns = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
};
const chunks = () => posted.filter((p) => p.m.type === 'chunk').map((p) => p.m);
const bytesOf = (c) => c.copy;

describe('read-ahead worker', () => {
  it('streams chunks up to where it is asked, then fills the buffers given back', async () => {
    const blob = new Blob([bytes]);
    send({ type: 'start', file: blob, from: 10, until: 10 + 2 * CH, chunk: CH });
    await turns();
    expect(chunks().map((c) => [c.at, c.length, c.fresh])).toEqual([
      [10, CH, true],
      [10 + CH, CH, true],
    ]);
    for (const c of chunks()) expect(bytesOf(c)).toEqual(bytes.subarray(c.at, c.at + c.length));
    expect(posted[0].transfer.length).toBe(1);
    expect(posted[0].transfer[0]).toBe(posted[0].m.buffer);
    // the first buffer comes back: the next chunk is read into it
    const back = chunks()[0].buffer;
    send({ type: 'give', buffers: [back] });
    send({ type: 'until', until: 10 + 5 * CH });
    await turns();
    const all = chunks();
    expect(all.map((c) => [c.at, c.fresh])).toEqual([
      [10, true],
      [10 + CH, true],
      [10 + 2 * CH, false],
      [10 + 3 * CH, true],
      [10 + 4 * CH, true],
    ]);
    expect(all[2].buffer.byteLength).toBe(CH);
    for (const c of all) expect(bytesOf(c)).toEqual(bytes.subarray(c.at, c.at + c.length));
    // to the end of the file, its last chunk shorter than the buffer
    send({ type: 'until', until: bytes.length + CH });
    await turns();
    const last = chunks().at(-1);
    expect([last.at, last.length]).toEqual([10 + 5 * CH, bytes.length - 10 - 5 * CH]);
    expect(bytesOf(last)).toEqual(bytes.subarray(last.at));
  });

  it('reads with FileReaderSync where there is no byte stream, and keeps none of the buffers given back', async () => {
    const reads = [];
    globalThis.FileReaderSync = class {
      readAsArrayBuffer(b) {
        reads.push(b.size);
        return bytes.slice(b.at, b.at + b.size).buffer;
      }
    };
    // a Blob whose slices have no byte stream
    const blob = {
      size: bytes.length,
      slice: (a, e) => ({ at: a, size: Math.min(e ?? bytes.length, bytes.length) - a, stream: () => { throw new Error('no stream'); } }),
    };
    send({ type: 'start', file: blob, from: 0, until: 2 * CH, chunk: CH });
    await turns();
    expect(chunks().map((c) => [c.at, c.length])).toEqual([
      [0, CH],
      [CH, CH],
    ]);
    expect(reads).toEqual([CH, CH]);
    send({ type: 'give', buffers: chunks().map((c) => c.buffer) });
    send({ type: 'until', until: 3 * CH });
    await turns();
    const third = chunks().at(-1);
    expect([third.at, third.fresh]).toEqual([2 * CH, true]);
    expect(bytesOf(third)).toEqual(bytes.subarray(2 * CH, 3 * CH));
  });
});
