import { describe, expect, it } from 'vitest';
import { sizeItem } from './size-item.js';

describe('the Size item', () => {
  it('is the main file alone for a one-file recording', () => {
    expect(sizeItem(2048, 0, 0)).toEqual(['Size', '2.00 KiB', '2,048 bytes']);
  });
  it('adds a perf --threads recording\'s data files, and says how it is made up', () => {
    const [, v, title] = sizeItem(4884, 96016 + 89840, 2);
    expect(v).toBe('186.3 KiB');
    expect(title).toBe('190,740 bytes: 4,884 in the main file, 185,856 in 2 data files');
  });
});
