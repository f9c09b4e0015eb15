// @ts-check
// Reads a File ahead of the decode, in a thread of its own (started by streamed-file.js in the decoding
// worker): while the WASM decode runs, the next bytes are read here and handed over (transferred) as
// chunks, so reading the file and decoding it overlap. The decoding worker says how far it wants the file
// read ({type:'until'}); this never reads further, so the chunks in flight stay bounded. It gives the
// chunks' buffers back once the decode is past them ({type:'give'}), and they are filled again: the file's
// bytes go through the same few buffers (a byte stream read into them, BYOB), not through a new
// ArrayBuffer per chunk that waits for a garbage collection (~70-90 MB of them after a 1 GB file). Where
// the byte stream is not offered, or fails, FileReaderSync reads the rest.
//
// decoding worker -> here                        here -> decoding worker
//   {type:'start', file, from, until, chunk}        {type:'chunk', at, buffer, length}  (buffer transferred;
//   {type:'until', until}                             its first `length` bytes are the file's from `at`)
//   {type:'give', buffers}  (transferred)           {type:'error', at, message}
/** @type {Blob | null} */
let blob = null;
let pos = 0;
let until = 0;
let chunk = 8 << 20;
/** @type {FileReaderSync | null} */
let reader = null;
/** @type {ReadableStreamBYOBReader | null} the file from `pos`, or null: FileReaderSync */
let stream = null;
/** @type {ArrayBuffer[]} buffers given back, of `chunk` bytes */
const pool = [];
let pumping = false;

self.onmessage = (/** @type {MessageEvent} */ e) => {
  const m = e.data || {};
  if (m.type === 'start') {
    blob = m.file;
    pos = Math.max(0, Number(m.from) || 0);
    until = Number(m.until) || 0;
    chunk = Math.max(1 << 16, Number(m.chunk) || chunk);
    stream = byteStream(/** @type {Blob} */ (blob), pos);
  } else if (m.type === 'until') {
    until = Math.max(until, Number(m.until) || 0);
  } else if (m.type === 'give') {
    // (kept only while the stream fills them: FileReaderSync makes its own; never more than the chunks in flight)
    for (const b of m.buffers || []) if (stream && b instanceof ArrayBuffer && b.byteLength === chunk && pool.length < 8) pool.push(b);
  }
  pump();
};

/**
 * A BYOB reader of `b` from `from`, or null where the browser offers none.
 * @param {Blob} b
 * @param {number} from
 */
function byteStream(b, from) {
  try {
    return /** @type {ReadableStreamBYOBReader} */ (b.slice(from).stream().getReader({ mode: 'byob' }));
  } catch {
    return null;
  }
}

async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (blob && pos < blob.size && pos < until) {
      const end = Math.min(blob.size, pos + chunk);
      /** @type {ArrayBuffer} */
      let buffer;
      let length = end - pos;
      const fresh = !pool.length; // (bench) a buffer made for this chunk, not one given back
      if (stream) {
        try {
          buffer = await fill(pool.pop() ?? new ArrayBuffer(chunk), length);
        } catch {
          // (the stream failed: FileReaderSync reads from here, into buffers of its own)
          stream = null;
          pool.length = 0;
          continue;
        }
      } else {
        reader ??= new FileReaderSync();
        try {
          buffer = reader.readAsArrayBuffer(blob.slice(pos, end));
        } catch (err) {
          self.postMessage({ type: 'error', at: pos, message: String(err) });
          blob = null;
          return;
        }
        length = buffer.byteLength;
      }
      self.postMessage({ type: 'chunk', at: pos, buffer, length, fresh }, [buffer]);
      pos += length;
    }
  } finally {
    pumping = false;
  }
}

/**
 * Fills the first `want` bytes of `buffer` from the stream; the buffer (a BYOB read hands it back as a new
 * ArrayBuffer object over the same memory).
 * @param {ArrayBuffer} buffer
 * @param {number} want
 */
async function fill(buffer, want) {
  let got = 0;
  while (got < want) {
    const r = await /** @type {ReadableStreamBYOBReader} */ (stream).read(new Uint8Array(buffer, got, want - got));
    if (r.done || !r.value) throw new Error(`the file ended at ${pos + got}, before ${pos + want}`);
    buffer = r.value.buffer;
    got += r.value.byteLength;
  }
  return buffer;
}
