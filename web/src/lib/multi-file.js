// Which of several dropped / chosen files is the profile, which are its extra data files
// (perf record --threads: `data` + `data.N`), and which are side files (a program binary,
// jit-PID.dump, an `llvm-xray extract` YAML map) handed to the core before decode().

// perf archive tarballs (perf.data.tar.bz2 etc.) and kallsyms texts are side files, though their
// names start with "perf" or end in ".data..." like a profile.
export const SIDE = /(^jit-.*\.dump$)|(\.ya?ml$)|(\.so(\.\d+)*$)|(\.debug$)|(\.(elf|bin|exe)$)|(\.(tar|tgz|tbz2|txz)$)|(\.tar\.(gz|bz2|xz|zst)$)|(kallsyms)/i;
export const PROFILE = /(^data$)|(\.data$)|(^perf)|(\.(perf|prof|pprof|pb|pb\.gz|trace|log|xray)$)|(^xray-log)/i;

/**
 * @template {{name: string, size?: number}} F
 * @param {F[]} files (name = base name)
 * @returns {{main: F|null, dataFiles: F[], sideFiles: F[]}}
 */
export function planFiles(files) {
  const list = files.filter(Boolean);
  if (!list.length) return { main: null, dataFiles: [], sideFiles: [] };
  const dataN = (f) => {
    const m = /^data\.(\d+)$/.exec(f.name);
    return m ? Number(m[1]) : -1;
  };
  let main = list.find((f) => f.name === 'data') || null;
  if (!main) main = list.find((f) => dataN(f) < 0 && !SIDE.test(f.name) && PROFILE.test(f.name)) || null;
  if (!main) main = list.find((f) => dataN(f) < 0 && !SIDE.test(f.name)) || list[0];
  const dataFiles = main.name === 'data' ? list.filter((f) => dataN(f) >= 0).sort((a, b) => dataN(a) - dataN(b)) : [];
  const sideFiles = list.filter((f) => f !== main && !dataFiles.includes(f));
  return { main, dataFiles, sideFiles };
}

/** Files of a drop, folders walked (webkitGetAsEntry), with base names. */
export async function droppedFiles(dataTransfer) {
  const items = Array.from(dataTransfer?.items || []);
  const entries = items.map((it) => (it.kind === 'file' && it.webkitGetAsEntry ? it.webkitGetAsEntry() : null));
  if (!entries.some((e) => e && e.isDirectory)) return Array.from(dataTransfer?.files || []);
  const out = [];
  const walk = async (entry, depth) => {
    if (!entry) return;
    if (entry.isFile) {
      out.push(await new Promise((res, rej) => entry.file(res, rej)));
    } else if (entry.isDirectory && depth < 3) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const e of batch) await walk(e, depth + 1);
      }
    }
  };
  for (const e of entries) await walk(e, 0);
  return out;
}
