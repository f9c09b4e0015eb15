// Go to offset: an inline field in the hex view's title (key g focuses it). Decimal or 0x hex; an
// offset outside the file is a short message beside the field that goes away by itself.
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Parses "0x1c00", "7168" (an offset): the number, or NaN.
 * @param {string} text
 */
export function parseOffset(text) {
  const t = String(text).trim().replace(/_/g, '');
  if (/^0x[0-9a-f]+$/i.test(t)) return parseInt(t.slice(2), 16);
  if (/^\d+$/.test(t)) return Number(t);
  return NaN;
}

/**
 * @param {{size: number, onGo: (off: number) => void, inputRef?: any}} props
 */
export function GotoOffset({ size, onGo, inputRef }) {
  const [text, setText] = useState('');
  const [msg, setMsg] = useState('');
  const timer = useRef(/** @type {any} */ (0));
  useEffect(() => () => clearTimeout(timer.current), []);
  const say = (/** @type {string} */ m) => {
    setMsg(m);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setMsg(''), 3000);
  };
  return (
    <form
      class="goto-offset"
      onSubmit={(e) => {
        e.preventDefault();
        const off = parseOffset(text);
        if (!Number.isFinite(off)) say(`“${text}” is no offset (decimal or 0x hex)`);
        else if (off >= size) say(`0x${off.toString(16)} is past the end of the file (0x0–0x${Math.max(0, size - 1).toString(16)})`);
        else {
          setMsg('');
          onGo(Math.floor(off));
        }
      }}
    >
      <input
        ref={inputRef}
        type="text"
        aria-label="Go to offset"
        placeholder="go to 0x…" title="Go to offset (g): decimal or 0x hex"
        spellcheck={false}
        value={text}
        onInput={(e) => setText(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') /** @type {HTMLInputElement} */ (e.currentTarget).blur();
          e.stopPropagation(); // typing here is no shortcut
        }}
      />
      {msg ? (
        <span class="goto-msg" role="status" data-testid="goto-message">
          {msg}
        </span>
      ) : null}
    </form>
  );
}
