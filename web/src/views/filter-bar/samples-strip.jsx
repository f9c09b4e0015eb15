// The strip under the filter bar listing the samples behind the selected frame: step through
// them; each one's callchain slot is selected in the hex view.
import { formatInt, formatTime, plural, sampleWord } from '../../lib/format.js';
import { offsetText } from '../../lib/records.js';
import './samples-strip.css';

export function SamplesStrip({ doc, analysis, info, onStep }) {
  const n = info.samples.length;
  const word = sampleWord(doc); // (an XRay log's samples are its calls)
  const name = String(analysis.names[analysis.tree.func[info.node]] ?? '');
  const sample = n ? info.samples[info.k] : -1;
  const t = sample >= 0 ? (info.time ?? 0) : 0; // (the worker's answer with the sample's slot)
  return (
    <div class="samples-strip" data-testid="frame-samples" aria-live="polite">
      <b class="mono" title={name}>{name}</b>
      <span>
        {plural(n, word)}
      </span>
      {n ? (
        <>
          <button type="button" onClick={() => onStep(-1)} aria-label={`Previous ${word}`}>
            ◀
          </button>
          <span data-testid="frame-sample-pos">
            {formatInt(info.k + 1)} / {formatInt(n)}
          </span>
          <button type="button" onClick={() => onStep(1)} aria-label={`Next ${word}`}>
            ▶
          </button>
          <span class="muted">
            {word} #{sample}
            {t ? ` · at ${formatTime(t - (doc.timing?.zero ?? 0))}` : ''}
            {info.row >= 0 ? ` · record ${info.row} at ${offsetText(doc, info.row)}` : ''}
          </span>
          <span data-testid="frame-slot">
            {info.pending ? '…' : info.slot ? `→ ${info.slot.name} at ${offsetText(doc, info.row, info.slot.offset)}` : info.row >= 0 ? '→ no callchain slot for this frame (whole record shown)' : ''}
          </span>
        </>
      ) : null}
    </div>
  );
}
