// Which of several dropped / chosen files is the profile, which are its extra data files
// (perf record --threads: `data` + `data.N`), and which are side files (a program binary,
// jit-PID.dump, an `llvm-xray extract` YAML map) handed to the core before decode().

// perf archive tarballs (perf.data.tar.bz2 etc.), kallsyms texts and JIT perf maps
// (perf-PID.map) are side files, though their names start with "perf" or end in ".data..."
// like a profile.
export const SIDE = /(^jit-.*\.dump$)|(\.ya?ml$)|(\.so(\.\d+)*$)|(\.debug$)|(\.(elf|bin|exe)$)|(\.(tar|tgz|tbz2|txz)$)|(\.tar\.(gz|bz2|xz|zst)$)|(kallsyms)|(^perf-\d+\.map$)/i;
export const PROFILE = /(^data$)|(\.data$)|(^perf)|(\.(perf|prof|pprof|pb|pb\.gz|trace|log|xray)$)|(^xray-log)/i;

/**
 * @template {{name: string, size?: number}} F
 * @param {F[]} files (name = base name)
 * @returns {{main: F|null, dataFiles: F[], sideFiles: F[]}}
 */
export function planFiles(files) {
  const all = files.filter(Boolean);
  // a side folder's files (droppedFiles) are symbols, never the profile
  const list = all.filter((f) => !(/** @type {any} */ (f).profscopeFolder));
  const folderFiles = all.filter((f) => /** @type {any} */ (f).profscopeFolder);
  if (!list.length) return { main: null, dataFiles: [], sideFiles: [] };
  const dataN = (f) => {
    const m = /^data\.(\d+)$/.exec(f.name);
    return m ? Number(m[1]) : -1;
  };
  let main = list.find((f) => f.name === 'data') || null;
  if (!main) main = list.find((f) => dataN(f) < 0 && !SIDE.test(f.name) && PROFILE.test(f.name)) || null;
  if (!main) main = list.find((f) => dataN(f) < 0 && !SIDE.test(f.name)) || list[0];
  const dataFiles = main.name === 'data' ? list.filter((f) => dataN(f) >= 0).sort((a, b) => dataN(a) - dataN(b)) : [];
  const sideFiles = [...list.filter((f) => f !== main && !dataFiles.includes(f)), ...folderFiles];
  return { main, dataFiles, sideFiles };
}

// The limits of a side folder's walk: core/api/side_folder.h SideFolderLimits (the CLI's --symbols DIR).
export const FOLDER_LIMITS = { depth: 16, entries: 20000, files: 512 };

/**
 * Whether a side folder's file is worth offering for symbols, from its first bytes (up to 4096),
 * as core/api/side_folder.cc WorthOfferingFromFolder: ELF, a compressed file or tarball, kallsyms,
 * a JIT's perf map.
 * @param {Uint8Array} b
 */
