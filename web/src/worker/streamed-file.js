// @ts-check
// A file's bytes in the decoding worker while the decode runs in steps (Session.decodeStart): a
// second worker (read-ahead-worker.js) reads the file ahead of the decode and hands the chunks over, so
// reading and decoding overlap (FileReaderSync alone, on the decode's thread, would wait for every read:
// 1 GB takes ~1.5-2.6 s to read in headless chromium). The decode pauses (shouldPause) when the bytes it
// will want next have not arrived yet, or every `yieldMs`, so the worker's event loop takes in the chunks
// and hears a Cancel; resumeAt() waits for the bytes and says how far to read next. Reads the chunks do not
// cover (the header, the feature sections at the end, fields opened later) go to FileReaderSync directly.
// The read-ahead worker is spawned at once and starts reading at the first pause, i.e. only for a decoder
// that pauses (perf.data, XRay logs); others read through file-reader.js alone. streamedFiles() does this
// for the main file and a perf --threads recording's data.N files, one after another.
import { READ_AHEAD, readerOf } from './file-reader.js';

/** Bytes per chunk the read-ahead worker reads and hands over. */
export const CHUNK = 16 << 20;
/** How far past the paused decode the file is read (the chunks in flight stay within this). */
export const AHEAD = 64 << 20;
/**
 * How far past the offset it is asked at the decode may read before it is asked again: the pause
 * interval (1 MiB), the decoder's 4 MiB window, a record.
 */
export const NEED = 6 << 20;

/** @returns {Worker | null} */
function spawnReader() {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('./read-ahead-worker.js', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

/** A macrotask turn of the event loop (a MessageChannel message: no timer clamping). */
function nextTurn(/** @type {() => void} */ fn) {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(fn, 0);
    return;
  }
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    fn();
  };
  ch.port2.postMessage(0);
}

/**
 * @param {Blob} blob
 * @param {{chunk?: number, ahead?: number, need?: number, yieldMs?: number, stallMs?: number, spawn?: () => any,
 *   reader?: {readAsArrayBuffer(b: Blob): ArrayBuffer}}} [opts]
 */
