// The "Export" menu of the top bar: one item per format; the worker writes the file
// (app/use-export.js) and the page downloads it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { exportFormatsFor } from '../../app/use-export.js';
import './export-menu.css';

/** @param {{disabled: boolean, busy: string, format?: string, onExport: (format: string) => void}} props */
export function ExportMenu({ disabled, busy, format, onExport }) {
  const [open, setOpen] = useState(false);
  const root = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    if (!open) return undefined;
    const close = (/** @type {Event} */ e) => {
      if (e.type === 'keydown' && /** @type {KeyboardEvent} */ (e).key !== 'Escape') return;
      if (e.type === 'mousedown' && root.current?.contains(/** @type {Node} */ (e.target))) return;
      setOpen(false);
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', close);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div class="export-menu" ref={root}>
      <button type="button" aria-haspopup="menu" aria-expanded={open ? 'true' : 'false'} disabled={disabled} onClick={() => setOpen(!open)} title="Save the profile in another tool's format (made in your browser)">
        {busy ? `Exporting ${busy}…` : 'Export ▾'}
      </button>
      {open ? (
        <div class="export-list" role="menu" aria-label="Export">
          {exportFormatsFor(format).map((f) => (
            <button
              type="button"
              role="menuitem"
              key={f.id}
              data-format={f.id}
              onClick={() => {
                setOpen(false);
                onExport(f.id);
              }}
            >
              <span>{f.label}</span>
              <span class="muted">{f.suffix}</span>
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