export function worthOffering(b) {
  const at = (/** @type {number[]} */ m, off = 0) => m.every((v, i) => b[off + i] === v);
  if (at([0x7f, 0x45, 0x4c, 0x46])) return true; // ELF
  if (at([0x1f, 0x8b]) || at([0x42, 0x5a, 0x68]) || at([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) || at([0x28, 0xb5, 0x2f, 0xfd])) return true;
  if (b.length >= 512 && at([0x75, 0x73, 0x74, 0x61, 0x72], 257)) return true; // ustar
  // kallsyms: "HEX TYPE NAME" lines; a perf map: "HEX HEX NAME" lines
  const text = new TextDecoder('latin1').decode(b.subarray(0, Math.min(b.length, 256)));
  return /^[0-9a-f]{8,16} [A-Za-z] \S/.test(text) || /^[0-9a-f]{1,16} [0-9a-f]{1,16} \S/i.test(text);
}

/**
 * A side folder's files offered for symbols: those worth offering (worthOffering, by their first
 * bytes; nothing else is read), in the order given, at most FOLDER_LIMITS.files; each keeps its
 * path (`profscopePath` "folder/rel/path", `profscopeFolder`).
 * @param {string} folder
 * @param {{file: () => Promise<File>, path: string}[]} entries
 * @param {boolean} capped whether the walk already stopped at a limit
 * @returns {Promise<{files: File[], info: {folder: string, capped: boolean, offered: number}}>}
 */
async function offerFolder(folder, entries, capped) {
  const files = [];
  for (const e of entries) {
    const file = await e.file();
    const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
    if (!worthOffering(head)) continue;
    if (files.length >= FOLDER_LIMITS.files) {
      capped = true;
      break;
    }
    const a = /** @type {any} */ (file);
    a.profscopeFolder = folder;
    a.profscopePath = e.path;
    files.push(file);
  }
  return { files, info: { folder, capped, offered: files.length } };
}

/**
 * Files of a drop, folders walked (webkitGetAsEntry), with base names. With loose files beside
 * them (the profile), dropped folders are side folders of symbols (a build-id cache, a
 * usr/lib/debug tree, any folder of binaries): offerFolder's files, within FOLDER_LIMITS; the
 * returned array's `sideFolders` says per folder how many files were offered and whether a limit
 * stopped the walk. Folders dropped alone are the recording's folder (its files flattened, as
 * before), except those after the first one holding a profile; with `profileOpen` (a profile is
 * open and more files are dropped on it), folders dropped alone that hold no profile are side
 * folders too.
 * @param {boolean} [profileOpen]
 * @returns {Promise<File[] & {sideFolders?: {folder: string, capped: boolean, offered: number}[]}>}
 */
export async function droppedFiles(dataTransfer, profileOpen = false) {
  const items = Array.from(dataTransfer?.items || []);
  const entries = items.map((it) => (it.kind === 'file' && it.webkitGetAsEntry ? it.webkitGetAsEntry() : null));
  if (!entries.some((e) => e && e.isDirectory)) return Array.from(dataTransfer?.files || []);
  const fileOf = (/** @type {any} */ entry) => new Promise((res, rej) => entry.file(res, rej));
  /** Entries of a folder, depth first in name order, bounded. */
  const walk = async (/** @type {any} */ root) => {
    const files = [];
    let seen = 0;
    let capped = false;
    const visit = async (/** @type {any} */ dir, /** @type {number} */ depth) => {
      const reader = dir.createReader();
      const batch = [];
      for (;;) {
        const got = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!got.length) break;
        batch.push(...got);
      }
      batch.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const sub = [];
      for (const e of batch) {
        if (capped) return;
        if (++seen > FOLDER_LIMITS.entries) {
          capped = true;
          return;
        }
        if (e.isDirectory) {
          if (depth + 1 > FOLDER_LIMITS.depth) capped = true;
          else sub.push(e);
        } else if (e.isFile) files.push(e);
      }
      for (const d of sub) await visit(d, depth + 1);
    };
    await visit(root, 0);
    return { files, capped };
  };
  const loose = [];
  const folders = [];
  for (const e of entries) {
    if (!e) continue;
    if (e.isFile) loose.push(await fileOf(e));
    else if (e.isDirectory) folders.push({ entry: e, ...(await walk(e)) });
  }
  /** @type {any} */
  const out = [...loose];
  out.sideFolders = [];
  let recording = loose.length ? -1 : folders.findIndex((f) => f.files.some((e) => e.name === 'data' || (!SIDE.test(e.name) && PROFILE.test(e.name))));
  if (!loose.length && recording < 0 && !profileOpen) recording = 0;
  for (let i = 0; i < folders.length; i++) {
    const f = folders[i];
    if (i === recording) {
      for (const e of f.files) out.push(await fileOf(e));
      continue;
    }
    const folder = f.entry.name;
    const list = f.files.map((/** @type {any} */ e) => ({ file: () => fileOf(e), path: String(e.fullPath || `/${folder}/${e.name}`).replace(/^\/+/, '') }));
    const { files, info } = await offerFolder(folder, list, f.capped);
    out.push(...files);
    out.sideFolders.push(info);
  }
  return out;
}

/**
 * A folder chosen with `<input type="file" webkitdirectory>` as a side folder of symbols: its
 * files come flat, each with `webkitRelativePath` "folder/rel/path"; the same limits and choice
 * as a dropped side folder (offerFolder), in path order.
 * @param {File[]} chosen
 * @returns {Promise<File[] & {sideFolders: {folder: string, capped: boolean, offered: number}[]}>}
 */
export async function chosenFolder(chosen) {
  const rel = (/** @type {File} */ f) => String(/** @type {any} */ (f).webkitRelativePath || f.name);
  const byFolder = new Map();
  for (const f of [...chosen].sort((a, b) => (rel(a) < rel(b) ? -1 : rel(a) > rel(b) ? 1 : 0))) {
    const folder = rel(f).split('/')[0];
    if (!byFolder.has(folder)) byFolder.set(folder, []);
    byFolder.get(folder).push(f);
  }
  /** @type {any} */
  const out = [];
  out.sideFolders = [];
  for (const [folder, files] of byFolder) {
    let capped = files.length > FOLDER_LIMITS.entries;
    const list = [];
    for (const f of files.slice(0, FOLDER_LIMITS.entries)) {
      // segments below the folder: more than FOLDER_LIMITS.depth sub-folders deep is past the walk's limit
      if (rel(f).split('/').length - 2 > FOLDER_LIMITS.depth) {
        capped = true;
        continue;
      }
      list.push({ file: async () => f, path: rel(f) });
    }
    const got = await offerFolder(folder, list, capped);
    out.push(...got.files);
    out.sideFolders.push(got.info);
  }
  return out;
}

/**
 * A side file as the worker takes it: a side folder's file (multi-file.js droppedFiles) with its
 * path and folder, any other by its name.
 * @param {File} f
 */
export function namedSideFile(f) {
  const a = /** @type {any} */ (f);
  return a.profscopeFolder ? { file: f, name: String(a.profscopePath), folder: String(a.profscopeFolder) } : { file: f, name: f.name };
}
