// The keyboard map (views/keymap/keymap.jsx lists it): ? help, 1-7 views, / search, Backspace
// back, j/k records, g go to offset, f maximize the analysis view (Esc: back), and the flame
// chart's zoom and pan keys.
import { useEffect, useRef } from 'preact/hooks';

/**
 * @param {{doc: any, tabs: string[], tab: string, setTab: (t: string) => void, showKeys: boolean,
 *   setShowKeys: (f: (v: boolean) => boolean) => void, selection: any, select: (sel: any, o?: any) => void,
 *   onByteClick: (off: number) => void, onBack: () => void, onError: (m: string) => void,
 *   searchRef: any, chartApi: any, layout?: {maximized: boolean, setMaximized: (v: boolean) => void,
 *   toggleMaximized: () => void}}} p
 */
export function useKeyMap(p) {
  // the handler reads the latest state through a ref, so the listener is added once
  const latest = useRef(p);
  latest.current = p;
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      const { doc, tabs, tab, setTab, showKeys, setShowKeys, selection, select, onBack, searchRef, chartApi, layout, gotoRef } = latest.current;
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = /** @type {HTMLElement | null} */ (e.target);
      const tag = t && t.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
        if (e.key === 'Escape') t?.blur();
        return;
      }
      const k = e.key;
      if (k === '?') setShowKeys((v) => !v);
      else if (k === 'Escape' && showKeys) setShowKeys(() => false);
      else if (k === 'f' && layout) layout.toggleMaximized();
      else if (k === 'Escape' && layout?.maximized) layout.setMaximized(false);
      else if (/^[1-9]$/.test(k) && tabs[Number(k) - 1]) setTab(tabs[Number(k) - 1]);
      else if (k === '/') searchRef.current?.focus();
      else if (k === 'Backspace') onBack();
      else if ((k === 'j' || k === 'k') && doc?.records) {
        const n = doc.records.offsets.length;
        if (!n) return;
        const cur = selection && selection.row != null ? selection.row : -1;
        const next = k === 'j' ? Math.min(n - 1, cur + 1) : Math.max(0, cur - 1);
        select({ type: 'record', row: next }, { reveal: true });
      } else if (k === 'g' && doc) {
        // the hex view's inline "Go to offset" field
        gotoRef?.current?.focus();
        gotoRef?.current?.select();
      } else if (tab === 'chart' && chartApi.current && ['+', '=', '-', '_', '0', 'ArrowLeft', 'ArrowRight', 'a', 'd', 'w', 's', 'W', 'A', 'S', 'D'].includes(k)) {
        chartApi.current.key(k);
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
