import { describe, expect, it } from 'vitest';
import { planCompare } from './compare-files.js';

const f = (name) => ({ name });

describe('planCompare', () => {
  it('pairs two perf.data files, A first by name, with the binary as a side file of both', () => {
    const p = planCompare([f('b.perf.data'), f('mt_work'), f('a.perf.data')]);
    expect(p.a.name).toBe('a.perf.data');
    expect(p.b.name).toBe('b.perf.data');
    expect(p.sideFiles.map((x) => x.name)).toEqual(['mt_work']);
  });
  it('pairs gperftools profiles and XRay logs', () => {
    expect(planCompare([f('cpu.prof'), f('cpu2.prof'), f('calltree_prof')]).sideFiles.map((x) => x.name)).toEqual(['calltree_prof']);
    expect(planCompare([f('xray-log.x.1'), f('xray-log.x.2'), f('instrmap.yaml')]).a.name).toBe('xray-log.x.1');
  });
  it('is no pair for one profile, three profiles, or a perf --threads folder', () => {
    expect(planCompare([f('a.perf.data'), f('mt_work')])).toBeNull();
    expect(planCompare([f('a.perf.data'), f('b.perf.data'), f('c.perf.data')])).toBeNull();
    expect(planCompare([f('data'), f('data.0'), f('data.1')])).toBeNull();
  });
  it('is no pair for a perf.data and its perf archive tarball (perf archive), but pairs two runs that each bring one', () => {
    expect(planCompare([f('perf.data'), f('perf.data.tar.bz2')])).toBeNull();
    const p = planCompare([f('b.perf.data'), f('a.perf.data'), f('perf.data.tar.bz2')]);
    expect(p?.sideFiles.map((x) => x.name)).toEqual(['perf.data.tar.bz2']);
  });
});
