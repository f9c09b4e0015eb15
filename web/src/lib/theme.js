// Theme: 'auto' (follows the system setting), 'light' or 'dark'; kept in localStorage and set
// as <html data-theme>. Canvas views ask useDark() which colours to draw with.
import { useEffect, useState } from 'preact/hooks';

const KEY = 'profscope.theme';
const EVENT = 'profscope-theme';

export function getTheme() {
  try {
    const t = localStorage.getItem(KEY);
    return t === 'light' || t === 'dark' ? t : 'auto';
  } catch {
    return 'auto';
  }
}

export function applyTheme(t) {
  const root = document.documentElement;
  if (t === 'light' || t === 'dark') root.dataset.theme = t;
  else delete root.dataset.theme;
}

export function setTheme(t) {
  try {
    if (t === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, t);
  } catch {
    /* private mode: this page only */
  }
  applyTheme(t);
  window.dispatchEvent(new Event(EVENT));
}

export function isDark() {
  const t = document.documentElement.dataset.theme;
  if (t === 'dark') return true;
  if (t === 'light') return false;
  return matchMedia('(prefers-color-scheme: dark)').matches;
}

/** true when the page is dark (system setting or chosen theme); re-renders on change. */
export function useDark() {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setDark(isDark());
    mq.addEventListener('change', on);
    window.addEventListener(EVENT, on);
    return () => {
      mq.removeEventListener('change', on);
      window.removeEventListener(EVENT, on);
    };
  }, []);
  return dark;
}
