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
  return { filter: { event, threads: [], cpus: [], t0: null, t1: null }, transforms: [], invert: false, search: '', weight: defaultWeight(doc?.summary) };
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
  // the options (and undo history) of the tree shown, and the newest tree the worker made (an answer the
  // page dropped for a later request still replaced the worker's tree)
  const [shown] = useOwnedState(doc, (d) => ({ opts: defaultOpts(d?.defaultEvent ?? 0, d), undone: /** @type {any[]} */ ([]), gen: d?.analysis?.gen ?? 0, workerGen: d?.analysis?.gen ?? 0 }));

  const reanalyze = useCallback(
    async (/** @type {PageOptions} */ next, /** @type {any[]} */ nextUndone) => {
      if (!doc) return;
      const mine = ++seq.current;
      setAnalyzing(true);
      try {
        const res = await client.analyze(next);
        shown.workerGen = Math.max(shown.workerGen, res.analysis.gen ?? 0);
        if (mine === seq.current) {
          setAnalysis(res.analysis);
          setViewError('');
          Object.assign(shown, { opts: next, undone: nextUndone, gen: res.analysis.gen ?? 0 });
        }
      } catch (err) {
        if (mine !== seq.current || err?.cancelled) return;
        if (err?.name === 'ViewError') {
          // back to the options of the tree on the page; the worker too, when it has made another since
          setViewError(err.message);
          setOpts(shown.opts);
          setUndone(shown.undone);
          if (shown.workerGen !== shown.gen) reanalyze(shown.opts, shown.undone);
        } else {
          onError(err?.message || String(err));
        }
      } finally {
        if (mine === seq.current) setAnalyzing(false);
      }
    },
    [doc, client, shown],
  );
  /** New options with their undo history (a filter change keeps the transforms that were undone). */
  const apply = useCallback(
    (/** @type {any} */ next, /** @type {any[]} */ nextUndone) => {
      setOpts(next);
      setUndone(nextUndone);
      reanalyze(next, nextUndone);
    },
    [reanalyze],
  );
  const changeOpts = useCallback(
    (/** @type {any} */ next, { keepRedo = false } = {}) => apply(next, keepRedo ? undone : []),
    [apply, undone],
  );
  const pushTransform = useCallback((/** @type {any} */ t) => apply({ ...opts, transforms: [...opts.transforms, t] }, []), [opts, apply]);
  const undoTransform = useCallback(() => {
    if (!opts.transforms.length) return;
    const last = opts.transforms[opts.transforms.length - 1];
    apply({ ...opts, transforms: opts.transforms.slice(0, -1) }, [...undone, last]);
  }, [opts, undone, apply]);
  const redoTransform = useCallback(() => {
    if (!undone.length) return;
    const t = undone[undone.length - 1];
    apply({ ...opts, transforms: [...opts.transforms, t] }, undone.slice(0, -1));
  }, [opts, undone, apply]);

  return { opts, analysis, analyzing, viewError, dismissViewError: () => setViewError(''), changeOpts, pushTransform, undoTransform, redoTransform, canRedo: undone.length > 0 };
}
