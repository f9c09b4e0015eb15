// Record table helpers on the page (all O(log n) or O(depth); the O(n) indexes
// are built in the worker, see worker/record-index.js).
import { RecordKind } from './record-kind.js';

const KIND_NAMES = [
  'header',
  'attr',
  'attr ids',
  'event types',
  'data',
  'record',
  'feature table',
  'feature',
  'payload',
  'nested',
  'unparsed',
];

const PERF_TYPES = {
  1: 'MMAP', 2: 'LOST', 3: 'COMM', 4: 'EXIT', 5: 'THROTTLE', 6: 'UNTHROTTLE', 7: 'FORK',
  8: 'READ', 9: 'SAMPLE', 10: 'MMAP2', 11: 'AUX', 12: 'ITRACE_START', 13: 'LOST_SAMPLES',
  14: 'SWITCH', 15: 'SWITCH_CPU_WIDE', 16: 'NAMESPACES', 17: 'KSYMBOL', 18: 'BPF_EVENT',
  19: 'CGROUP', 20: 'TEXT_POKE', 21: 'AUX_OUTPUT_HW_ID',
  64: 'HEADER_ATTR', 65: 'HEADER_EVENT_TYPE', 66: 'HEADER_TRACING_DATA', 67: 'HEADER_BUILD_ID',
  68: 'FINISHED_ROUND', 69: 'ID_INDEX', 70: 'AUXTRACE_INFO', 71: 'AUXTRACE', 72: 'AUXTRACE_ERROR',
  73: 'THREAD_MAP', 74: 'CPU_MAP', 75: 'STAT_CONFIG', 76: 'STAT', 77: 'STAT_ROUND',
  78: 'EVENT_UPDATE', 79: 'TIME_CONV', 80: 'HEADER_FEATURE', 81: 'COMPRESSED', 82: 'FINISHED_INIT',
  83: 'COMPRESSED2',
};

export function kindName(kind) {
  return KIND_NAMES[kind] ?? `kind ${kind}`;
}

/** Label used until the worker's recordLabel() arrives. */
export function fallbackLabel(kind, type) {
  if (kind === RecordKind.Record || kind === RecordKind.Nested) return PERF_TYPES[type] ?? `type ${type}`;
  if (kind === RecordKind.Attr) return `attr ${type}`;
  if (kind === RecordKind.Feature) return `feature ${type}`;
  return kindName(kind);
}

/** The label of a row: the worker's, else a stand-in until it arrives. */
export function rowLabel(doc, row) {
  return doc.labels.get(row) ?? fallbackLabel(doc.records.kinds[row], doc.records.types[row]);
}

/**
 * Colour category of a row (hex view tints, tree chips):
 * 0 header/metadata, 1 sample, 2 task/mmap, 3 other kernel, 4 user/synthesized, 5 payload, 6 unparsed
 */
export function category(kind, type) {
  switch (kind) {
    case RecordKind.Record:
    case RecordKind.Nested:
      if (type === 9) return 1;
      if (type === 1 || type === 3 || type === 4 || type === 7 || type === 10 || type === 16 || type === 19) return 2;
      if (type >= 64) return 4;
      return 3;
    case RecordKind.Payload:
      return 5;
    case RecordKind.Unparsed:
      return 6;
    default:
      return 0;
  }
}

export const CATEGORY_NAMES = ['metadata', 'sample', 'task/mmap', 'other kernel', 'user/synthesized', 'payload', 'unparsed'];

/** Deepest file-space row covering file offset `off`, or -1. */
export function findRowAt(doc, off) {
  const { records, index } = doc;
  const { leafOffsets, leafMaxEnd, leafOrder, containers, depth } = index;
  const { offsets, sizes } = records;
  let best = -1;
  const better = (r) =>
    best < 0 || depth[r] > depth[best] || (depth[r] === depth[best] && sizes[r] < sizes[best]);
  // last leaf with offset <= off
  let lo = 0;
  let hi = leafOffsets.length - 1;
  let i = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (leafOffsets[mid] <= off) {
      i = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let j = i, steps = 0; j >= 0 && leafMaxEnd[j] > off && steps < 4096; j--, steps++) {
    const r = leafOrder[j];
    if (offsets[r] <= off && off < offsets[r] + sizes[r] && sizes[r] > 0 && better(r)) best = r;
  }
  if (best >= 0) return best;
  for (let k = 0; k < containers.length; k++) {
    const r = containers[k];
    if (offsets[r] <= off && off < offsets[r] + sizes[r] && better(r)) best = r;
  }
  return best;
}

/**
 * Leaves overlapping [a, b) in offset order, as row numbers (for hex shading).
 * @returns {number[]}
 */
export function leavesInRange(doc, a, b) {
  const { records, index } = doc;
  const { leafOffsets, leafMaxEnd, leafOrder } = index;
  const { offsets, sizes } = records;
  // first leaf with offset >= b, then walk back while something may still reach a
  let lo = 0;
  let hi = leafOffsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (leafOffsets[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let j = lo - 1, steps = 0; j >= 0 && leafMaxEnd[j] > a && steps < 8192; j--, steps++) {
    const r = leafOrder[j];
    if (offsets[r] + sizes[r] > a && sizes[r] > 0) out.push(r);
  }
  out.reverse();
  return out;
}

/** The row whose bytes represent `row` in the file (Nested rows -> their file-space ancestor). */
export function fileRow(doc, row) {
  const { kinds, parents } = doc.records;
  let r = row;
  let guard = 0;
  while (r >= 0 && kinds[r] === RecordKind.Nested && guard++ < 256) r = parents[r];
  return r;
}

/** Ancestors of `row`, outermost first (excluding the row). */
export function ancestors(doc, row) {
  const { parents } = doc.records;
  const out = [];
  let p = parents[row];
  let guard = 0;
  while (p >= 0 && guard++ < 256) {
    out.push(p);
    p = parents[p];
  }
  return out.reverse();
}

export function childCount(doc, row) {
  const { kidsStart } = doc.index;
  const slot = row < 0 ? doc.records.parents.length : row;
  return kidsStart[slot + 1] - kidsStart[slot];
}
