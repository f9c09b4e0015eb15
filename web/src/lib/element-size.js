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
