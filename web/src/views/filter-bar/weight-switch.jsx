// What the graphs count: XRay by time (each call's duration, the default) or by calls; perf
// by samples (the default) or by period. Every analysis view follows (flame graph, flame
// chart colours, call tree, sandwich, functions).
import { weightChoices } from '../../worker/file-analysis.js';
import { formatDuration, formatInt, plural } from '../../lib/format.js';

const LABELS = { time: 'Time', count: 'Calls', samples: 'Samples', period: 'Period' };

/** @param {{doc: any, opts: any, onChange: (o: any, f?: any) => void}} p */
export function WeightSwitch({ doc, opts, onChange }) {
  const choices = weightChoices(doc.summary);
  if (!choices.length) return null;
  const cur = opts.weight && choices.includes(opts.weight) ? opts.weight : choices[0];
  return (
    <span class="weight-switch" role="radiogroup" aria-label="Weight">
      {choices.map((w) => (
        <label key={w}>
          <input type="radio" name="profscope-weight" value={w} checked={cur === w} onChange={() => onChange({ ...opts, weight: w }, { keepRedo: true })} /> {LABELS[w]}
        </label>
      ))}
    </span>
  );
}

/**
 * A call-tree value in the unit of the analysis's weight: XRay time as a duration (ticks times
 * the file's ns per tick), periods and counts as numbers.
 * @param {number} v
 * @param {any} analysis (its weight: 'time' | 'period' | 'count' | 'samples')
 * @param {any} doc (its timing.scale: ns per tick)
 */
export function formatWeight(v, analysis, doc) {
  const w = analysis?.weight;
  if (w === 'time') return formatDuration(Math.round(v * (doc?.timing?.scale || 1)));
  if (w === 'period') return `${formatInt(v)} period`;
  if (w === 'count') return plural(v, 'call');
  return plural(v, 'sample');
}

/**
 * How the views' Total/Self columns print a value of the analysis: XRay time as a duration (ticks
 * times ns per tick), everything else as a number.
 * @param {any} analysis
 * @param {any} doc
 * @returns {(v: number) => string}
 */
export function valueFormatter(analysis, doc) {
  if (analysis?.weight === 'time') {
    const scale = doc?.timing?.scale || 1;
    return (v) => formatDuration(Math.round(v * scale));
  }
  return formatInt;
}
