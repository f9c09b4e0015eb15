// Differential flame graph (top-down icicle): widths from B, colour from the change of each
// frame's total (diff-color.js). Frames are elements (at most MAX_FRAMES, those at least a
// pixel wide), so a frame's name is text; hovering one shows both counts, clicking zooms.
import { useMemo, useRef, useState } from 'preact/hooks';
import { useElementSize } from '../../lib/element-size.js';
import { useDark } from '../../lib/theme.js';
import { formatInt } from '../../lib/format.js';
import { deltaText, diffColor } from './diff-color.js';

const ROW_H = 18;
const MAX_FRAMES = 6000;

/** @param {{model: any}} props */
export function DiffFlame({ model }) {
  const scrollRef = useRef(/** @type {HTMLDivElement | null} */ (null));
  const size = useElementSize(scrollRef);
  const dark = useDark();
  const [zoom, setZoom] = useState(0);
  const [tip, setTip] = useState(/** @type {{node: number, x: number, y: number} | null} */ (null));
  const z = zoom < model.parent.length ? zoom : 0;
  const { layout, totalA, totalB, selfA, selfB, func, depth, labels, modules } = model;

  const frames = useMemo(() => {
    const W = Math.max(1, size.w - 2);
    const span = totalB[z] || 1;
    const x0 = layout.x[z];
    const scale = W / span;
    // the zoomed node's ancestors stay as full-width rows above it
    /** @type {Set<number>} */
    const chain = new Set();
    for (let n = z; n > 0; n = model.parent[n]) chain.add(n);
    const out = [];
    const inZoom = (/** @type {number} */ n) => {
      for (let p = n; p >= 0; p = p > 0 ? model.parent[p] : -1) if (p === z) return true;
      return false;
    };
    for (let k = 0; k < layout.order.length && out.length < MAX_FRAMES; k++) {
      const n = layout.order[k];
      let left, width;
      if (n === 0 || chain.has(n)) {
        left = 0;
        width = W;
      } else {
        left = (layout.x[n] - x0) * scale;
        width = totalB[n] * scale;
        if (width < 1 || left + width <= 0 || left >= W) continue;
        if (depth[n] <= depth[z] || !inZoom(n)) continue;
      }
      out.push({ n, left, width });
    }
    return out;
  }, [model, z, size.w]);

  const name = (/** @type {number} */ n) => (n === 0 ? 'all' : labels[func[n]] ?? '');
  const t = tip ? tip.node : -1;
  return (
    <div class="diff-flame" ref={scrollRef} data-testid="diff-flame" onMouseLeave={() => setTip(null)}>
      <div class="diff-flame-content" style={{ height: `${(layout.maxDepth + 1) * ROW_H + 4}px` }}>
        {frames.map(({ n, left, width }) => (
          <div
            key={n}
            class={`diff-frame${n === z && z ? ' zoomed' : ''}`}
            data-name={name(n)}
            style={{ left: `${left}px`, width: `${Math.max(1, width - 1)}px`, top: `${depth[n] * ROW_H}px`, background: diffColor(totalB[n] - totalA[n], layout.maxAbsDelta, dark) }}
            onMouseMove={(e) => setTip({ node: n, x: e.clientX, y: e.clientY })}
            onClick={() => setZoom(n === z ? model.parent[n] > 0 ? model.parent[n] : 0 : n)}
          >
            {width > 24 ? name(n) : ''}
          </div>
        ))}
      </div>
      {t >= 0 ? (
        <div class="diff-tip" role="tooltip" data-testid="diff-tip" style={{ left: `${Math.min(tip.x + 14, window.innerWidth - 380)}px`, top: `${tip.y + 14}px` }}>
          <div class="diff-tip-name">{name(t)}</div>
          {t > 0 && modules[func[t]] ? <div class="muted">{modules[func[t]]}</div> : null}
          <table>
            <tbody>
              <tr>
                <th></th>
                <th>total</th>
                <th>self</th>
              </tr>
              <tr data-row="a">
                <th>A{model.normalize ? ' (normalized)' : ''}</th>
                <td>{formatInt(totalA[t])}</td>
                <td>{formatInt(selfA[t])}</td>
              </tr>
              <tr data-row="b">
                <th>B</th>
                <td>{formatInt(totalB[t])}</td>
                <td>{formatInt(selfB[t])}</td>
              </tr>
              <tr data-row="delta">
                <th>Δ</th>
                <td>{deltaText(totalA[t], totalB[t])}</td>
                <td>{deltaText(selfA[t], selfB[t])}</td>
              </tr>
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