export function streamedFile(blob, { chunk = CHUNK, ahead = AHEAD, need = NEED, yieldMs = 100, stallMs = 2000, spawn, reader } = {}) {
  const size = blob.size;
  /** @type {{at: number, bytes: Uint8Array, own?: boolean}[]} the chunks read ahead, in order, contiguous (own: the
   *   read-ahead worker's buffer, given back once the decode is past it) */
  const chunks = [];
  let arrived = -1; // where the contiguous chunks end (-1: no read-ahead)
  /** @type {any} */
  let worker = null;
  let started = false;
  let failed = false;
  let lastYield = performance.now();
  /** @type {(() => void) | null} */
  let waiting = null;
  // (bench) readAheadFrom: where the read-ahead began (-1: not used); gaveUp: why it was given up
  const stats = { fromChunks: 0, direct: 0, waitMs: 0, pauses: 0, readAheadFrom: -1, gaveUp: '', freshChunks: 0, chunks: 0 };

  // the read-ahead worker's buffers among `list` go back to it, transferred, to be filled again
  const giveBack = (/** @type {{bytes: Uint8Array, own?: boolean}[]} */ list) => {
    const buffers = list.filter((c) => c.own).map((c) => /** @type {ArrayBuffer} */ (c.bytes.buffer));
    if (buffers.length) worker?.postMessage({ type: 'give', buffers }, buffers);
  };
  const wake = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  // the read-ahead failed or stalled: the reads go to FileReaderSync from here on
  const giveUp = (/** @type {string} */ why) => {
    if (!failed) stats.gaveUp = why;
    failed = true;
    wake();
  };

  // spawned now, started at the first pause (a module worker takes a while to start); a worker that
  // fails (its script does not load, a read fails) leaves the reads to FileReaderSync
  // (a file the direct reader reads whole in its first block ahead needs no read-ahead worker)
  worker = spawn ? spawn() : size > READ_AHEAD ? spawnReader() : null;
  // Reads the chunks do not cover. With a read-ahead worker, its first block reads no further than the
  // decode needs before its first pause (a 64 MiB first block was one blocking read, then 64 MB for the
  // garbage collector); without, it reads the file ahead itself.
  const direct = readerOf(blob, worker ? Math.min(READ_AHEAD, need) : READ_AHEAD, reader);
  if (worker) {
    worker.onmessage = (/** @type {MessageEvent} */ e) => {
      const m = e.data || {};
      if (m.type === 'chunk' && m.at === arrived) {
        const bytes = new Uint8Array(m.buffer, 0, Math.min(m.buffer.byteLength, m.length ?? m.buffer.byteLength));
        chunks.push({ at: m.at, bytes, own: true });
        stats.chunks++;
        if (m.fresh) stats.freshChunks++;
        arrived = m.at + bytes.length;
        wake();
      } else if (m.type === 'error' || m.type === 'chunk') {
        giveUp(m.type === 'error' ? `read failed at ${m.at}: ${m.message}` : `chunk at ${m.at}, not ${arrived}`);
      }
    };
    worker.onerror = (/** @type {any} */ e) => giveUp(`worker error: ${e?.message || 'its script did not load'}`);
    worker.onmessageerror = () => giveUp('a chunk could not be read');
  }

  /** @param {number} from */
  function start(from) {
    started = true;
    if (!worker || failed) return;
    // what the direct reader already read ahead is the first chunk
    const b = direct.takeBlock();
    let at = from;
    if (b && b.at <= from && b.at + b.bytes.length > from) {
      chunks.push(b);
      at = b.at + b.bytes.length;
      arrived = at;
    } else {
      arrived = from;
    }
    stats.readAheadFrom = at;
    worker.postMessage({ type: 'start', file: blob, from: at, until: from + ahead, chunk });
  }

  /**
   * read(offset, length, into) for the Session (wasm/js_source.h): from the chunks when they hold the
   * range, copied straight into `into` (the destination in the module's heap; returns the count), else
   * FileReaderSync's bytes.
   * @param {number} offset
   * @param {number} length
   * @param {Uint8Array} [into]
   * @returns {Uint8Array | number}
   */
  function read(offset, length, into) {
    const s = Math.max(0, Math.min(Number(offset), size));
    const e = Math.max(s, Math.min(s + Number(length), size));
    if (e > s && chunks.length && s >= chunks[0].at && e <= arrived) {
      stats.fromChunks += e - s;
      let i = 0;
      while (chunks[i].at + chunks[i].bytes.length <= s) i++;
      const c = chunks[i];
      if (e <= c.at + c.bytes.length && !into) return c.bytes.subarray(s - c.at, e - c.at);
      const out = into && into.length >= e - s ? into : new Uint8Array(e - s);
      for (let pos = s; pos < e; i++) {
        const k = chunks[i];
        const piece = k.bytes.subarray(pos - k.at, Math.min(k.bytes.length, e - k.at));
        out.set(piece, pos - s);
        pos += piece.length;
      }
      return out === into ? e - s : out;
    }
    stats.direct += e - s;
    return direct(s, e - s);
  }

  /**
   * Asked by the decode (at most once per MiB of records): pause now? Yes when the bytes it will read
   * next have not arrived, or it has run `yieldMs` since the last pause (to take in chunks and messages).
   * @param {number} offset
   */
  function shouldPause(offset) {
    // (the read-ahead starts at the first question, whatever the answer: a first pause that came of
    // the time alone once waited for a read-ahead never started, and gave it up 2 s later)
    if (!started) start(offset);
    if (performance.now() - lastYield >= yieldMs) return true;
    return !!worker && !failed && arrived < Math.min(size, offset + need);
  }

  /**
   * The decode paused at `offset`: forget the chunks before it, ask for the file up to offset + ahead,
   * and resolve (at least one turn of the event loop later) once the bytes it needs next are here.
   * @param {number} offset
   */
  function resumeAt(offset) {
    stats.pauses++;
    if (!started) start(offset);
    let past = 0;
    while (past < chunks.length && chunks[past].at + chunks[past].bytes.length <= offset) past++;
    const done = chunks.splice(0, past);
    if (worker && !failed) {
      giveBack(done); // (no new buffer per chunk)
      worker.postMessage({ type: 'until', until: offset + ahead });
    }
    const target = Math.min(size, offset + need);
    const t0 = performance.now();
    return new Promise((resolve) => {
      // a read-ahead that hands nothing over for stallMs is given up (the reads go to FileReaderSync)
      const stalled = () => giveUp(`nothing arrived for ${stallMs} ms (at ${arrived}, waiting for ${target})`);
      let stall = setTimeout(stalled, stallMs);
      let seen = arrived;
      const check = () => {
        if (!worker || failed || arrived >= target || stopped) {
          clearTimeout(stall);
          const now = performance.now();
          stats.waitMs += now - t0;
          lastYield = now;
          resolve(undefined);
        } else {
          if (arrived !== seen) {
            seen = arrived;
            clearTimeout(stall);
            stall = setTimeout(stalled, stallMs);
          }
          waiting = check;
        }
      };
      nextTurn(check);
    });
  }

  let stopped = false;
  return {
    read,
    shouldPause,
    resumeAt,
    stats,
    /** Stops waiting for bytes (a Cancel arrived). */
    interrupt() {
      stopped = true;
      wake();
    },
    close() {
      // the chunks' buffers go back to the read-ahead worker, which ends: their memory is freed with it,
      // not left to this worker's next garbage collection
      giveBack(chunks);
      worker?.terminate();
      worker = null;
      chunks.length = 0;
      wake();
    },
  };
}

