// Loads build/wasm/profscope_wasm.mjs (built with -sENVIRONMENT=web,worker) in node.
//
// What the Emscripten 3.1.6 glue needs, from reading it:
//  - environment detection is `typeof window == "object"` (web) and
//    `typeof importScripts == "function"` (worker). In node neither is true, so
//    the glue skips its browser-only setup (self.location, XMLHttpRequest);
//    nothing has to be faked on globalThis.
//  - the .wasm is fetched only when `wasmBinary` is absent; handing it the bytes
//    (read with fs) makes it instantiate them directly, with no fetch() of a
//    file path (which node's fetch rejects). locateFile is given too, so any
//    path the glue still computes points at the real file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const defaultWasmDir = path.resolve(here, '..', 'build', 'wasm');

let cached = null;

/**
 * Resolves to the embind module (see wasm/profscope.d.ts). Cached per process.
 * @param {{dir?: string}} [opts] directory holding profscope_wasm.{mjs,wasm}
 */
export function loadProfscope(opts = {}) {
  const dir = opts.dir ?? process.env.PROFSCOPE_WASM_DIR ?? defaultWasmDir;
  if (cached && cached.dir === dir) return cached.promise;
  const glue = path.join(dir, 'profscope_wasm.mjs');
  const wasm = path.join(dir, 'profscope_wasm.wasm');
  const promise = (async () => {
    if (!fs.existsSync(glue) || !fs.existsSync(wasm)) {
      throw new Error(`WASM build missing (${glue}); run: bash scripts/build.sh`);
    }
    const { default: createProfscope } = await import(pathToFileURL(glue).href);
    const wasmBinary = fs.readFileSync(wasm);
    return createProfscope({
      wasmBinary,
      locateFile: (name) => path.join(dir, name),
      print: (s) => process.stdout.write(s + '\n'),
      printErr: (s) => process.stderr.write(s + '\n'),
    });
  })();
  cached = { dir, promise };
  return promise;
}

/**
 * A `read(offset, length)` callback over a file, for `new mod.Session(read, size, name)`.
 * Returns { read, size, close }.
 */
export function fileReader(file) {
  const fd = fs.openSync(file, 'r');
  const size = fs.fstatSync(fd).size;
  const read = (offset, length) => {
    const start = Math.max(0, Math.min(Number(offset), size));
    const len = Math.max(0, Math.min(Number(length), size - start));
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      let n;
      try {
        n = fs.readSync(fd, buf, got, len - got, start + got);
      } catch {
        break; // unreadable (a directory, an I/O error): a short read, like fread
      }
      if (n === 0) break;
      got += n;
    }
    return new Uint8Array(buf.buffer, buf.byteOffset, got);
  };
  return { read, size, close: () => fs.closeSync(fd) };
}

/**
 * The files of one recording, as the native CLI takes them: a perf --threads
 * directory becomes DIR/data then DIR/data.N in numeric order; otherwise the
 * paths as given. Returns [{ path, name }] (name = what the session calls it).
 */
export function expandInputs(paths) {
  if (paths.length === 1 && fs.existsSync(paths[0]) && fs.statSync(paths[0]).isDirectory()) {
    let dir = paths[0];
    while (dir.length > 1 && dir.endsWith('/')) dir = dir.slice(0, -1);
    const parts = fs
      .readdirSync(dir)
      .filter((n) => /^data\.\d+$/.test(n))
      .map((n) => [Number(n.slice(5)), n])
      .sort((a, b) => a[0] - b[0]);
    return [{ path: `${dir}/data`, name: `${dir}/data` }, ...parts.map(([, n]) => ({ path: `${dir}/${n}`, name: n }))];
  }
  return paths.map((p, i) => ({ path: p, name: i === 0 ? p : p.slice(p.lastIndexOf('/') + 1) }));
}

/**
 * Opens and decodes one file (or, given an array, one recording made of
 * several files: see expandInputs). Returns { mod, session, ok, close }: `ok` is what
 * decode() returned; call close() when done (deletes the session, closes the file;
 * the file stays open until then because a session may read lazily).
 */
export async function openSession(file, { name, progress, side = [], options = [] } = {}) {
  const mod = await loadProfscope();
  const inputs = Array.isArray(file) ? expandInputs(file) : [{ path: file, name: name ?? String(file) }];
  const readers = [];
  let session;
  try {
    for (const inp of inputs) readers.push(fileReader(inp.path));
    // name defaults to the path as given, like the native CLI
    session = new mod.Session(readers[0].read, readers[0].size, inputs[0].name);
    for (let i = 1; i < inputs.length; i++) session.addDataFile(readers[i].read, readers[i].size, inputs[i].name);
    for (const sp of side) {
      const r = fileReader(sp);
      readers.push(r);
      session.addSideFile(r.read, r.size, sp);
    }
    // decoder options ([KEY, VALUE] pairs, as --option KEY=VALUE), applied by decode()
    for (const [k, v] of options) session.setOption(k, v);
  } catch (e) {
    if (session) session.delete();
    for (const r of readers) r.close();
    throw e;
  }
  const close = () => {
    try {
      session.delete();
    } finally {
      for (const r of readers) r.close();
    }
  };
  let ok;
  try {
    ok = Boolean(session.decode(progress ?? (() => {})));
  } catch (e) {
    close();
    throw e;
  }
  return { mod, session, ok, close };
}

/**
 * What `profscope COMMAND FILE` prints on stdout and its exit status, from a
 * decoded session: the one place wasm/cli.mjs and the parity tests share.
 *   command: "info" | "records" | "stacks"; opts: { addresses, event }
 * Mirrors cli/main.cc: info prints its JSON even when nothing was decodable;
 * records and stacks print nothing then. status: 0 decoded, 1 nothing decodable.
 */
export function runCommand(session, ok, command, { addresses = false, event = '' } = {}) {
  let stdout = '';
  if (command === 'info') {
    stdout = session.infoJson();
  } else if (ok && command === 'records') {
    stdout = session.recordsText();
  } else if (ok && command === 'events') {
    stdout = session.eventsText();
  } else if (ok && command === 'stacks') {
    stdout = session.stacksText(Boolean(addresses), String(event ?? ''));
  } else if (!['info', 'records', 'stacks', 'events'].includes(command)) {
    throw new Error(`unknown command ${command}`);
  }
  return { stdout, status: ok ? 0 : 1 };
}

/** Messages of the fatal diagnostics (what the native CLI prints on stderr). */
export function fatalMessages(session) {
  try {
    return JSON.parse(session.diagnosticsJson())
      .filter((d) => d.severity === 'fatal')
      .map((d) => d.message);
  } catch {
    return [];
  }
}
