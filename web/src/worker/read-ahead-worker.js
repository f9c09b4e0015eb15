// @ts-check
// Reads a File ahead of the decode, in a thread of its own (started by streamed-file.js in the decoding
// worker): while the WASM decode runs, the next bytes are read here with FileReaderSync and handed over
// (transferred) as chunks, so reading the file and decoding it overlap. The decoding worker says how far
// it wants the file read ({type:'until'}); this never reads further, so the chunks in flight stay bounded.
//
// decoding worker -> here                        here -> decoding worker
//   {type:'start', file, from, until, chunk}        {type:'chunk', at, buffer}  (buffer transferred)
//   {type:'until', until}                           {type:'error', at, message}
/** @type {Blob | null} */
let blob = null;
let pos = 0;
let until = 0;
let chunk = 8 << 20;
/** @type {FileReaderSync | null} */
let reader = null;

self.onmessage = (/** @type {MessageEvent} */ e) => {
  const m = e.data || {};
  if (m.type === 'start') {
    blob = m.file;
    pos = Math.max(0, Number(m.from) || 0);
    until = Number(m.until) || 0;
    chunk = Math.max(1 << 16, Number(m.chunk) || chunk);
  } else if (m.type === 'until') {
    until = Math.max(until, Number(m.until) || 0);
  }
  pump();
};

function pump() {
  if (!blob) return;
  reader ??= new FileReaderSync();
  const size = blob.size;
  while (pos < size && pos < until) {
    const end = Math.min(size, pos + chunk);
    let buffer;
    try {
      buffer = reader.readAsArrayBuffer(blob.slice(pos, end));
    } catch (err) {
      self.postMessage({ type: 'error', at: pos, message: String(err) });
      blob = null;
      return;
    }
    self.postMessage({ type: 'chunk', at: pos, buffer }, [buffer]);
    pos = end;
  }
}