/** The data files read ahead in workers of their own, at most: the others are read directly (each costs a worker). */
export const DATA_READ_AHEAD_FILES = 4;

/**
 * The main file and a perf --threads recording's data.N files (file k is blobs[k], as Session.pausedFile
 * numbers them), each read ahead by a streamedFile of its own, made when the decode first reads it. The
 * decode reads the main file, then the data files in turns (2 MiB of each in order, as perf does:
 * PerfTokenizer::DataFiles), so every data file keeps its read-ahead until the decode ends; they share
 * what one file's read-ahead would hold (`ahead`, at least twice `need` each), and only the first
 * DATA_READ_AHEAD_FILES data files get a worker.
 * @param {Blob[]} blobs
 * @param {Parameters<typeof streamedFile>[1]} [opts] for each file's streamedFile
 */
export function streamedFiles(blobs, opts) {
  /** @type {(ReturnType<typeof streamedFile> | null)[]} */
  const streams = blobs.map(() => null);
  const need = opts?.need ?? NEED;
  const share = Math.max(2 * need, Math.floor((opts?.ahead ?? AHEAD) / Math.max(1, Math.min(blobs.length - 1, DATA_READ_AHEAD_FILES))));
  const dataOpts = { ...opts, ahead: share, chunk: Math.min(opts?.chunk ?? CHUNK, Math.max(1, Math.floor(share / 2))) };
  let interrupted = false;
  let closed = false;
  /** @param {number} k */
  const streamOf = (k) => {
    const f = k >= 0 && k < blobs.length ? k : 0;
    let st = streams[f];
    if (!st) {
      // (a file first read after close(), by a field opened later, gets no read-ahead worker, which nothing would end)
      const own = f === 0 ? opts : f <= DATA_READ_AHEAD_FILES ? dataOpts : { ...dataOpts, spawn: () => null };
      st = streams[f] = streamedFile(blobs[f], closed ? { ...own, spawn: () => null } : own);
      if (interrupted) st.interrupt();
    }
    return st;
  };
  return {
    /** read(offset, length, into) of file k, for the Session (Session constructor, addDataFile) @param {number} k */
    readerOf: (k) => (/** @type {number} */ offset, /** @type {number} */ length, /** @type {Uint8Array | undefined} */ into) => streamOf(k).read(offset, length, into),
    /** @param {number} offset @param {number} [file] */
    shouldPause: (offset, file = 0) => streamOf(file).shouldPause(offset),
    /** @param {number} offset @param {number} [file] */
    resumeAt: (offset, file = 0) => streamOf(file).resumeAt(offset),
    /** Stops every wait for bytes (a Cancel arrived). */
    interrupt() {
      interrupted = true;
      for (const st of streams) st?.interrupt();
    },
    close() {
      closed = true;
      for (const st of streams) st?.close();
    },
    /** (bench) the files' figures summed; readAheadFrom and gaveUp are the main file's */
    get stats() {
      const sum = { fromChunks: 0, direct: 0, waitMs: 0, pauses: 0, readAheadFrom: streams[0]?.stats.readAheadFrom ?? -1, gaveUp: streams[0]?.stats.gaveUp ?? '', dataFilesReadAhead: 0, chunks: 0, freshChunks: 0 };
      streams.forEach((st, k) => {
        if (!st) return;
        sum.fromChunks += st.stats.fromChunks;
        sum.direct += st.stats.direct;
        sum.waitMs += st.stats.waitMs;
        sum.pauses += st.stats.pauses;
        sum.chunks += st.stats.chunks;
        sum.freshChunks += st.stats.freshChunks;
        if (k > 0 && st.stats.readAheadFrom >= 0) sum.dataFilesReadAhead++;
      });
      return sum;
    },
  };
}
