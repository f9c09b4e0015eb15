// The client size of an element, kept current with a ResizeObserver (for canvases that
// draw to the size of their scroll container).
import { useLayoutEffect, useState } from 'preact/hooks';

/** @param {{current: HTMLElement|null}} ref @returns {{w: number, h: number}} */
export function useElementSize(ref, initial = { w: 600, h: 200 }) {
  const [size, setSize] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const measure = () => setSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return size;
}

/**
 * Sizes a canvas's backing store to `size` (CSS pixels) at the device pixel ratio and returns its
 * 2D context, the ratio and the canvas's computed style; null when there is no context.
 * @param {HTMLCanvasElement} canvas @param {{w: number, h: number}} size
 */
export function fitCanvas(canvas, size) {
  const dpr = window.devicePixelRatio || 1;
  const W = Math.max(1, Math.round(size.w * dpr));
  const H = Math.max(1, Math.round(size.h * dpr));
  if (canvas.width !== W) canvas.width = W;
  if (canvas.height !== H) canvas.height = H;
  const ctx = canvas.getContext('2d');
  return ctx ? { ctx, dpr, cs: getComputedStyle(canvas) } : null;
}
