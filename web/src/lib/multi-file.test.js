import { describe, expect, it } from 'vitest';
import { chosenFolder, FOLDER_LIMITS, namedSideFile, planFiles, worthOffering } from './multi-file.js';

const F = (...names) => names.map((name) => ({ name }));
const names = (p) => ({ main: p.main?.name ?? null, dataFiles: p.dataFiles.map((f) => f.name), sideFiles: p.sideFiles.map((f) => f.name) });

describe('planFiles', () => {
  it('perf --threads directory: data + data.N in numeric order, the rest side files', () => {
    expect(names(planFiles(F('data.10', 'data.1', 'calltree', 'data', 'data.0', 'data.2')))).toEqual({
      main: 'data',
      dataFiles: ['data.0', 'data.1', 'data.2', 'data.10'],
      sideFiles: ['calltree'],
    });
  });
  it('a profile with a binary, a jitdump and an XRay map', () => {
    expect(names(planFiles(F('jit-123.dump', 'app', 'perf.data')))).toEqual({ main: 'perf.data', dataFiles: [], sideFiles: ['jit-123.dump', 'app'] });
    expect(names(planFiles(F('instrmap.yaml', 'xray-log.app.abc')))).toEqual({ main: 'xray-log.app.abc', dataFiles: [], sideFiles: ['instrmap.yaml'] });
  });
  it('a perf archive tarball is a side file, whichever order the files come in', () => {
    for (const tar of ['perf.data.tar.bz2', 'perf.data.tar.gz', 'perf.data.tar.xz', 'perf.data.tar.zst', 'perf.data.tar']) {
      expect(names(planFiles(F(tar, 'perf.data')))).toEqual({ main: 'perf.data', dataFiles: [], sideFiles: [tar] });
      expect(names(planFiles(F('perf.data', tar, 'libc.so.6')))).toEqual({ main: 'perf.data', dataFiles: [], sideFiles: [tar, 'libc.so.6'] });
    }
    expect(names(planFiles(F('kallsyms', 'perf.data')))).toEqual({ main: 'perf.data', dataFiles: [], sideFiles: ['kallsyms'] });
    expect(names(planFiles(F('perf-22503.map', 'perf.data')))).toEqual({ main: 'perf.data', dataFiles: [], sideFiles: ['perf-22503.map'] });
  });
  it('one file, or none', () => {
    expect(names(planFiles(F('x.bin')))).toEqual({ main: 'x.bin', dataFiles: [], sideFiles: [] });
    expect(planFiles([]).main).toBeNull();
  });
  it("a side folder's files are side files, never the profile, and keep their paths", () => {
    const folder = [
      { name: 'perf.data', profscopeFolder: 'cache', profscopePath: 'cache/x/perf.data' },
      { name: 'elf', profscopeFolder: 'cache', profscopePath: 'cache/opt/prog/e49c/elf' },
    ];
    const p = planFiles([...folder, { name: 'perf.data' }]);
    expect(names(p)).toEqual({ main: 'perf.data', dataFiles: [], sideFiles: ['perf.data', 'elf'] });
    expect(p.main).not.toBe(folder[0]);
    expect(p.sideFiles.map((f) => namedSideFile(/** @type {any} */ (f)))).toEqual([
      { file: folder[0], name: 'cache/x/perf.data', folder: 'cache' },
      { file: folder[1], name: 'cache/opt/prog/e49c/elf', folder: 'cache' },
    ]);
    expect(namedSideFile(/** @type {any} */ ({ name: 'libc.so.6' }))).toEqual({ file: { name: 'libc.so.6' }, name: 'libc.so.6' });
  });
});

describe('worthOffering (a side folder file, by its first bytes)', () => {
  const b = (...v) => new Uint8Array(v);
  it('ELF, compressed files and tarballs, kallsyms text', () => {
    expect(worthOffering(b(0x7f, 0x45, 0x4c, 0x46, 2, 1))).toBe(true);
    expect(worthOffering(b(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0))).toBe(true); // ext4.ko.xz
    expect(worthOffering(b(0x28, 0xb5, 0x2f, 0xfd))).toBe(true);
    const tar = new Uint8Array(512);
    tar.set([0x75, 0x73, 0x74, 0x61, 0x72], 257);
    expect(worthOffering(tar)).toBe(true);
    expect(worthOffering(new TextEncoder().encode('ffffffff81000000 T _text\nffffffff81000010 T start\n'))).toBe(true);
    expect(worthOffering(new TextEncoder().encode('18c4000 300 Builtin:DeoptimizationEntry_Eager\n'))).toBe(true); // a perf map
  });
  it('not a perf.data, a text file or an empty file', () => {
    expect(worthOffering(new TextEncoder().encode('PERFILE2'))).toBe(false);
    expect(worthOffering(new TextEncoder().encode('hello world\n'))).toBe(false);
    expect(worthOffering(new Uint8Array(0))).toBe(false);
  });
});

describe('chosenFolder (<input webkitdirectory>: files flat, with webkitRelativePath)', () => {
  const ELF = [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1];
  const chosen = (rel, bytes) => {
    const f = new File([new Uint8Array(bytes)], rel.split('/').pop());
    Object.defineProperty(f, 'webkitRelativePath', { value: rel });
    return f;
  };
  it('offers the ELF files of the folder in path order, with their paths, and says what it offered', async () => {
    const out = await chosenFolder([
      chosen('cache/z/elf', ELF),
      chosen('cache/.build-id/e4/9c20', ELF),
      chosen('cache/notes.txt', [...new TextEncoder().encode('hello')]),
    ]);
    expect(out.map((f) => f.profscopePath)).toEqual(['cache/.build-id/e4/9c20', 'cache/z/elf']);
    expect(out.every((f) => f.profscopeFolder === 'cache')).toBe(true);
    expect(out.sideFolders).toEqual([{ folder: 'cache', capped: false, offered: 2 }]);
    expect(namedSideFile(out[0])).toMatchObject({ name: 'cache/.build-id/e4/9c20', folder: 'cache' });
    // planFiles keeps them as side files, never the profile
    expect(planFiles([{ name: 'perf.data' }, ...out]).sideFiles.map((f) => f.name)).toEqual(['9c20', 'elf']);
  });
  it('the walk limits of a dropped folder: files past the depth limit and past the file limit are left, and it says so', async () => {
    const deep = `d/${Array(FOLDER_LIMITS.depth + 1).fill('x').join('/')}/elf`;
    let out = await chosenFolder([chosen(deep, ELF), chosen('d/elf', ELF)]);
    expect(out.map((f) => f.profscopePath)).toEqual(['d/elf']);
    expect(out.sideFolders).toEqual([{ folder: 'd', capped: true, offered: 1 }]);
    const many = Array.from({ length: FOLDER_LIMITS.files + 3 }, (_, i) => chosen(`m/${String(i).padStart(4, '0')}.so`, ELF));
    out = await chosenFolder(many);
    expect(out.length).toBe(FOLDER_LIMITS.files);
    expect(out.sideFolders).toEqual([{ folder: 'm', capped: true, offered: FOLDER_LIMITS.files }]);
  });
});
