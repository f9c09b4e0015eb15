// Flame graph (top-down icicle) of one event's samples, drawn on a canvas.
// Click a frame to zoom into it; click the root, press Escape or "Reset zoom" to go back.
import { inlinedText } from '../../lib/inlined-tag.jsx';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useDark } from '../../lib/theme.js';
import { fitCanvas, useElementSize } from '../../lib/element-size.js';
import { drawFlame, hitTest, pathTo, ROW_H } from './flame-draw.js';
import { formatInt, formatPercent, plural } from '../../lib/format.js';
import { formatWeight } from '../filter-bar/weight-switch.jsx';
import './flame-graph.css';

/**
 * @param {{doc: any, analysis?: any, matches?: Uint8Array|null, marked?: Set<number>|null,
 *   selectedNode?: number, onSelectNode?: (node: number) => void, onHoverNode?: (node: number) => void}} props
 * Draws analysis.layout: the worker's aggregation of the filtered, transformed samples (the
 * event is chosen by the filter bar).
 */
export function FlameGraph({ doc, analysis, matches, marked, selectedNode = -1, onSelectNode, onHoverNode, hoverNode = -1 }) {
  const [zoom, setZoom] = useState(0);
  useEffect(() => setZoom(0), [doc, analysis]);
  const layout = analysis ? analysis.layout : null;
  const nameOf = useCallback(
    (i) => {
      if (!layout) return '';
      if (i === 0) return 'all';
      const f = layout.func[i];
      return String(analysis.names[f] ?? '[unknown]');
    },
    [layout, doc, analysis],
  );

  const scrollRef = useRef(null);
  const canvasRef = useRef(null);
  const tipRef = useRef(null);
  const hoverRef = useRef(-1);
  const size = useElementSize(scrollRef);
  const [scrollTop, setScrollTop] = useState(0);
  const dark = useDark();



  const draw = useCallback(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fit = fitCanvas(canvas, size);
    if (!fit) return;
    const { ctx, dpr, cs } = fit;
    drawFlame(ctx, {
      layout,
      nameOf,
      zoom,
      hover: hoverRef.current >= 0 ? hoverRef.current : layout && layout.layoutOf && hoverNode >= 0 ? layout.layoutOf[hoverNode] ?? -1 : -1,
      width: size.w,
      height: size.h,
      scrollTop,
      dpr,
      dark,
      font: `${Math.round(12 * dpr)}px ${cs.fontFamily || 'sans-serif'}`,
      textColor: cs.color || '#000',
      matches: matches || null,
      marked: marked || null,
      selected: layout && layout.layoutOf && selectedNode >= 0 ? layout.layoutOf[selectedNode] ?? -1 : -1,
    });
  }, [layout, nameOf, zoom, size, scrollTop, dark, matches, marked, selectedNode, hoverNode]);

  useLayoutEffect(() => {
    draw();
  }, [draw]);

  const contentH = layout ? (layout.maxDepth + 1) * ROW_H + 4 : 0;
  const rootTotal = layout ? layout.total_[0] : 0;
  // weighted (XRay time, perf period): values in that unit; else sample counts
  const byCount = !analysis?.weight || analysis.weight === 'samples';
  const amount = (/** @type {number} */ v) => (byCount ? plural(v, 'sample') : formatWeight(v, analysis, doc));

  const nodeAt = (e) => {
    const el = scrollRef.current;
    if (!el || !layout) return -1;
    const rect = el.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top + el.scrollTop;
    return hitTest(layout, zoom, size.w, x, y);
  };

  const showTip = (i, e) => {
    const tip = tipRef.current;
    if (!tip) return;
    if (i < 0) {
      tip.hidden = true;
      return;
    }
    const name = nameOf(i);
    const total = layout.total_[i];
    const self = layout.self[i];
    tip.querySelector('.ft-name').textContent = name;
    tip.querySelector('.ft-samples').textContent = `${amount(total)} (${formatPercent(total, rootTotal)})`;
    tip.querySelector('.ft-self').textContent = `self ${byCount ? formatInt(self) : formatWeight(self, analysis, doc)} (${formatPercent(self, rootTotal)})`;
    // source position (jitdump DEBUG_INFO) of the function, when a side file gave one
    const src = [doc?.funcSources?.[layout.func[i]], inlinedText(doc?.funcInlined?.[layout.func[i]])].filter(Boolean).join(' · ');
    const srcEl = tip.querySelector('.ft-src');
    srcEl.textContent = src;
    srcEl.hidden = !src;
    tip.hidden = false;
    const host = scrollRef.current.parentElement.getBoundingClientRect();
    const tw = tip.offsetWidth;
    const th = tip.offsetHeight;
    let x = e.clientX - host.left + 14;
    let y = e.clientY - host.top + 14;
    if (x + tw > host.width - 4) x = Math.max(4, e.clientX - host.left - tw - 10);
    if (y + th > host.height - 4) y = Math.max(4, e.clientY - host.top - th - 10);
    tip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  };

  const onMove = (e) => {
    const i = nodeAt(e);
    if (i !== hoverRef.current) {
      hoverRef.current = i;
      draw();
      if (onHoverNode && layout?.node) onHoverNode(i >= 0 ? layout.node[i] : -1);
    }
    canvasRef.current.style.cursor = i >= 0 ? 'pointer' : 'default';
    showTip(i, e);
  };
  const onLeave = () => {
    if (hoverRef.current >= 0 && onHoverNode) onHoverNode(-1);
    hoverRef.current = -1;
    draw();
    showTip(-1);
  };
  const onClick = (e) => {
    const i = nodeAt(e);
    if (i < 0) return;
    setZoom(i === 0 ? 0 : i);
    showTip(i, e);
    if (onSelectNode && layout?.node) onSelectNode(layout.node[i]);
  };
  const onKeyDown = (e) => {
    if (e.key === 'Escape' && zoom !== 0) {
      setZoom(0);
      e.preventDefault();
    }
  };

  const zoomPath = layout && zoom > 0 ? pathTo(layout, zoom) : [];

  return (
    <div class="flame-graph" data-marked={marked ? String(marked.size) : '0'} data-selected-node={String(selectedNode)}>
      <div class="flame-toolbar">
        <button type="button" onClick={() => setZoom(0)} disabled={zoom === 0}>
          Reset zoom
        </button>
        <span class="flame-zoom" data-testid="flame-zoom" aria-live="polite">
          {zoom > 0 && layout ? (
            <>
              Zoomed to <b>{nameOf(zoom)}</b> · {amount(layout.total_[zoom])} (
              {formatPercent(layout.total_[zoom], rootTotal)}) · depth {layout.depth[zoom]}
            </>
          ) : (
            <span class="muted">
              {amount(rootTotal)} · click a frame to zoom, Esc to reset
            </span>
          )}
        </span>
        {zoomPath.length > 1 ? (
          <span class="flame-crumbs muted" title={zoomPath.map(nameOf).join(' → ')}>
            {zoomPath.length - 1} frames deep
          </span>
        ) : null}
      </div>
      <div class="flame-body">
        <div
          class="flame-scroll"
          ref={scrollRef}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div class="flame-spacer" style={{ height: `${Math.max(contentH, size.h)}px` }}>
            <canvas
              ref={canvasRef}
              class="flame-canvas"
              style={{ width: `${size.w}px`, height: `${size.h}px` }}
              tabIndex={0}
              role="img"
              aria-label={`Flame graph of ${String(doc.events?.[layout?.event ?? -1]?.name ?? 'samples')}: ${byCount ? plural(rootTotal, 'sample') : `${formatWeight(rootTotal, analysis, doc)} by ${analysis.weight}`}`}
              onMouseMove={onMove}
              onMouseLeave={onLeave}
              onClick={onClick}
              onKeyDown={onKeyDown}
            />
          </div>
        </div>
        <div class="flame-tip" ref={tipRef} role="tooltip" hidden>
          <div class="ft-name" />
          <div class="ft-samples" />
          <div class="ft-self muted" />
          <div class="ft-src mono muted" data-testid="flame-tip-source" hidden />
        </div>
        {!layout || rootTotal === 0 ? <div class="flame-empty muted">No samples in this event.</div> : null}
      </div>
    </div>
  );
}
