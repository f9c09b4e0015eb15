// Decoder options a person can see and switch (gperftools: the adjustments pprof applies
// silently). Changing one decodes the file again with the new options, in the worker.
import './analysis.css';

export const GPERF_OPTIONS = [
  ['pc_minus_one', 'PC − 1 for callers', 'pprof subtracts 1 from every non-leaf PC so it points into the call instruction, not after it'],
  ['drop_duplicate_leaf', 'Drop duplicate leaf', 'drop the second PC of a sample when it equals the first (the leaf recorded twice)'],
  ['strip_signal_frames', 'Strip signal frames', 'pprof drops a second frame shared by nearly all samples: the one the signal handler pushed (at most twice)'],
];

export function DecoderOptions({ doc, onChange, busy }) {
  const cur = doc.options || {};
  const on = (k) => cur[k] === '1';
  return (
    <div class="decoder-options" role="group" aria-label="Decoder options">
      <span class="muted">pprof adjustments (off = the PCs as stored):</span>
      {GPERF_OPTIONS.map(([k, label, why]) => (
        <label key={k} title={why}>
          <input
            type="checkbox"
            checked={on(k)}
            disabled={busy}
            aria-label={label}
            onChange={(e) => onChange({ ...cur, [k]: e.currentTarget.checked ? '1' : '0' })}
          />{' '}
          {label}
        </label>
      ))}
    </div>
  );
}
