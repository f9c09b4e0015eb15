import { describe, expect, it } from 'vitest';
import { planFiles } from './multi-file.js';

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
  });
  it('one file, or none', () => {
    expect(names(planFiles(F('x.bin')))).toEqual({ main: 'x.bin', dataFiles: [], sideFiles: [] });
    expect(planFiles([]).main).toBeNull();
  });
});
