import { describe, expect, it, vi } from 'vitest';
import { DATA_READ_AHEAD_FILES, streamedFile, streamedFiles } from './streamed-file.js';
import { READ_AHEAD } from './file-reader.js';

// A Blob of bytes 0..n-1 (mod 256), a FileReaderSync stand-in counting its calls, and a stand-in for the
// read-ahead worker whose chunks the test hands over itself.
function setup(n) {
  const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7) & 255);
  const blob = new Blob([bytes]);
  const slice = blob.slice.bind(blob);
  blob.slice = (a, e) => Object.assign(slice(a, e), { start: a });
  const direct = [];
  const reader = {
    readAsArrayBuffer(b) {
      direct.push([b.start, b.size]);
      return bytes.slice(b.start, b.start + b.size).buffer;
    },
  };
  const worker = {
    posted: [],
    terminated: false,
    onmessage: null,
    postMessage(m) {
      this.posted.push(m);
    },
    terminate() {
      this.terminated = true;
    },
    // the read-ahead worker's answer: a chunk of the file (in a buffer of `room` bytes: the first `len` hold it)
    chunk(at, len, room = 0) {
      if (!room) return this.onmessage({ data: { type: 'chunk', at, buffer: bytes.slice(at, at + len).buffer } });
      const buffer = new ArrayBuffer(room);
      new Uint8Array(buffer).set(bytes.subarray(at, at + len));
      this.onmessage({ data: { type: 'chunk', at, buffer, length: len } });
      return buffer;
    },
  };
  return { bytes, blob, reader, worker, direct };
}

