// Compare tab: the open profile (A) against a second one (B), matched by (module, function
// name) in the core (core/analysis/diff.h). A differential flame graph over a table of the
// functions by change; normalize scales A to B's total (pprof -normalize, difffolded.pl -n).
import { useRef } from 'preact/hooks';
import { formatInt, plural } from '../../lib/format.js';
import { DiffFlame } from './diff-flame.jsx';
import { DiffTable } from './diff-table.jsx';
import './compare.css';

/** @param {{doc: any, cmp: ReturnType<typeof import('../../app/use-compare.js').useCompare>}} props */
export function Compare({ doc, cmp }) {
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  const { other, model } = cmp;
  return (
    <div class="compare" data-testid="compare">
      <div class="compare-bar">
        <button type="button" onClick={() => input.current?.click()} disabled={cmp.status === 'decoding'}>
          {other ? 'Compare with another…' : 'Compare with…'}
        </button>
        <input
          ref={input}
          type="file"
          multiple
          class="visually-hidden"
          aria-label="Choose a profile to compare with"
          data-testid="compare-input"
          onChange={(e) => {
            const fs = Array.from(e.currentTarget.files || []);
            if (fs.length) cmp.compareWith(fs);
            e.currentTarget.value = '';
          }}
        />
        {other ? (
          <>
            <span class="pair" data-testid="compare-pair">
              <span class="tag a">A</span> {model?.nameA ?? doc.name} <span class="muted">· {plural(model?.rawSumA ?? 0, 'sample')}</span>
              <span class="vs">vs</span>
              <span class="tag b">B</span> {model?.nameB ?? other.name} <span class="muted">· {plural(model?.sumB ?? other.samples, 'sample')}</span>
            </span>
            <label>
              <input type="checkbox" checked={cmp.normalize} onChange={(e) => cmp.setNormalize(e.currentTarget.checked)} /> Normalize (scale A to B's total)
            </label>
            <button type="button" onClick={() => cmp.setSwap(!cmp.swap)}>
              Swap A/B
            </button>
            <button type="button" onClick={cmp.close}>
              Close comparison
            </button>
            <span class="legend muted">
              <span class="sw grew" /> grew in B <span class="sw shrank" /> shrank · widths from B
            </span>
          </>
        ) : null}
      </div>
      {cmp.status === 'decoding' ? <div class="placeholder muted">Decoding the second profile…</div> : null}
      {cmp.status === 'error' ? (
        <div class="banner error" role="alert">
          Could not open the profile to compare with: {cmp.error}
        </div>
      ) : null}
      {!other && cmp.status !== 'decoding' ? (
        <div class="placeholder muted">
          Compare {doc.name} with another recording of the same program: choose it with “Compare with…” (with its binary or
          instrumentation map if it needs one), or drop two profiles together.
        </div>
      ) : null}
      {other && model?.error ? (
        <div class="banner error" role="alert">
          Nothing compared: {model.error}
        </div>
      ) : null}
      {other && model && !model.error ? (
        <div class={`compare-body${cmp.computing ? ' stale' : ''}`}>
          <DiffFlame model={model} />
          <DiffTable model={model} />
        </div>
      ) : null}
    </div>
  );
}
