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
 * Returns { read, size, close }: read(offset, length) returns the bytes (valid until the next
 * read); read(offset, length, into) writes them into the Uint8Array `into` and returns how many.
 */
export function fileReader(file) {
  const fd = fs.openSync(file, 'r');
  const st = fs.fstatSync(fd);
  if (!st.isDirectory() && (!st.isFile() || st.size === 0)) {
    // A file that does not say its size (/proc/kallsyms, a pipe): read whole, once.
    let bytes;
    try {
      bytes = fs.readFileSync(fd);
    } catch {
      bytes = Buffer.alloc(0);
    }
    fs.closeSync(fd);
    const all = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    return {
      read: (offset, length) => {
        const start = Math.max(0, Math.min(Number(offset), all.length));
        return all.slice(start, Math.min(all.length, start + Math.max(0, Number(length))));
      },
      size: all.length,
      close: () => {},
    };
  }
  const size = st.isDirectory() ? 0 : st.size; // (as the native host: a directory has no bytes to read)
  // The module gives a view of where the bytes go in its heap (`into`): they are read there, with
  // no copy in between, and the count returned. Without one, one buffer serves every read (a
  // fresh 4 MiB buffer per read cost a page fault per page, 1 GB of them for a 1 GB file).
  let scratch = Buffer.alloc(0);
  const read = (offset, length, into) => {
    const start = Math.max(0, Math.min(Number(offset), size));
    const len = Math.max(0, Math.min(Number(length), size - start, into ? into.length : Infinity));
    if (!into && scratch.length < len) scratch = Buffer.allocUnsafe(len);
    const buf = into ?? scratch;
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
    return into ? got : new Uint8Array(buf.buffer, buf.byteOffset, got);
  };
  let open = true;
  return {
    read,
    size,
    close: () => {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}

/**
 * Opens and decodes one file (or, given an array, one recording made of
 * several files: the main one first, then its data.N files, named by their
 * base names). Returns { mod, session, ok, close }: `ok` is what decode()
 * returned; call close() when done (deletes the session, closes the file; the
 * file stays open until then because a session may read lazily).
 */
export async function openSession(file, { name, progress, side = [], options = [] } = {}) {
  const mod = await loadProfscope();
  const inputs = Array.isArray(file)
    ? file.map((p, i) => ({ path: p, name: i === 0 ? p : p.slice(p.lastIndexOf('/') + 1) }))
    : [{ path: file, name: name ?? String(file) }];
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

// strerror() texts of the errors opening a file can give, so that the WASM
// CLI's messages read as the native one's.
const ERRNO_TEXT = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  EROFS: 'Read-only file system',
  ENOSPC: 'No space left on device',
};

/**
 * The files of this machine for the command line of the WASM module
 * (wasm/cli_bindings.cc's host), with stdout/stderr going to the given
 * callbacks (Uint8Array chunks). Returns { host, close } (close() closes
 * every file the command line opened).
 */
export function nodeCliHost({ stdout, stderr }) {
  const opened = [];
  const host = {
    open(path) {
      try {
        const r = fileReader(path);
        opened.push(r);
        return { read: r.read, size: r.size, close: r.close };
      } catch (e) {
        return { error: ERRNO_TEXT[e.code] ?? String(e.message) };
      }
    },
    // this process's [vdso] mapping (the running kernel's vdso, as the native CLI reads its own)
    vdso() {
      try {
        const m = /^([0-9a-f]+)-([0-9a-f]+) .*\[vdso\]$/m.exec(fs.readFileSync('/proc/self/maps', 'utf8'));
        if (!m) return null;
        const start = parseInt(m[1], 16), end = parseInt(m[2], 16);
        if (!(end > start) || end - start > 1 << 20) return null;
        const buf = Buffer.alloc(end - start);
        const fd = fs.openSync('/proc/self/mem', 'r');
        try {
          if (fs.readSync(fd, buf, 0, buf.length, start) !== buf.length) return null;
        } finally {
          fs.closeSync(fd);
        }
        const all = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
        return {
          read: (offset, length) => all.slice(Math.min(Number(offset), all.length), Math.min(all.length, Number(offset) + Number(length))),
          size: all.length,
        };
      } catch {
        return null;
      }
    },
    isDirectory(path) {
      try {
        return fs.statSync(path).isDirectory();
      } catch {
        return false;
      }
    },
    list(dir) {
      try {
        return fs.readdirSync(dir);
      } catch {
        return [];
      }
    },
    writeFile(path, bytes) {
      try {
        fs.writeFileSync(path, bytes);
        return '';
      } catch (e) {
        return ERRNO_TEXT[e.code] ?? String(e.message);
      }
    },
    stdout,
    stderr,
  };
  return { host, close: () => opened.splice(0).forEach((r) => r.close()) };
}

/**
 * Runs `profscope ARGS...` in the WASM module (the same command line as the
 * native CLI: core/api/cli.cc). Resolves to { stdout: Buffer, stderr: string,
 * status }.
 */
export async function runCli(args) {
  const mod = await loadProfscope();
  const out = [];
  const err = [];
  const { host, close } = nodeCliHost({
    stdout: (b) => out.push(Buffer.from(b)),
    stderr: (b) => err.push(Buffer.from(b)),
  });
  try {
    const status = mod.runCli(args, host);
    return { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), status };
  } finally {
    close();
  }
}
