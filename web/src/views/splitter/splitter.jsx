// The horizontal bar between the records/hex panes and the analysis pane: drag it (or focus
// it and use ↑ ↓, Home/End) to give one of them more room; double-click restores the default.
import { useRef } from 'preact/hooks';
import { SPLIT_DEFAULT } from '../../app/use-layout.js';
import './splitter.css';

/**
 * Placed between the two panes it divides (its previous and next siblings).
 * @param {{split: number, onSplit: (v: number) => void}} p
 *   split: the share of the two panes' height the lower one gets
 */
export function Splitter({ split, onSplit }) {
  const drag = useRef(/** @type {{top: number, height: number, y: number, moved: boolean} | null} */ (null));
  const at = (/** @type {number} */ y) => {
    const d = drag.current;
    if (!d || d.height <= 0) return;
    if (!d.moved && Math.abs(y - d.y) < 3) return; // a click (or double-click) is no drag
    d.moved = true;
    onSplit(1 - (y - d.top) / d.height);
  };
  return (
    <div
      class="splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the analysis pane"
      aria-valuemin={15}
      aria-valuemax={85}
      aria-valuenow={Math.round(split * 100)}
      tabIndex={0}
      onPointerDown={(e) => {
        const el = e.currentTarget;
        const above = el.previousElementSibling?.getBoundingClientRect();
        const below = el.nextElementSibling?.getBoundingClientRect();
        if (!above || !below) return;
        drag.current = { top: above.top, height: below.bottom - above.top, y: e.clientY, moved: false };
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.classList.add('dragging');
        e.preventDefault();
      }}
      onPointerMove={(e) => at(e.clientY)}
      onPointerUp={(e) => {
        at(e.clientY);
        drag.current = null;
        e.currentTarget.classList.remove('dragging');
      }}
      onDblClick={() => onSplit(SPLIT_DEFAULT)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 0.1 : 0.03;
        if (e.key === 'ArrowUp') onSplit(split + step);
        else if (e.key === 'ArrowDown') onSplit(split - step);
        else if (e.key === 'Home') onSplit(1);
        else if (e.key === 'End') onSplit(0);
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    />
  );
}
