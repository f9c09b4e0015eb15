// Record tree: header, attrs, data section, records, feature sections (grouped as
// the record table's parents say), virtualised; expanding a record shows its decoded
// fields. Keyboard: up/down/left/right/enter/home/end.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useVirtual } from '../../lib/virtual.js';
import { formatInt, hex, plural } from '../../lib/format.js';
import { category, rowLabel, ancestors, childCount, kidAt, kidsBegin, parentOf, rowCount } from '../../lib/records.js';
import { RecordKind } from '../../lib/record-kind.js';
import { RecordsPending } from '../../lib/tables-pending.jsx';
import { buildFlat, itemAt, indexOfRow, indexOfField, fieldKey } from './tree-model.js';
import './record-tree.css';
import { intAt } from '../../lib/int-runs.js';
import { typeKeyKind } from '../../worker/derive.js';

const ROW_H = 22;

/**
 * @param {{doc: any, client: any, selection: any, revealNonce: number,
 *   onSelect: (sel: any, opts?: {reveal?: boolean}) => void}} props
 */
export function RecordTree(props) {
  // the record table arrives after the rest of the file (RecordsPending until then)
  return props.doc.records ? <RecordTreeOf {...props} /> : <RecordsPending doc={props.doc} />;
}

/**
 * @param {{doc: any, client: any, selection: any, revealNonce: number,
 *   onSelect: (sel: any, opts?: {reveal?: boolean}) => void}} props
 */
