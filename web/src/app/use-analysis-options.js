// The analysis options (filters, search, transforms, invert) with undo / redo of transforms,
// and the worker's aggregation for them: every change re-aggregates in the worker (the core's
// call tree), the answer replaces the analysis the views draw. Owned by the open document.
// Options the core cannot make a view of (an inverted tree too large to build) are taken back,
// and `viewError` says why until the next view is made.
import { useCallback, useRef, useState } from 'preact/hooks';
import { useOwnedState } from './owned-state.js';
import { defaultWeight } from '../worker/file-analysis.js';

/** @typedef {import('../worker/file-analysis.js').PageOptions} PageOptions */

/**
 * The options a document opens with: every sample of one event, weighted as the format's
 * graphs are at first (XRay: by time).
 * @param {number} event
 * @param {any} [doc]
 * @returns {PageOptions & {filter: NonNullable<PageOptions['filter']>, transforms: NonNullable<PageOptions['transforms']>}}
 */
export function defaultOpts(event, doc) {
  return { filter: { event, threads: [], cpus: [], t0: null, t1: null }, transforms: [], invert: false, search: '', weight: defaultWeight(doc?.summary?.format) };
}

/**
 * @param {any} doc the open document (null while decoding)
 * @param {import('../worker/client.js').DecoderClient} client
 * @param {(message: string) => void} onError
 */
export function useAnalysisOptions(doc, client, onError) {
  const [opts, setOpts] = useOwnedState(doc, (d) => defaultOpts(d?.defaultEvent ?? 0, d));
  const [undone, setUndone] = useOwnedState(doc, () => /** @type {any[]} */ ([]));
  const [analysis, setAnalysis] = useOwnedState(doc, (d) => d?.analysis ?? null);
  const [viewError, setViewError] = useOwnedState(doc, () => '');
  const [analyzing, setAnalyzing] = useState(false);
  const seq = useRef(0);

  const reanalyze = useCallback(
    async (/** @type {PageOptions} */ next, /** @type {PageOptions | null} */ previous) => {
      if (!doc) return;
      const mine = ++seq.current;
      setAnalyzing(true);
      try {
        const res = await client.analyze(next);
        if (mine === seq.current) {
          setAnalysis(res.analysis);
          setViewError('');
        }
      } catch (err) {
        if (mine !== seq.current || err?.cancelled) return;
        if (err?.name === 'ViewError' && previous) {
          setViewError(err.message);
          setOpts(previous);
        } else {
          onError(err?.message || String(err));
        }
      } finally {
        if (mine === seq.current) setAnalyzing(false);
      }
    },
    [doc, client],
  );
  /** New options (keepRedo: a filter change keeps the transforms that were undone). */
  const changeOpts = useCallback(
    (/** @type {any} */ next, { keepRedo = false } = {}) => {
      setOpts(next);
      if (!keepRedo) setUndone([]);
      reanalyze(next, opts);
    },
    [reanalyze, opts],
  );
  const pushTransform = useCallback((/** @type {any} */ t) => changeOpts({ ...opts, transforms: [...opts.transforms, t] }), [opts, changeOpts]);
  const undoTransform = useCallback(() => {
    if (!opts.transforms.length) return;
    const last = opts.transforms[opts.transforms.length - 1];
    setUndone([...undone, last]);
    changeOpts({ ...opts, transforms: opts.transforms.slice(0, -1) }, { keepRedo: true });
  }, [opts, undone, changeOpts]);
  const redoTransform = useCallback(() => {
    if (!undone.length) return;
    const t = undone[undone.length - 1];
    setUndone(undone.slice(0, -1));
    changeOpts({ ...opts, transforms: [...opts.transforms, t] }, { keepRedo: true });
  }, [opts, undone, changeOpts]);

  return { opts, analysis, analyzing, viewError, dismissViewError: () => setViewError(''), changeOpts, pushTransform, undoTransform, redoTransform, canRedo: undone.length > 0 };
}
