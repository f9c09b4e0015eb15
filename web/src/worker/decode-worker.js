// Decoding worker: owns the WASM module and one Session at a time.
//
// Page -> worker:
//   {type:'open', file: File|Blob, name}
//   {type:'fields', id, row}        -> {type:'fields', id, row, label, fields}
//   {type:'labels', id, rows:[..]}  -> {type:'labels', id, rows, labels}
//   {type:'recordAt', id, offset}   -> {type:'recordAt', id, offset, row}
// Worker -> page:
//   {type:'progress', done, total}  (throttled)
//   {type:'decoded', ...}           (every typed array transferred)
//   {type:'error', id?, message}
// Cancel: the page terminates this worker and starts a new one.
import createProfscope from '@profscope-wasm/profscope_wasm.mjs';
import wasmUrl from '@profscope-wasm/profscope_wasm.wasm?url';
import { buildRecordIndex } from './record-index.js';
import { buildFlames } from './flame-build.js';

/** @type {Promise<any> | null} */
let modulePromise = null;
/** @type {any} */
let mod = null;
/** @type {any} */
let session = null;

function getModule() {
  if (!modulePromise) {
    modulePromise = createProfscope({
      locateFile: (path, prefix) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    }).then((m) => {
      mod = m;
      return m;
    });
    modulePromise.catch(() => {
      modulePromise = null;
    });
  }
  return modulePromise;
}

/** Turns whatever the module threw into a message. */
function errorMessage(err) {
  if (err == null) return 'unknown error';
  if (typeof err === 'number' || typeof err === 'bigint') {
    // A C++ exception pointer (no JS exception support in the build).
    try {
      if (mod && typeof mod.getExceptionMessage === 'function') {
        const m = mod.getExceptionMessage(err);
        return Array.isArray(m) ? m.filter(Boolean).join(': ') : String(m);
      }
    } catch {
      /* fall through */
    }
    return `decoder error (C++ exception ${err})`;
  }
  if (err instanceof Error) return err.message || String(err);
  if (typeof err === 'object' && 'message' in err) return String(err.message);
  return String(err);
}

function parseJson(text, fallback) {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** Calls a getter the module may not have (older builds); returns fallback then. */
function call(obj, name, fallback, ...args) {
  if (typeof obj[name] !== 'function') return fallback;
  return obj[name](...args);
}

function closeSession() {
  if (session) {
    try {
      session.delete();
    } catch {
      /* already deleted */
    }
    session = null;
  }
}

async function open({ file, name }) {
  const m = await getModule();
  closeSession();
  const size = file.size;
  const reader = new FileReaderSync();
  const read = (offset, length) => {
    const start = Math.max(0, Math.min(Number(offset), size));
    const end = Math.max(start, Math.min(start + Number(length), size));
    if (end <= start) return new Uint8Array(0);
    return new Uint8Array(reader.readAsArrayBuffer(file.slice(start, end)));
  };
  session = new m.Session(read, size, name || file.name || 'file');

  let lastPost = 0;
  const progress = (done, total) => {
    const now = Date.now();
    if (now - lastPost >= 50 || done >= total) {
      lastPost = now;
      self.postMessage({ type: 'progress', done: Number(done), total: Number(total) });
    }
  };
  self.postMessage({ type: 'progress', done: 0, total: size });
  const ok = session.decode(progress);
  self.postMessage({ type: 'progress', done: size, total: size });

  const s = session;
  const summary = parseJson(call(s, 'summaryJson', ''), {});
  const info = parseJson(call(s, 'infoJson', ''), {});
  const diagnostics = parseJson(call(s, 'diagnosticsJson', ''), []);
  const events = parseJson(call(s, 'eventsJson', ''), []);
  const threads = parseJson(call(s, 'threadsJson', ''), []);
  const mappings = parseJson(call(s, 'mappingsJson', ''), []);
  const strings = parseJson(call(s, 'stringsJson', ''), []);

  const records = {
    offsets: s.recordOffsets(),
    sizes: s.recordSizes(),
    types: s.recordTypes(),
    kinds: s.recordKinds(),
    parents: s.recordParents(),
  };
  const index = buildRecordIndex(records);

  const profile = {
    funcNames: s.funcNames(),
    funcMappings: call(s, 'funcMappings', new Int32Array(0)),
    frameAddresses: s.frameAddresses(),
    frameFuncs: s.frameFuncs(),
    frameMappings: call(s, 'frameMappings', new Int32Array(0)),
    stackFrames: s.stackFrames(),
    stackPrefixes: s.stackPrefixes(),
    sampleTimes: s.sampleTimes(),
    sampleThreads: s.sampleThreads(),
    sampleCpus: call(s, 'sampleCpus', new Int32Array(0)),
    sampleEvents: s.sampleEvents(),
    sampleWeights: s.sampleWeights(),
    sampleStacks: s.sampleStacks(),
    sampleRecords: s.sampleRecords(),
  };
  // One event row at least so a file without events still gets a (root-only) graph.
  const eventCount = Math.max(events.length, maxPlusOne(profile.sampleEvents));
  const flames = buildFlames(profile, strings, eventCount);

  const msg = {
    type: 'decoded',
    ok: ok !== false,
    name,
    size,
    version: call(m, 'version', ''),
    summary,
    info,
    diagnostics,
    events,
    threads,
    mappings,
    strings,
    records,
    index,
    profile,
    flames,
  };
  self.postMessage(msg, transferables(msg));
}

function maxPlusOne(arr) {
  let mx = -1;
  for (let i = 0; i < arr.length; i++) if (arr[i] > mx) mx = arr[i];
  return mx + 1;
}

/** Every distinct ArrayBuffer under obj (typed arrays only). */
function transferables(obj) {
  const set = new Set();
  const walk = (v) => {
    if (!v || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && v.buffer.byteLength > 0) set.add(v.buffer);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === 'object') walk(x);
      return;
    }
    for (const k of Object.keys(v)) walk(v[k]);
  };
  walk(obj.records);
  walk(obj.index);
  walk(obj.profile);
  walk(obj.flames);
  return [...set];
}

function requireSession() {
  if (!session) throw new Error('no file is open');
  return session;
}

self.onmessage = async (e) => {
  const msg = e.data || {};
  try {
    switch (msg.type) {
      case 'open':
        await open(msg);
        break;
      case 'fields': {
        const s = requireSession();
        const fields = parseJson(s.recordFieldsJson(msg.row), []);
        const label = s.recordLabel(msg.row);
        self.postMessage({ type: 'fields', id: msg.id, row: msg.row, label, fields });
        break;
      }
      case 'labels': {
        const s = requireSession();
        const rows = msg.rows || [];
        const labels = rows.map((r) => s.recordLabel(r));
        self.postMessage({ type: 'labels', id: msg.id, rows, labels });
        break;
      }
      case 'recordAt': {
        const s = requireSession();
        self.postMessage({ type: 'recordAt', id: msg.id, offset: msg.offset, row: s.recordAt(msg.offset) });
        break;
      }
      default:
        throw new Error(`unknown request ${String(msg.type)}`);
    }
  } catch (err) {
    self.postMessage({ type: 'error', id: msg.id, request: msg.type, message: errorMessage(err) });
  }
};
