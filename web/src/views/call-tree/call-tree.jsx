// Call tree table of a call-node table from the worker (top-down or inverted): total and
// self columns, sortable, expandable (click the triangle, or ←/→ on the selected row),
// virtualised. Used by the Call tree view and twice by the Sandwich view.
import { InlinedTag } from '../../lib/inlined-tag.jsx';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useVirtual } from '../../lib/virtual.js';
import { formatInt, formatPercent } from '../../lib/format.js';
import { visibleRows } from './tree-rows.js';
import './call-tree.css';

const ROW_H = 20;

/**
 * @param {{tree: any, names: string[], matches?: Uint8Array|null, selectedNode?: number,
 *   onSelectNode?: (node: number) => void, label: string, testid?: string, autoExpand?: boolean,
 *   inlined?: Record<number, number>}} props
 */
export function CallTree({ tree, names, matches, selectedNode = -1, onSelectNode, label, testid, autoExpand = true, hoverNode = -1, onHoverNode, inverted = false, formatValue = formatInt, inlined }) {
  const [sort, setSort] = useState({ key: 'total', desc: true });
  const [expanded, setExpanded] = useState(() => new Set([0]));
  // on a new tree: expand the heaviest path a few levels
  useEffect(() => {
    const ex = new Set([0]);
    if (autoExpand && tree.count > 1) {
      let n = 0;
      for (let d = 0; d < 6; d++) {
        let best = -1;
        for (let c = 1; c < tree.count; c++) if (tree.parent[c] === n && (best < 0 || tree.total[c] > tree.total[best])) best = c;
        if (best < 0) break;
        ex.add(best);
        n = best;
      }
    }
    setExpanded(ex);
  }, [tree]);
  // reveal the selected node (expand its ancestors)
  useEffect(() => {
    if (selectedNode < 0 || selectedNode >= tree.count) return;
    let n = tree.parent[selectedNode];
    let changed = false;
    const ex = new Set(expanded);
    while (n >= 0) {
      if (!ex.has(n)) {
        ex.add(n);
        changed = true;
      }
      n = tree.parent[n];
    }
    if (changed) setExpanded(ex);
  }, [selectedNode, tree]);

  const kids = useMemo(() => {
    const k = Array.from({ length: tree.count }, () => []);
    for (let n = 1; n < tree.count; n++) if (tree.total[n] > 0) k[tree.parent[n]].push(n);
    return k;
  }, [tree]);
  const rows = useMemo(() => visibleRows(tree, kids, names, expanded, sort), [tree, kids, names, expanded, sort]);
  const v = useVirtual(rows.length, ROW_H);
  const rootTotal = tree.total[0] || 0;
  const selIndex = rows.indexOf(selectedNode);
  const lastSel = useRef(-1);
  useEffect(() => {
    if (selIndex >= 0 && selectedNode !== lastSel.current) v.scrollToIndex(selIndex, 'nearest');
    lastSel.current = selectedNode;
  }, [selIndex, selectedNode]);

  const toggle = (n) => {
    const ex = new Set(expanded);
    if (ex.has(n)) ex.delete(n);
    else ex.add(n);
    setExpanded(ex);
  };
  const onKey = (e) => {
    if (selIndex < 0) return;
    const n = selectedNode;
    if (e.key === 'ArrowDown' && selIndex + 1 < rows.length) onSelectNode?.(rows[selIndex + 1]);
    else if (e.key === 'ArrowUp' && selIndex > 0) onSelectNode?.(rows[selIndex - 1]);
    else if (e.key === 'ArrowRight') {
      if (!expanded.has(n) && kids[n].length) toggle(n);
    } else if (e.key === 'ArrowLeft') {
      if (expanded.has(n)) toggle(n);
      else if (tree.parent[n] > 0) onSelectNode?.(tree.parent[n]);
    } else if (e.key === '*') {
      const ex = new Set(expanded);
      const st = [n];
      while (st.length) {
        const m = st.pop();
        ex.add(m);
        st.push(...kids[m]);
      }
      setExpanded(ex);
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const head = (key, text) => (
    <th
      scope="col"
      class={`ct-${key}`}
      aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
      onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : key !== 'name' })}
    >
      {text}
      {sort.key === key ? (sort.desc ? ' ▾' : ' ▴') : ''}
    </th>
  );
  const searching = matches && matches.indexOf(1) >= 0;

  return (
    <div class="call-tree" data-testid={testid}>
      <table class="ct-head" aria-hidden="true">
        <thead>
          <tr>
            {head('total', 'Total')}
            {head('self', 'Self')}
            {head('name', 'Function')}
          </tr>
        </thead>
      </table>
      <div class="ct-scroll" ref={v.ref} onScroll={v.onScroll} tabIndex={0} role="treegrid" aria-label={label} onKeyDown={onKey}>
        <div style={{ height: `${v.height}px`, position: 'relative' }}>
          <div style={{ position: 'absolute', left: 0, right: 0, top: `${v.top}px` }}>
            {rows.slice(v.first, v.last).map((n) => {
              const d = tree.depth[n] - 1;
              const has = kids[n].length > 0;
              const open = expanded.has(n);
              const name = String(names[tree.func[n]] ?? '[unknown]');
              const hit = searching && matches[tree.func[n]] === 1;
              return (
                <div
                  key={n}
                  role="row"
                  class={`ct-row${n === selectedNode ? ' sel' : ''}${n === hoverNode ? ' hov' : ''}${hit ? ' match' : ''}`}
                  onMouseEnter={onHoverNode ? () => onHoverNode(n) : undefined}
                  onMouseLeave={onHoverNode ? () => onHoverNode(-1) : undefined}
                  aria-selected={n === selectedNode ? 'true' : 'false'}
                  aria-level={d + 1}
                  aria-expanded={has ? (open ? 'true' : 'false') : undefined}
                  data-node={n}
                  onClick={() => onSelectNode?.(n)}
                >
                  <span class="ct-total" role="gridcell">
                    {formatValue(tree.total[n])} <span class="muted">{formatPercent(tree.total[n], rootTotal)}</span>
                  </span>
                  <span class="ct-self" role="gridcell">
                    {/* inverted: a root's self is its total (samples taken in it); deeper rows are callers */}
                    {inverted ? (d === 0 ? formatValue(tree.total[n]) : '–') : formatValue(tree.self[n])}
                  </span>
                  <span class="ct-name" role="gridcell" style={{ paddingLeft: `${6 + d * 14}px` }} title={name}>
                    <span
                      class="ct-twisty"
                      onClick={(e) => {
                        e.stopPropagation();
                        if (has) toggle(n);
                      }}
                    >
                      {has ? (open ? '▾' : '▸') : ''}
                    </span>
                    <InlinedTag how={inlined?.[tree.func[n]]} />
                    {name}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
        {rows.length === 0 ? <div class="placeholder muted">No samples.</div> : null}
      </div>
    </div>
  );
}