const settled = async (p) => {
  let done = false;
  p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('streamedFile', () => {
  it('reads ahead from the first pause, serves the decode from the chunks and waits for the bytes it needs', async () => {
    const { bytes, blob, reader, worker, direct } = setup(1000);
    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, spawn: () => worker, reader });
    // the header: before any pause, read directly
    expect(f.read(0, 40)).toEqual(bytes.subarray(0, 40));
    expect(direct.length).toBe(1);
    // the first pause starts the read-ahead where the decode is, up to `ahead` past it
    expect(f.shouldPause(40)).toBe(true); // nothing has arrived yet
    expect(worker.posted[0]).toMatchObject({ type: 'start', file: blob, from: 40, until: 40 + 256, chunk: 64 });
    const waited = f.resumeAt(40);
    expect(await settled(waited)).toBe(false); // waits for 100 bytes past 40
    worker.chunk(40, 64);
    expect(await settled(waited)).toBe(false);
    worker.chunk(104, 64);
    expect(await settled(waited)).toBe(true);
    expect(worker.posted.at(-1)).toEqual({ type: 'until', until: 40 + 256 });
    // reads within a chunk and across chunks come from the chunks, not from FileReaderSync
    expect(f.read(50, 10)).toEqual(bytes.subarray(50, 60));
    expect(f.read(90, 60)).toEqual(bytes.subarray(90, 150));
    expect(direct.length).toBe(1);
    expect(f.stats.fromChunks).toBe(70);
    // into the module's heap: copied straight into the destination, the count returned
    const into = new Uint8Array(60);
    expect(f.read(90, 60, into)).toBe(60);
    expect(into).toEqual(bytes.subarray(90, 150));
    expect(f.read(50, 10, into)).toBe(10);
    expect(into.subarray(0, 10)).toEqual(bytes.subarray(50, 60));
    f.stats.fromChunks -= 70;
    // enough has arrived for the decode at 60: no pause
    expect(f.shouldPause(60)).toBe(false);
    // a read past what arrived, or before the chunks (a feature section, a field), is read directly
    expect(f.read(900, 50)).toEqual(bytes.subarray(900, 950));
    expect(f.read(0, 8)).toEqual(bytes.subarray(0, 8));
    expect(direct.length).toBe(3);
    // chunks before a pause are let go; the read-ahead is asked to go on
    const next = f.resumeAt(120);
    worker.chunk(168, 64);
    expect(await settled(next)).toBe(true);
    expect(worker.posted.at(-1)).toEqual({ type: 'until', until: 120 + 256 });
    expect(f.read(110, 10)).toEqual(bytes.subarray(110, 120)); // the chunk at 104 is kept: it holds 120
    expect(f.read(60, 10)).toEqual(bytes.subarray(60, 70)); // the chunk at 40 is gone: read directly
    expect(direct.length).toBe(4);
    f.close();
    expect(worker.terminated).toBe(true);
  });

  it('pauses every yieldMs so the worker hears messages, and a Cancel ends the wait for bytes', async () => {
    const { blob, reader, worker } = setup(1000);
    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 0, spawn: () => worker, reader });
    f.read(0, 16);
    expect(f.shouldPause(16)).toBe(true);
    const waited = f.resumeAt(16);
    expect(await settled(waited)).toBe(false);
    f.interrupt();
    expect(await settled(waited)).toBe(true);
  });

  it('starts the read-ahead at a first pause that comes of the time alone (it once waited 2 s for a read-ahead never started)', async () => {
    const { bytes, blob, reader, worker } = setup(1000);
    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 0, stallMs: 50, spawn: () => worker, reader });
    expect(f.shouldPause(40)).toBe(true);
    expect(worker.posted[0]).toMatchObject({ type: 'start', from: 40 });
    const waited = f.resumeAt(40);
    worker.chunk(40, 64);
    worker.chunk(104, 64);
    expect(await settled(waited)).toBe(true);
    expect(f.read(50, 100)).toEqual(bytes.subarray(50, 150));
    expect(f.stats).toMatchObject({ readAheadFrom: 40, gaveUp: '', fromChunks: 100 });
    // and a decode whose first question is resumeAt itself
    const b = setup(1000);
    const g = streamedFile(b.blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, stallMs: 50, spawn: () => b.worker, reader: b.reader });
    const w2 = g.resumeAt(8);
    expect(b.worker.posted[0]).toMatchObject({ type: 'start', from: 8 });
    b.worker.chunk(8, 128);
    expect(await settled(w2)).toBe(true);
    expect(g.stats.gaveUp).toBe('');
  });

  it('without a read-ahead worker, or when it fails, reads directly and never waits for bytes', async () => {
    const { bytes, blob, reader, worker, direct } = setup(1000);
    const alone = streamedFile(blob, { need: 100, yieldMs: 1e9, spawn: () => null, reader });
    expect(alone.shouldPause(0)).toBe(false);
    expect(alone.read(0, 1000)).toEqual(bytes);
    expect(await settled(alone.resumeAt(0))).toBe(true);

    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, spawn: () => worker, reader });
    f.shouldPause(0);
    const waited = f.resumeAt(0);
    worker.chunk(500, 64); // not where the read-ahead stands: it is not used from here on
    expect(await settled(waited)).toBe(true);
    expect(f.shouldPause(10)).toBe(false);
    const before = direct.length;
    expect(f.read(0, 100)).toEqual(bytes.subarray(0, 100));
    expect(direct.length).toBe(before + 1);
  });

  it('gives the read-ahead up when its worker fails to start, or hands nothing over for stallMs', async () => {
    const { bytes, blob, reader, worker } = setup(1000);
    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, spawn: () => worker, reader });
    worker.onerror(); // its script did not load
    expect(f.stats.gaveUp).toMatch(/^worker error/);
    expect(f.shouldPause(0)).toBe(false);
    expect(await settled(f.resumeAt(0))).toBe(true);
    expect(f.read(0, 100)).toEqual(bytes.subarray(0, 100));

    const b = setup(1000);
    const g = streamedFile(b.blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, stallMs: 20, spawn: () => b.worker, reader: b.reader });
    expect(g.shouldPause(0)).toBe(true);
    const waited = g.resumeAt(0);
    expect(await settled(waited)).toBe(false);
    await new Promise((r) => setTimeout(r, 40));
    expect(await settled(waited)).toBe(true);
    expect(g.stats.gaveUp).toMatch(/^nothing arrived for 20 ms/);
    expect(g.shouldPause(10)).toBe(false); // from here on, FileReaderSync
  });

  it('hands the block the direct reader read ahead to the chunks, and the read-ahead goes on after it', () => {
    const { bytes, blob, reader, worker } = setup(1000);
    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, spawn: () => worker, reader });
    f.read(0, 8);
    f.read(8, 8); // sequential: the direct reader reads its block ahead, `need` bytes (not all of `ahead`: garbage later)
    expect(f.shouldPause(16)).toBe(true); // 108 bytes are here, not the 100 past 16
    expect(worker.posted[0]).toMatchObject({ type: 'start', from: 108 });
    worker.chunk(108, 64);
    expect(f.read(16, 150)).toEqual(bytes.subarray(16, 166));
    expect(f.stats.fromChunks).toBe(150);
  });
});

describe('the read-ahead buffers', () => {
  it('a chunk is its first `length` bytes; buffers the decode is past go back to be filled again, the rest at close', async () => {
    const { bytes, blob, reader, worker } = setup(1000);
    const f = streamedFile(blob, { chunk: 64, ahead: 256, need: 100, yieldMs: 1e9, spawn: () => worker, reader });
    f.shouldPause(0);
    const a = worker.chunk(0, 64, 64);
    const b = worker.chunk(64, 64, 64);
    const c = worker.chunk(128, 40, 64); // the file's last bytes would be shorter than the buffer
    expect(await settled(f.resumeAt(0))).toBe(true);
    expect(f.read(100, 60)).toEqual(bytes.subarray(100, 160));
    expect(f.read(160, 10)).toEqual(bytes.subarray(160, 170)); // past the chunk at 128's 40 bytes: read directly
    // the decode paused at 130: the chunks at 0 and 64 are done with, and given back (transferred) before the next 'until'
    f.resumeAt(130);
    const give = worker.posted.find((m) => m.type === 'give');
    expect(give.buffers).toEqual([a, b]);
    expect(worker.posted.at(-1)).toEqual({ type: 'until', until: 130 + 256 });
    // close: the chunk still held goes back too, then the worker ends
    f.close();
    expect(worker.posted.filter((m) => m.type === 'give').at(-1).buffers).toEqual([c]);
    expect(worker.terminated).toBe(true);
  });
});