function RecordTreeOf({ doc, client, selection, revealNonce, onSelect }) {
  // narrowing: one record kind (a group of the composition) and/or a text search over labels;
  // when either is set the tree becomes a flat list of the matching rows, in file order
  const [group, setGroup] = useState('all');
  const [query, setQuery] = useState('');
  const [found, setFound] = useState(/** @type {{query:string, rows:Int32Array|null, error?:string}|null} */ (null));
  useEffect(() => {
    setGroup('all');
    setQuery('');
    setFound(null);
  }, [doc]);
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setFound(null);
      return undefined;
    }
    let stale = false;
    const t = setTimeout(() => {
      client
        .searchRecords(q)
        .then((res) => !stale && setFound({ query: q, rows: res.rows }))
        .catch((err) => !stale && !err?.cancelled && setFound({ query: q, rows: new Int32Array(0), error: err.message || String(err) }));
    }, 200);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [query, doc]);
  const filtered = useMemo(() => {
    if (group === 'all' && !found) return null;
    const { kinds, types } = doc.records;
    let rows = found ? found.rows : null;
    if (group !== 'all') {
      const [k, ty] = group.split(':').map(Number);
      const keep = (r) => intAt(kinds, r) === k && intAt(types, r) === ty;
      if (rows) rows = rows.filter(keep);
      else {
        let c = 0;
        for (let r = 0; r < kinds.length; r++) if (keep(r)) c++;
        rows = new Int32Array(c);
        c = 0;
        for (let r = 0; r < kinds.length; r++) if (keep(r)) rows[c++] = r;
      }
    }
    return rows;
  }, [doc, group, found]);
  const [expanded, setExpanded] = useState(() => new Set());
  const [expandedFields, setExpandedFields] = useState(() => new Set());
  const [version, setVersion] = useState(0); // bumps when labels/fields arrive
  const bump = () => setVersion((v) => v + 1);
  const pendingReveal = useRef(false);
  const inflightLabels = useRef(new Set());

  // fresh state for each document
  useEffect(() => {
    const open = defaultExpanded(doc);
    setExpanded(new Set(open));
    setExpandedFields(new Set());
    inflightLabels.current = new Set();
    for (const r of open) ensureFields(r);
  }, [doc]);

  const tree = useMemo(
    () => buildFlat(doc, expanded, doc.fieldsCache, expandedFields),
    [doc, expanded, expandedFields, version],
  );
  const flat = filtered ? { count: filtered.length, rows: filtered } : tree;
  const itemOf = (i) => (filtered ? (i >= 0 && i < filtered.length ? { type: 'row', row: filtered[i], depth: 0 } : null) : itemAt(doc, flat, i));
  const v = useVirtual(flat.count, ROW_H);

  const selIndex = useMemo(() => {
    if (!selection) return -1;
    if (filtered) return selection.type === 'record' || selection.type === 'field' ? sortedIndex(filtered, selection.row) : -1;
    if (selection.type === 'record') return indexOfRow(doc, flat, selection.row);
    if (selection.type === 'field') return indexOfField(flat, selection.row, selection.path);
    return -1;
  }, [doc, flat, selection, filtered]);

  const ensureFields = (row) => {
    const c = doc.fieldsCache.get(row);
    if (c) return;
    doc.fieldsCache.set(row, { loading: true });
    client
      .fields(row)
      .then((res) => {
        doc.fieldsCache.set(row, { fields: Array.isArray(res.fields) ? res.fields : [] });
        if (res.label) doc.labels.set(row, res.label);
        bump();
      })
      .catch((err) => {
        doc.fieldsCache.set(row, { error: err.message || String(err) });
        bump();
      });
  };

  const expandRow = (row, on) => {
    setExpanded((prev) => {
      if (prev.has(row) === on) return prev;
      const next = new Set(prev);
      if (on) next.add(row);
      else next.delete(row);
      return next;
    });
    if (on) ensureFields(row);
  };
  const expandField = (row, path, on) => {
    const key = fieldKey(row, path);
    setExpandedFields((prev) => {
      if (prev.has(key) === on) return prev;
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  };

  // reveal a selection made elsewhere (hex view click, diagnostics)
  useEffect(() => {
    if (!revealNonce || !selection) return;
    const rows = [];
    if (selection.type === 'record') rows.push(...ancestors(doc, selection.row));
    if (selection.type === 'field') rows.push(...ancestors(doc, selection.row), selection.row);
    pendingReveal.current = true;
    if (rows.length) {
      setExpanded((prev) => {
        if (rows.every((r) => prev.has(r))) return prev;
        const next = new Set(prev);
        for (const r of rows) next.add(r);
        return next;
      });
      for (const r of rows) ensureFields(r);
    }
    // a nested field (callchain.[3]): open the fields above it
    if (selection.type === 'field' && typeof selection.path === 'string' && selection.path.includes('.')) {
      const parts = selection.path.split('.');
      const keys = [];
      for (let k = 1; k < parts.length; k++) keys.push(fieldKey(selection.row, parts.slice(0, k).join('.')));
      setExpandedFields((prev) => {
        if (keys.every((key) => prev.has(key))) return prev;
        const next = new Set(prev);
        for (const key of keys) next.add(key);
        return next;
      });
    }
    bump();
  }, [revealNonce]);

  useLayoutEffect(() => {
    if (pendingReveal.current && selIndex >= 0) {
      pendingReveal.current = false;
      v.scrollToIndex(selIndex, 'center');
    }
  }, [selIndex, flat]);

  // labels for the visible rows
  const visibleItems = [];
  for (let i = v.first; i < v.last; i++) {
    const it = itemOf(i);
    if (it) visibleItems.push([i, it]);
  }
  useEffect(() => {
    const want = [];
    for (const [, it] of visibleItems) {
      if (it.type === 'row' && !doc.labels.has(it.row) && !inflightLabels.current.has(it.row)) want.push(it.row);
    }
    if (!want.length) return;
    for (const r of want) inflightLabels.current.add(r);
    client
      .labels(want)
      .then((res) => {
        res.labels.forEach((label, k) => doc.labels.set(res.rows[k], String(label)));
        bump();
      })
      .catch(() => {
        for (const r of want) inflightLabels.current.delete(r);
      });
  });

  const selectIndex = (i) => {
    const it = itemOf(i);
    if (!it) return;
    v.scrollToIndex(i);
    selectItem(it);
  };
  const selectItem = (it) => {
    if (it.type === 'row') onSelect({ type: 'record', row: it.row });
    else if (it.type === 'field') onSelect(fieldSelection(it));
  };

  const isExpandable = (it) => {
    if (filtered) return false;
    if (it.type === 'row') {
      if (childCount(doc, it.row) > 0) return true;
      const c = doc.fieldsCache.get(it.row);
      return !(c && Array.isArray(c.fields) && c.fields.length === 0);
    }
    if (it.type === 'field') return Array.isArray(it.field?.children) && it.field.children.length > 0;
    return false;
  };
  const isExpanded = (it) =>
    it.type === 'row' ? expanded.has(it.row) : it.type === 'field' ? expandedFields.has(fieldKey(it.row, it.path)) : false;
  const toggle = (it, on = !isExpanded(it)) => {
    if (it.type === 'row') expandRow(it.row, on);
    else if (it.type === 'field') expandField(it.row, it.path, on);
  };

  const parentIndex = (it) => {
    if (it.type === 'row') {
      const p = parentOf(doc, it.row);
      return p >= 0 ? indexOfRow(doc, flat, p) : -1;
    }
    if (it.type === 'field') {
      const dot = it.path.lastIndexOf('.');
      return dot < 0 ? indexOfRow(doc, flat, it.row) : indexOfField(flat, it.row, it.path.slice(0, dot));
    }
    return -1;
  };

  const onKeyDown = (e) => {
    const cur = selIndex >= 0 ? selIndex : -1;
    const it = cur >= 0 ? itemOf(cur) : null;
    const page = Math.max(1, Math.floor(v.viewport / ROW_H) - 1);
    switch (e.key) {
      case 'ArrowDown':
        selectIndex(Math.min(flat.count - 1, cur + 1));
        break;
      case 'ArrowUp':
        selectIndex(Math.max(0, cur - 1));
        break;
      case 'PageDown':
        selectIndex(Math.min(flat.count - 1, cur + page));
        break;
      case 'PageUp':
        selectIndex(Math.max(0, cur - page));
        break;
      case 'Home':
        selectIndex(0);
        break;
      case 'End':
        selectIndex(flat.count - 1);
        break;
      case 'ArrowRight':
        if (!it) selectIndex(0);
        else if (isExpandable(it) && !isExpanded(it)) toggle(it, true);
        else if (isExpanded(it)) selectIndex(cur + 1);
        break;
      case 'ArrowLeft':
        if (!it) break;
        if (isExpandable(it) && isExpanded(it)) toggle(it, false);
        else {
          const p = parentIndex(it);
          if (p >= 0) selectIndex(p);
        }
        break;
      case 'Enter':
      case ' ':
        if (it && isExpandable(it)) toggle(it);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const rowTotal = rowCount(doc);
  const groups = doc.composition || [];
  return (
    <div class="record-tree">
      <div class="pane-title">
        <span>Records</span>
        <span class="muted" data-testid="record-count">
          {filtered ? `${formatInt(filtered.length)} of ${plural(rowTotal, 'row')}` : plural(rowTotal, 'row')}
        </span>
        <span class="rt-tools">
          <select aria-label="Record kind" value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
            <option value="all">all kinds ({formatInt(rowTotal)})</option>
            {groups.map((g) => (
              <option key={`${g.kind}:${g.type}`} value={`${g.kind}:${g.type}`}>
                {g.label} ({formatInt(g.count)})
              </option>
            ))}
          </select>
          <input
            type="search"
            aria-label="Search records"
            placeholder="search labels"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && setQuery('')}
          />
        </span>
      </div>
      {found?.error ? <p class="rt-empty muted">search failed: {found.error}</p> : null}
      <div
        class="rt-scroll"
        ref={v.ref}
        onScroll={v.onScroll}
        role="tree"
        aria-label="Record tree"
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-activedescendant={selIndex >= v.first && selIndex < v.last ? `rt-item-${selIndex}` : undefined}
      >
        {flat.count === 0 ? <p class="rt-empty muted">{filtered ? 'No record matches.' : 'No records were decoded from this file.'}</p> : null}
        <div class="rt-spacer" style={{ height: `${v.height}px` }}>
          <div class="rt-rows" style={{ transform: `translateY(${v.top}px)` }}>
            {visibleItems.map(([i, it]) => (
              <TreeRow
                key={i}
                i={i}
                it={it}
                doc={doc}
                selected={i === selIndex}
                expandable={isExpandable(it)}
                expanded={isExpanded(it)}
                onClick={() => selectItem(it)}
                onToggle={() => toggle(it)}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

function fieldSelection(it) {
  return {
    type: 'field',
    row: it.row,
    path: it.path,
    name: it.field?.name ?? '',
    offset: Number(it.field?.offset ?? 0),
    size: Number(it.field?.size ?? 0),
  };
}

function TreeRow({ i, it, doc, selected, expandable, expanded, onClick, onToggle }) {
  const indent = { paddingLeft: `${4 + it.depth * 14}px` };
  const twisty = (
    <span
      class={`rt-twisty${expandable ? '' : ' leaf'}`}
      aria-hidden="true"
      onClick={(e) => {
        e.stopPropagation();
        if (expandable) onToggle();
      }}
    >
      {expandable ? (expanded ? '▾' : '▸') : ''}
    </span>
  );
  if (it.type === 'pending') {
    return (
      <div class="rt-row rt-pending" style={indent} id={`rt-item-${i}`}>
        <span class="rt-twisty leaf" />
        <span class="muted">{it.text}</span>
      </div>
    );
  }
  if (it.type === 'field') {
    const f = it.field || {};
    return (
      <div
        class={`rt-row rt-field${selected ? ' selected' : ''}`}
        style={indent}
        role="treeitem"
        id={`rt-item-${i}`}
        aria-level={it.depth + 1}
        aria-selected={selected ? 'true' : 'false'}
        aria-expanded={expandable ? String(expanded) : undefined}
        data-row={it.row}
        data-path={it.path}
        onClick={onClick}
        onDblClick={expandable ? onToggle : undefined}
      >
        {twisty}
        <span class="rt-label">
          <span class="rt-fname">{String(f.name ?? '')}</span>
          {f.value != null && f.value !== '' ? <span class="rt-fvalue">{String(f.value)}</span> : null}
        </span>
        <span class="rt-off" title={intAt(doc.records.kinds, it.row) === RecordKind.Nested ? 'offset in the decompressed stream' : 'file offset'}>
          {intAt(doc.records.kinds, it.row) === RecordKind.Nested ? 'z+' : ''}
          {hex(f.offset)}
        </span>
        <span class="rt-size">{formatInt(f.size)}</span>
      </div>
    );
  }
  const { offsets, sizes, kinds, types } = doc.records;
  const row = it.row;
  const kind = intAt(kinds, row);
  const label = rowLabel(doc, row);
  const nested = kind === RecordKind.Nested;
  return (
    <div
      class={`rt-row${selected ? ' selected' : ''}`}
      style={indent}
      role="treeitem"
      id={`rt-item-${i}`}
      aria-level={it.depth + 1}
      aria-selected={selected ? 'true' : 'false'}
      aria-expanded={expandable ? String(expanded) : undefined}
      data-row={row}
      onClick={onClick}
      onDblClick={expandable ? onToggle : undefined}
    >
      {twisty}
      <span class={`rt-chip cat${category(kind, intAt(types, row))}`} aria-hidden="true" />
      <span class="rt-label" title={label}>
        {label}
      </span>
      <span class="rt-off" title={nested ? 'offset in the decompressed stream' : 'file offset'}>
        {nested ? 'z+' : ''}
        {hex(intAt(offsets, row))}
      </span>
      <span class="rt-size">{formatInt(intAt(sizes, row))}</span>
    </div>
  );
}

/** Position of `row` in ascending `rows`, or -1. */
function sortedIndex(rows, row) {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid] === row) return mid;
    if (rows[mid] < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Expand the top-level containers that are small enough to be useful right away. */
function defaultExpanded(doc) {
  const { kinds } = doc.records;
  const n = kinds.length;
  const out = [];
  // (the top level is not scanned when the table has no such container: an XRay log's or a pipe-mode
  // perf.data's millions of records are all at the top)
  if (doc.typeNames) {
    const has = (/** @type {number} */ kind) => [...doc.typeNames.keys()].some((key) => typeKeyKind(key) === kind);
    if (!has(RecordKind.DataSection) && !has(RecordKind.FeatureTable)) return out;
  }
  for (let k = kidsBegin(doc, n), end = kidsBegin(doc, n + 1); k < end; k++) {
    const r = kidAt(doc, k);
    if (intAt(kinds, r) === RecordKind.DataSection || intAt(kinds, r) === RecordKind.FeatureTable) {
      // containers are opened without asking for their fields first
      out.push(r);
    }
  }
  return out;
}
