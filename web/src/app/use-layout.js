// The room each part of the page gets: the split between the records/hex panes and the
// analysis pane (dragged on the splitter, remembered in localStorage) and "Maximize view"
// (key f), which gives the active analysis view the whole window, and back.
import { useCallback, useState } from 'preact/hooks';

const KEY = 'profscope.split';
// The analysis pane's share of the space below the summary: default, least, most.
export const SPLIT_DEFAULT = 0.5;
export const SPLIT_MIN = 0.15;
export const SPLIT_MAX = 0.85;

/** @param {number} v */
export function clampSplit(v) {
  return Number.isFinite(v) ? Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, v)) : SPLIT_DEFAULT;
}

function readSplit() {
  try {
    const v = localStorage.getItem(KEY);
    return v == null ? SPLIT_DEFAULT : clampSplit(Number(v));
  } catch {
    return SPLIT_DEFAULT; // storage refused (private mode, sandboxed iframe)
  }
}

export function useLayout() {
  const [split, setSplitState] = useState(readSplit);
  const [maximized, setMaximized] = useState(false);
  const setSplit = useCallback((/** @type {number} */ v) => {
    const c = clampSplit(v);
    setSplitState(c);
    try {
      localStorage.setItem(KEY, String(Math.round(c * 1000) / 1000));
    } catch {
      /* not remembered */
    }
  }, []);
  const toggleMaximized = useCallback(() => setMaximized((m) => !m), []);
  // flex-grow of the panes and of the analysis pane (maximized: the CSS gives it all)
  const style = maximized ? { panes: undefined, bottom: undefined } : { panes: { flexGrow: 1 - split }, bottom: { flexGrow: split } };
  return { split, setSplit, maximized, setMaximized, toggleMaximized, style };
}
