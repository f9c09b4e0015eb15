// The bytes a selection stands for in the hex view (which shows the main file): a record's or a
// field's bytes; a record inside a decompressed stream (perf -z) is its compressed container's, and
// `stream` says where it is in that container's decompressed bytes (the hex pane shows those); a
// record of a perf --threads data.N file has no bytes here (start -1, with a note saying where they are).
import { fileRow, rowLabel } from '../lib/records.js';
import { RecordKind } from '../lib/record-kind.js';
import { fieldAtPath } from '../views/record-tree/tree-model.js';
import { intAt } from '../lib/int-runs.js';

/**
 * @typedef {{start: number, end: number, label: string, note?: string,
 *   stream?: {container: number, start: number, end: number}}} ByteRange start -1: not in this file;
 *   stream: a nested record's (or field's) bytes in its container's decompressed stream
 */

/**
 * @param {any} doc
 * @param {import('./use-selection.js').Selection | null} sel
 * @returns {ByteRange | null}
 */
export function selectionRange(doc, sel) {
  if (!sel) return null;
  if (sel.type === 'bytes') return { start: sel.start, end: sel.end, label: sel.label, note: sel.note };
  if (!doc.records) return null; // on its way (client.js 'tables')
  const { offsets, sizes, kinds, files } = doc.records;
  const labelOf = (/** @type {number} */ row) => rowLabel(doc, row);
  const label = sel.type === 'record' ? labelOf(sel.row) + (sel.inField ? ` · in field ${sel.inField}` : '') : `${labelOf(sel.row)} · ${sel.name}`;
  if (intAt(files, sel.row) !== 0) {
    const where = doc.dataFileNames?.[intAt(files, sel.row) - 1] ?? `data file ${intAt(files, sel.row)}`;
    const off = sel.type === 'field' ? Number(sel.offset) : intAt(offsets, sel.row);
    return { start: -1, end: -1, label, note: `bytes at 0x${off.toString(16)} of ${where}, not of the file shown here` };
  }
  if (sel.type === 'record') {
    const r = fileRow(doc, sel.row);
    if (r < 0) return null;
    const nested = r !== sel.row;
    return {
      start: intAt(offsets, r),
      end: intAt(offsets, r) + intAt(sizes, r),
      label,
      note: nested ? `a record at z+0x${intAt(offsets, sel.row).toString(16)} of the decompressed stream of its ${labelOf(r)} container` : '',
      ...(nested ? { stream: { container: r, start: intAt(offsets, sel.row), end: intAt(offsets, sel.row) + intAt(sizes, sel.row) } } : {}),
    };
  }
  if (intAt(kinds, sel.row) === RecordKind.Nested) {
    const r = fileRow(doc, sel.row);
    if (r < 0) return null;
    const f = fieldAtPath(doc.fieldsCache.get(sel.row)?.fields || [], sel.path);
    const fo = Number(f?.offset ?? sel.offset);
    const fs = Math.max(1, Number(f?.size ?? sel.size) || 1);
    return {
      start: intAt(offsets, r),
      end: intAt(offsets, r) + intAt(sizes, r),
      label: `${labelOf(sel.row)}.${sel.name}`,
      note: `field at z+0x${fo.toString(16)} of the decompressed stream of its ${labelOf(r)} container`,
      stream: { container: r, start: fo, end: fo + fs },
    };
  }
  const f = fieldAtPath(doc.fieldsCache.get(sel.row)?.fields || [], sel.path);
  const off = Number(f?.offset ?? sel.offset);
  const size = Number(f?.size ?? sel.size);
  return { start: off, end: off + Math.max(1, size), label };
}
