// Virtual scrolling with a capped scroll height: lists of millions of rows would
// exceed the browser's maximum element height, so past MAX_PX the scroll position
// maps proportionally onto row positions.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export const MAX_PX = 8_000_000;

/**
 * @param {number} count rows
 * @param {number} rowHeight px
 * @returns {{ref: any, onScroll: () => void, first: number, last: number, top: number,
 *   height: number, viewport: number, scrollToIndex: (i: number, mode?: 'nearest'|'center') => void,
 *   indexAtY: (clientY: number) => number}}
 */
export function useVirtual(count, rowHeight) {
  const ref = useRef(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(400);

  const contentPx = count * rowHeight;
  const height = Math.min(contentPx, MAX_PX);
  // ratio of virtual pixels per real scroll pixel
  const ratio = height > viewport && contentPx > viewport ? (contentPx - viewport) / (height - viewport) : 1;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    setViewport(el.clientHeight || 400);
    const ro = new ResizeObserver(() => setViewport(el.clientHeight || 400));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) setScrollTop(el.scrollTop);
  }, []);

  // clamp when the list shrinks
  useEffect(() => {
    const el = ref.current;
    if (el && el.scrollTop !== scrollTop) setScrollTop(el.scrollTop);
  }, [count]);

  const vtop = Math.max(0, Math.min(scrollTop * ratio, Math.max(0, contentPx - viewport)));
  const first = Math.max(0, Math.floor(vtop / rowHeight));
  const visible = Math.ceil(viewport / rowHeight) + 2;
  const last = Math.min(count, first + visible);
  const top = scrollTop - (vtop - first * rowHeight);

  const scrollToIndex = useCallback(
    (i, mode = 'nearest') => {
      const el = ref.current;
      if (!el || i < 0) return;
      const vh = el.clientHeight || viewport;
      const cp = count * rowHeight;
      const h = Math.min(cp, MAX_PX);
      const r = h > vh && cp > vh ? (cp - vh) / (h - vh) : 1;
      const curV = el.scrollTop * r;
      const rowTop = i * rowHeight;
      let targetV = curV;
      if (mode === 'center') targetV = rowTop - vh / 2 + rowHeight / 2;
      else if (rowTop < curV) targetV = rowTop;
      else if (rowTop + rowHeight > curV + vh) targetV = rowTop + rowHeight - vh;
      targetV = Math.max(0, Math.min(targetV, Math.max(0, cp - vh)));
      const st = targetV / r;
      if (Math.abs(st - el.scrollTop) >= 0.5) {
        el.scrollTop = st;
        setScrollTop(el.scrollTop);
      }
    },
    [count, rowHeight, viewport],
  );

  return { ref, onScroll, first, last, top, height, viewport, scrollToIndex };
}
