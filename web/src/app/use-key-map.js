// The keyboard map (views/keymap/keymap.jsx lists it): ? help, 1-7 views, / search, Backspace
// back, j/k records, g go to offset, and the flame chart's zoom and pan keys.
import { useEffect, useRef } from 'preact/hooks';

/**
 * @param {{doc: any, tabs: string[], tab: string, setTab: (t: string) => void, showKeys: boolean,
 *   setShowKeys: (f: (v: boolean) => boolean) => void, selection: any, select: (sel: any, o?: any) => void,
 *   onByteClick: (off: number) => void, onBack: () => void, onError: (m: string) => void,
 *   searchRef: any, chartApi: any}} p
 */
export function useKeyMap(p) {
  // the handler reads the latest state through a ref, so the listener is added once
  const latest = useRef(p);
  latest.current = p;
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      const { doc, tabs, tab, setTab, showKeys, setShowKeys, selection, select, onByteClick, onBack, onError, searchRef, chartApi } = latest.current;
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
      else if (/^[1-9]$/.test(k) && tabs[Number(k) - 1]) setTab(tabs[Number(k) - 1]);
      else if (k === '/') searchRef.current?.focus();
      else if (k === 'Backspace') onBack();
      else if ((k === 'j' || k === 'k') && doc) {
        const n = doc.records.offsets.length;
        if (!n) return;
        const cur = selection && selection.row != null ? selection.row : -1;
        const next = k === 'j' ? Math.min(n - 1, cur + 1) : Math.max(0, cur - 1);
        select({ type: 'record', row: next }, { reveal: true });
      } else if (k === 'g' && doc) {
        const text = window.prompt('Go to offset (decimal or 0x hex)', '0x0');
        if (text == null) return;
        const off = Number(text.trim());
        if (!Number.isFinite(off) || off < 0 || off >= doc.size) {
          onError(`offset ${text} is not inside the file (0–${doc.size - 1})`);
          return;
        }
        onByteClick(Math.floor(off));
      } else if (tab === 'chart' && chartApi.current && ['+', '=', '-', '_', '0', 'ArrowLeft', 'ArrowRight', 'a', 'd', 'w', 's', 'W', 'A', 'S', 'D'].includes(k)) {
        chartApi.current.key(k);
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
