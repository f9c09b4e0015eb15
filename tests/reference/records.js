// @ts-check
// The record table's type names and composition as the page's worker made them from the table's columns,
// row by row (before the session made them: Session.recordTypeList, recordComposition,
// core/analysis/record_composition.cc): the reference the session's are checked against
// (tests/node/record-composition-parity.test.mjs).
import { intAt } from '../../web/src/lib/int-runs.js';
import { readerOf } from './int-runs-make.js';
import { RecordKind } from '../../web/src/lib/record-kind.js';
import { typeKey } from '../../web/src/worker/derive.js';

/**
 * The type name of every (kind, type) of the table, named by its first row: what the page shows
 * for a row until its own label arrives, and the composition's group names.
 * @param {import('../../web/src/worker/session-columns.js').RecordColumns} records
 * @param {(row: number) => string} nameOf
 * @returns {Map<number, string>} typeKey -> name
 */
export function recordTypeNames(records, nameOf) {
  const { kinds, types } = records;
  const kindAt = readerOf(kinds);
  const typeAt = readerOf(types);
  /** @type {Map<number, string>} */
  const names = new Map();
  let last = -1; // rows come in runs of one type (a perf.data's SAMPLEs): one lookup per run
  for (let r = 0; r < kinds.length; r++) {
    const key = typeKey(kindAt(r), typeAt(r));
    if (key === last) continue;
    last = key;
    if (!names.has(key)) names.set(key, nameOf(r));
  }
  return names;
}

/**
 * @typedef {import('../../web/src/worker/derive.js').CompositionGroup} CompositionGroup
 */

/**
 * Bytes and counts per record kind and type (and per feature section), for the composition
 * dashboard and the record tree's kind filter: one group per (kind, type) named by its first
 * row, sorted by bytes. Containers (data section, feature table) and pieces inside a record are
 * left out (their bytes are counted by their children); `nested` groups (inside a decompressed
 * COMPRESSED stream) are not file bytes.
 * @param {import('../../web/src/worker/session-columns.js').RecordColumns} records
 * @param {Map<number, string>} typeNames recordTypeNames()
 * @returns {CompositionGroup[]}
 */
export function recordComposition(records, typeNames) {
  const { kinds, types, sizes, parents } = records;
  const kindAt = readerOf(kinds);
  const typeAt = readerOf(types);
  const sizeAt = readerOf(sizes);
  const parentAt = readerOf(parents);
  /** @type {Map<number, CompositionGroup>} */
  const groups = new Map();
  /** @type {CompositionGroup | undefined} */
  let g;
  let last = -1; // the group of the row before (rows come in runs of one type)
  let lastParent = -1; // and the kind of the last parent looked at (most rows share theirs)
  let parentKind = -1;
  for (let r = 0; r < kinds.length; r++) {
    const k = kindAt(r);
    if (k === RecordKind.DataSection || k === RecordKind.FeatureTable) continue;
    if (k === RecordKind.Record) {
      const p = parentAt(r);
      if (p !== lastParent) {
        lastParent = p;
        parentKind = p >= 0 ? intAt(kinds, p) : -1;
      }
      if (parentKind === RecordKind.Record) continue;
    }
    const key = typeKey(k, typeAt(r));
    if (key !== last) {
      last = key;
      g = groups.get(key);
    }
    if (!g) {
      g = { label: typeNames.get(key) ?? '', kind: k, type: typeAt(r), count: 0, bytes: 0, nested: k === RecordKind.Nested, first: r };
      groups.set(key, g);
    }
    g.count++;
    g.bytes += sizeAt(r);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count);
}

