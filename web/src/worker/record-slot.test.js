// Unit tests of the way back from a call node to its bytes: the frame behind a node, and the
// callchain slot of the sample's record that holds the frame's address (exact 64-bit values).
import { describe, expect, it } from 'vitest';
import { analyze, prepare } from '../../../tests/reference/analysis.js';
import { mappings, profile, strings } from '../../../tests/reference/small-profile.js';
import { nodePath } from './call-nodes.js';
import { callchainSlot, frameAddressFor } from './record-slot.js';

describe('frame behind a call node', () => {
  it('is the frame at the node depth in a plain tree, else the leaf-most of its function', () => {
    const ctx = prepare(profile(), strings, mappings);
    const t = analyze(ctx, {});
    let nb = -1;
    for (let n = 1; n < t.count; n++) if (nodePath(t, n).map((f) => ctx.names[f]).join('>') === 'main>a>b') nb = n;
    // in sample 1 (main>a>b>a) the node main>a>b is frame 2 (0x300); the inner a is 0x210
    expect(frameAddressFor(ctx, t, ctx.profile.sampleStacks[1], nb, true)).toBe(0x300n);
    expect(frameAddressFor(ctx, t, ctx.profile.sampleStacks[1], t.sampleNode[1], true)).toBe(0x210n);
    const outerA = t.parent[nb];
    expect(frameAddressFor(ctx, t, ctx.profile.sampleStacks[1], outerA, true)).toBe(0x200n);
    expect(frameAddressFor(ctx, t, ctx.profile.sampleStacks[1], outerA, false)).toBe(0x210n); // transformed: the leaf-most a
  });
});

describe('callchain slot', () => {
  const fields = [
    { name: 'ip', offset: 8, size: 8, value: '0x55743e196164' },
    {
      name: 'callchain',
      offset: 48,
      size: 40,
      value: '4 entries',
      children: [
        { name: '[0]', offset: 56, size: 8, value: '0xfffffffffffffe00 (context USER)' },
        { name: '[1]', offset: 64, size: 8, value: '0x55743e196164' },
        { name: '[2]', offset: 72, size: 8, value: '0x55743e1961ed' },
        { name: '[3]', offset: 80, size: 8, value: '0xffffffff8a2001c9' },
      ],
    },
  ];
  it('finds the callchain entry holding an address (perf field JSON)', () => {
    expect(callchainSlot(fields, 0x55743e1961edn)).toEqual({ name: 'callchain[2]', offset: 72, size: 8, path: '1.2' });
    expect(callchainSlot([fields[0]], 0x55743e196164n)).toEqual({ name: 'ip', offset: 8, size: 8, path: '0' });
    expect(callchainSlot(fields, 0x1234n)).toBeNull();
  });
  it('compares kernel addresses exactly (doubles would round away their low 11 bits)', () => {
    expect(callchainSlot(fields, 0xffffffff8a2001c9n)?.name).toBe('callchain[3]');
    // an address 0x100 away rounds to the same double, but is another address
    expect(Number(0xffffffff8a2001c9n) === Number(0xffffffff8a2000c9n)).toBe(true);
    expect(callchainSlot(fields, 0xffffffff8a2000c9n)).toBeNull();
  });
  it('finds a --call-graph dwarf frame at its return address slot in the stack copy', () => {
    const dwarf = [
      { name: 'ip', offset: 8, size: 8, value: '0x55d0c1e3a271' },
      {
        name: 'unwound',
        offset: 400,
        size: 8192,
        value: '3 user frames from regs_user and the stack copy (outermost)',
        children: [
          { name: 'frame[0]', offset: 200, size: 8, value: '0x55d0c1e3a271 (the sampled ip, regs_user)' },
          { name: 'frame[1]', offset: 424, size: 8, value: '0x55d0c1e3a2b4 (return address 0x55d0c1e3a2b5 at sp+0x18)' },
          { name: 'frame[2]', offset: 400, size: 0, value: '0x7f00000012ab' },
        ],
      },
    ];
    expect(callchainSlot(dwarf, 0x55d0c1e3a2b4n)).toEqual({ name: 'unwound frame[1]', offset: 424, size: 8, path: '1.1' });
    // the sampled frame: the ip register among the unwound frames comes before the ip field
    expect(callchainSlot(dwarf, 0x55d0c1e3a271n)?.name).toBe('unwound frame[0]');
    // a frame without a slot has no bytes of its own
    expect(callchainSlot(dwarf, 0x7f00000012abn)).toBeNull();
  });
});