describe('streamedFiles (the main file and perf --threads data.N files)', () => {
  it('reads each file ahead in a worker of its own; the data files, read in turns, keep theirs until the decode ends', async () => {
    const files = [setup(100), setup(1000), setup(1000)];
    const workers = files.map((f) => f.worker);
    let spawned = 0;
    const reader = files[1].reader; // (every setup's bytes follow one pattern: one stand-in FileReaderSync serves all)
    const fs = streamedFiles(
      files.map((f) => f.blob),
      { chunk: 64, ahead: 256, need: 50, yieldMs: 1e9, spawn: () => workers[spawned++], reader },
    );
    const main = fs.readerOf(0);
    const d1 = fs.readerOf(1);
    const d2 = fs.readerOf(2);
    expect(main(0, 16)).toEqual(files[0].bytes.subarray(0, 16));
    expect(spawned).toBe(1); // the main file's, made at its first read; the data files' wait for theirs
    // the decode goes into data file 1: its own read-ahead starts where it pauses, with half of `ahead`
    // (two data files share it) in chunks of at most half of that
    expect(d1(0, 8)).toBeDefined();
    expect(spawned).toBe(2);
    expect(fs.shouldPause(8, 1)).toBe(true);
    expect(workers[1].posted[0]).toMatchObject({ type: 'start', from: 8, until: 8 + 128, chunk: 64 });
    expect(workers[0].posted.length).toBe(0); // the main file's read-ahead is not started by it
    const waited = fs.resumeAt(8, 1);
    expect(await settled(waited)).toBe(false);
    workers[1].chunk(8, 64);
    expect(await settled(waited)).toBe(true);
    expect(d1(20, 30).length).toBe(30);
    expect(fs.stats).toMatchObject({ pauses: 1, dataFilesReadAhead: 1 });
    expect(fs.stats.fromChunks).toBe(30);
    // data file 2's turn: its own read-ahead; data file 1's stays (its next turn comes)
    d2(0, 8);
    expect(workers[1].terminated).toBe(false);
    expect(fs.shouldPause(8, 2)).toBe(true);
    expect(workers[2].posted[0]).toMatchObject({ type: 'start', from: 8 });
    workers[2].chunk(8, 64);
    // data file 1's next turn reads from its chunks
    const before = files[1].direct.length;
    expect(d1(50, 20)).toEqual(files[1].bytes.subarray(50, 70));
    expect(files[1].direct.length).toBe(before);
    // a Cancel ends the wait in whichever file the decode is
    const w2 = fs.resumeAt(100, 2);
    fs.interrupt();
    expect(await settled(w2)).toBe(true);
    fs.close();
    expect(workers.map((w) => w.terminated)).toEqual([true, true, true]);
  });

  it('only the first DATA_READ_AHEAD_FILES data files get a read-ahead worker; each has a share of `ahead`', () => {
    const files = Array.from({ length: DATA_READ_AHEAD_FILES + 2 }, () => setup(1000));
    const made = [];
    const fs = streamedFiles(
      files.map((f) => f.blob),
      { chunk: 64, ahead: 800, need: 50, yieldMs: 1e9, spawn: () => (made.push(setup(1).worker), made.at(-1)), reader: files[0].reader },
    );
    for (let k = 0; k < files.length; k++) fs.readerOf(k)(0, 8);
    expect(made.length).toBe(1 + DATA_READ_AHEAD_FILES);
    for (let k = 1; k <= DATA_READ_AHEAD_FILES; k++) fs.shouldPause(8, k);
    // 800 shared by 4 files: 200 each, in chunks of 64
    expect(made[1].posted[0]).toMatchObject({ type: 'start', from: 8, until: 208, chunk: 64 });
    fs.close();
  });
});

describe('read-ahead workers are made only where they help', () => {
  it('none for a file the direct reader reads whole ahead; one for a bigger file; none for a file first read after close', () => {
    const made = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          made.push(this);
        }
        postMessage() {}
        terminate() {
          this.terminated = true;
        }
      },
    );
    try {
      const small = new Blob([new Uint8Array(1000)]);
      streamedFile(small, { reader: setup(10).reader }).close();
      expect(made.length).toBe(0);
      const big = { size: READ_AHEAD + 1, slice: () => new Blob([]) };
      const f = streamedFile(/** @type {any} */ (big), { reader: setup(10).reader });
      expect(made.length).toBe(1);
      f.close();
      expect(made[0].terminated).toBe(true);
      // a data file the decode never read, read after it (a field opened later): read directly
      const { blob, reader, bytes } = setup(1000);
      const fs = streamedFiles([blob, /** @type {any} */ (big)], { reader });
      fs.readerOf(0)(0, 4);
      fs.close();
      const before = made.length;
      expect(fs.readerOf(0)(10, 4)).toEqual(bytes.subarray(10, 14));
      fs.readerOf(1)(0, 0);
      expect(made.length).toBe(before); // no worker that nothing would end
      expect(fs.shouldPause(0, 1)).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
