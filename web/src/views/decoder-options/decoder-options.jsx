// Decoder options a person can see and switch, as the session describes them for the file's
// format (gperftools: the adjustments pprof applies silently). Changing one decodes the file
// again with the new options, in the worker.
import './decoder-options.css';

/**
 * @param {{doc: any, busy: boolean, onChange: (options: Record<string, string>) => void}} props
 *   doc.decoderOptions: {title, options: [{key, label, help, value}]}
 */
export function DecoderOptions({ doc, onChange, busy }) {
  const { title, options } = doc.decoderOptions;
  const cur = doc.options || {};
  return (
    <div class="decoder-options" role="group" aria-label="Decoder options">
      <span class="muted">{title}</span>
      {options.map(({ key, label, help, value }) => (
        <label key={key} title={help}>
          <input
            type="checkbox"
            checked={value === '1'}
            disabled={busy}
            aria-label={label}
            onChange={(e) => onChange({ ...cur, [key]: e.currentTarget.checked ? '1' : '0' })}
          />{' '}
          {label}
        </label>
      ))}
    </div>
  );
}
