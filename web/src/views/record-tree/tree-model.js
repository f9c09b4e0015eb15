// Flattened view of the record tree as a short list of segments, so that a data
// section with millions of records costs O(expanded nodes), not O(rows), to lay out:
//   run:     consecutive children kids[from..to) of one parent slot, all collapsed
//   field:   one decoded field of an expanded record
//   pending: "loading fields…" placeholder
// Item i is found by binary search over segment start positions.
import { kidAt, kidPos, kidsBegin, parentOf, rowCount } from '../../lib/records.js';

/**
 * @typedef {{pos: number, type: 'run', slot: number, from: number, to: number, depth: number}} RunSeg
 * @typedef {{pos: number, type: 'field', row: number, path: string, field: any, depth: number}} FieldSeg
 * @typedef {{pos: number, type: 'pending', row: number, depth: number, text: string}} PendingSeg
 * @typedef {RunSeg | FieldSeg | PendingSeg} Seg
 * @typedef {{type: 'row', row: number, depth: number} | {type: 'field', row: number, path: string, field: any, depth: number} | {type: 'pending', row: number, depth: number, text: string}} Item
 */

export function fieldKey(row, path) {
  return `${row}:${path}`;
}

/**
 * @param {any} doc decoded document (records + index)
 * @param {Set<number>} expanded expanded record rows
 * @param {Map<number, any>} fieldsCache row -> {fields} | {loading: true} | {error}
 * @param {Set<string>} expandedFields fieldKey()s
 */
export function buildFlat(doc, expanded, fieldsCache, expandedFields) {
  const n = rowCount(doc);
  /** @type {Seg[]} */
  const segs = [];
  let pos = 0;

  /** @type {Map<number, number[]>} */
  const byParent = new Map();
  for (const r of expanded) {
    if (r < 0 || r >= n) continue;
    const p = parentOf(doc, r);
    const slot = p >= 0 && p < n ? p : n;
    let list = byParent.get(slot);
    if (!list) byParent.set(slot, (list = []));
    list.push(r);
  }
  for (const list of byParent.values()) list.sort((a, b) => a - b); // (siblings are in row order)

  const emitFields = (row, fields, prefix, depth) => {
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const path = prefix === '' ? String(i) : `${prefix}.${i}`;
      segs.push({ pos: pos++, type: 'field', row, path, field, depth });
      if (field && Array.isArray(field.children) && field.children.length && expandedFields.has(fieldKey(row, path))) {
        emitFields(row, field.children, path, depth + 1);
      }
    }
  };

  const emitRow = (row, depth) => {
    const f = fieldsCache.get(row);
    if (f && Array.isArray(f.fields)) emitFields(row, f.fields, '', depth);
    else if (f && f.error) segs.push({ pos: pos++, type: 'pending', row, depth, text: `could not decode fields: ${f.error}` });
    else segs.push({ pos: pos++, type: 'pending', row, depth, text: 'decoding fields…' });
    emitChildren(row, depth);
  };

  const emitChildren = (slot, depth) => {
    const from = kidsBegin(doc, slot);
    const to = kidsBegin(doc, slot + 1);
    let cur = from;
    const exp = byParent.get(slot) || [];
    for (const r of exp) {
      const k = kidPos(doc, r);
      if (k < cur || k >= to) continue;
      segs.push({ pos, type: 'run', slot, from: cur, to: k + 1, depth });
      pos += k + 1 - cur;
      cur = k + 1;
      emitRow(r, depth + 1);
    }
    if (cur < to) {
      segs.push({ pos, type: 'run', slot, from: cur, to, depth });
      pos += to - cur;
    }
  };

  emitChildren(n, 0);
  return { segs, count: pos, n };
}

/** @returns {Item | null} */
export function itemAt(doc, flat, i) {
  const { segs } = flat;
  if (i < 0 || i >= flat.count) return null;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid].pos <= i) lo = mid;
    else hi = mid - 1;
  }
  const s = segs[lo];
  if (s.type === 'run') return { type: 'row', row: kidAt(doc, s.from + (i - s.pos)), depth: s.depth };
  return s;
}

export function indexOfRow(doc, flat, row) {
  const n = rowCount(doc);
  const p = parentOf(doc, row);
  const slot = p >= 0 && p < n ? p : n;
  const k = kidPos(doc, row);
  for (const s of flat.segs) {
    if (s.type === 'run' && s.slot === slot && s.from <= k && k < s.to) return s.pos + (k - s.from);
  }
  return -1;
}

export function indexOfField(flat, row, path) {
  for (const s of flat.segs) if (s.type === 'field' && s.row === row && s.path === path) return s.pos;
  return -1;
}

/** Field at `path` ("2.0.1") in a fields array. */
export function fieldAtPath(fields, path) {
  let list = fields;
  let f = null;
  for (const part of String(path).split('.')) {
    if (!Array.isArray(list)) return null;
    f = list[Number(part)];
    if (!f) return null;
    list = f.children;
  }
  return f;
}
