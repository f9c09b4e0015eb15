// "Maximize view" (key f): the active analysis view takes the whole window; pressed again
// (or Esc) the records and hex panes come back. A toggle button: its name stays, aria-pressed
// says which state it is in.
export function MaximizeButton({ maximized, onToggle }) {
  return (
    <button type="button" class="maximize-btn" aria-label="Maximize view" aria-pressed={maximized ? 'true' : 'false'} title={maximized ? 'Restore view (f or Esc)' : 'Maximize view (f)'} onClick={onToggle}>
      {maximized ? '⤡ Restore' : '⤢ Maximize'}
    </button>
  );
}
