// Hex and record selection: what is selected (a record, a field, a byte range), the hex cursor,
// following an offset like a link with a back stack, the field under the pointer in the record
// tree (its bytes light up), and a diagnostic picked from the list. All of it belongs to the open
// document: a new document starts with nothing selected.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { findRowAt } from '../lib/records.js';
import { RecordKind } from '../lib/record-kind.js';
import { fieldAtPath } from '../views/record-tree/tree-model.js';
import { useOwnedState } from './owned-state.js';
import { selectionRange } from './selection-range.js';
import { intAt } from '../lib/int-runs.js';

/**
 * @typedef {{type: 'record', row: number, inField?: string} | {type: 'field', row: number, path: string, name: string, offset: number, size: number}
 *   | {type: 'bytes', start: number, end: number, label: string, note?: string, waitsForRecords?: boolean}} Selection
 *   waitsForRecords: a byte clicked before the record table came (it is clicked again when it comes)
 */

/**
 * @param {any} doc the open document (null while decoding)
 * @param {import('../worker/client.js').DecoderClient} client
 */
export function useSelection(doc, client) {
  const [selection, setSelection] = useOwnedState(doc, () => /** @type {Selection | null} */ (null));
  const [cursor, setCursor] = useOwnedState(doc, () => -1);
  const [backStack, setBackStack] = useOwnedState(doc, () => /** @type {number[]} */ ([]));
  const [hoverRange, setHoverRange] = useOwnedState(doc, () => /** @type {{start: number, end: number} | null} */ (null));
  const [diagSelected, setDiagSelected] = useOwnedState(doc, () => -1);
  const [revealNonce, setRevealNonce] = useState(0);
  const [scrollNonce, setScrollNonce] = useState(0);

  /** Selects; `reveal` also opens the record tree down to it. The hex view scrolls to it. */
  const select = useCallback((/** @type {Selection} */ sel, /** @type {{reveal?: boolean}} */ opts = {}) => {
    setSelection(sel);
    if (opts.reveal) setRevealNonce((n) => n + 1);
    setScrollNonce((n) => n + 1);
  }, []);

  /** A byte clicked: the innermost record over it, and the field the byte is in (the hex status names it). */
  const onByteClick = useCallback(
    (/** @type {number} */ off) => {
      if (!doc) return;
      setCursor(off);
      if (!doc.records) {
        select({ type: 'bytes', start: off, end: off + 1, label: 'the record table is still being indexed', waitsForRecords: true });
        return;
      }
      const row = findRowAt(doc, off);
      if (row < 0) {
        select({ type: 'bytes', start: off, end: off + 1, label: 'no record covers this byte' });
        return;
      }
      select({ type: 'record', row }, { reveal: true });
      if (intAt(doc.records.kinds, row) === RecordKind.Nested) return;
      const named = (/** @type {any[]} */ fields) => {
        const name = fieldNameAt(fields, off);
        if (name) setSelection((cur) => (cur && cur.type === 'record' && cur.row === row ? { ...cur, inField: name } : cur));
      };
      const cached = doc.fieldsCache.get(row);
      if (cached) named(cached.fields);
      else
        client
          .fields(row)
          .then((r) => {
            doc.fieldsCache.set(row, { label: r.label, fields: r.fields });
            doc.labels.set(row, r.label);
            named(r.fields);
          })
          .catch(() => {});
    },
    [doc, select, client],
  );

  // a byte clicked before the record table came: once it is in, the record over that byte is selected
  useEffect(() => {
    if (doc?.records && selection?.type === 'bytes' && selection.waitsForRecords) onByteClick(selection.start);
  }, [doc?.records]);

  // follow an offset like a link, with a back stack
  const onFollow = useCallback(
    (/** @type {number} */ off) => {
      if (!doc || !(off >= 0 && off < doc.size)) return;
      setBackStack((b) => [...b, cursor >= 0 ? cursor : 0]);
      onByteClick(off);
    },
    [doc, cursor, onByteClick],
  );
  const onBack = useCallback(() => {
    if (!backStack.length) return;
    const off = backStack[backStack.length - 1];
    setBackStack(backStack.slice(0, -1));
    onByteClick(off);
  }, [backStack, onByteClick]);

  // hover a decoded field in the record tree: its bytes light up in the hex view
  const onTreeHover = useCallback(
    (/** @type {MouseEvent} */ e) => {
      if (!doc) return;
      const el = /** @type {Element | null} */ (e.target)?.closest?.('.rt-field');
      if (!el) {
        if (hoverRange) setHoverRange(null);
        return;
      }
      const row = Number(el.getAttribute('data-row'));
      if (!doc.records || intAt(doc.records.kinds, row) === RecordKind.Nested || intAt(doc.records.files, row) !== 0) return;
      const f = fieldAtPath(doc.fieldsCache.get(row)?.fields || [], el.getAttribute('data-path'));
      if (!f) return;
      const start = Number(f.offset);
      const end = start + Math.max(1, Number(f.size));
      if (!hoverRange || hoverRange.start !== start || hoverRange.end !== end) setHoverRange({ start, end });
    },
    [doc, hoverRange],
  );

  /** A diagnostic picked in the list: its bytes (clamped to the file). */
  const onPickDiagnostic = useCallback(
    (/** @type {number} */ i, /** @type {any} */ d) => {
      if (!doc) return;
      setDiagSelected(i);
      const size = doc.size;
      const off = Math.max(0, Number(d.offset) || 0);
      const start = Math.min(off, Math.max(0, size - 1));
      const len = Math.max(1, Number(d.length) || 0);
      const end = Math.min(size, Math.max(start + 1, off + len));
      setCursor(start);
      const note = off >= size ? `offset ${'0x' + off.toString(16)} is past the end of the file` : '';
      select({ type: 'bytes', start, end, label: `${String(d.code ?? 'diagnostic')}`, note });
    },
    [doc, select],
  );

  // (a record's bytes are known once the record table has arrived: doc.records)
  const range = useMemo(() => (doc ? selectionRange(doc, selection) : null), [doc, doc?.records, selection, revealNonce]);

  return {
    selection,
    select,
    range,
    cursor,
    setCursor,
    revealNonce,
    scrollNonce,
    onByteClick,
    onFollow,
    onBack,
    canBack: backStack.length > 0,
    hoverRange,
    setHoverRange,
    onTreeHover,
    diagSelected,
    onPickDiagnostic,
  };
}

/**
 * Dotted name of the deepest decoded field covering `off` ("callchain.[3]"), or ''.
 * @param {any[] | undefined} fields
 * @param {number} off
 */
function fieldNameAt(fields, off) {
  let list = fields;
  const names = [];
  for (;;) {
    const f = (list || []).find((x) => off >= Number(x.offset) && off < Number(x.offset) + Math.max(1, Number(x.size)));
    if (!f) break;
    names.push(String(f.name));
    if (!f.children || !f.children.length) break;
    list = f.children;
  }
  return names.join('.');
}
