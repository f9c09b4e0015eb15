// @ts-check
// The Compare tab's state: a second profile decoded in the worker beside the open one (A =
// the open profile, B = the second), the normalize and swap switches, and the diff model the
// worker makes from them (worker/diff-model.js). Opening another file starts a new worker,
// which forgets B: the state belongs to the worker it was made in.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { namedSideFile, planFiles } from '../lib/multi-file.js';
import { planCompare } from '../lib/compare-files.js';

/**
 * @typedef {{name: string, ok: boolean, format: string, samples: number, diagnostics: number}} OtherInfo
 * @typedef {{worker: Worker | null, other: OtherInfo | null, status: 'idle'|'decoding'|'ready'|'error', error: string}} CompareState
 */

/**
 * @param {any} doc
 * @param {import('../worker/client.js').DecoderClient} client
 * @param {{openFile: Function, openFiles: (files: File[]) => void}} files the hook of use-open-file.js
 * @param {() => void} showTab shows the Compare tab
 */
export function useCompare(doc, client, files, showTab) {
  const [state, setState] = useState(/** @type {CompareState} */ ({ worker: null, other: null, status: 'idle', error: '' }));
  const [normalize, setNormalize] = useState(false);
  const [swap, setSwap] = useState(false);
  const [model, setModel] = useState(/** @type {any} */ (null));
  const [computing, setComputing] = useState(false);
  const live = state.worker != null && state.worker === client.worker && !!doc;
  const other = live ? state.other : null;

  /** Decodes `file` (with side files) as B beside the open profile. */
  const openOther = useCallback(
    async (/** @type {File} */ file, /** @type {File[]} */ sideFiles = []) => {
      const worker = client.worker;
      setState({ worker, other: null, status: 'decoding', error: '' });
      setModel(null);
      try {
        const info = await client.openCompare(file, file.name, sideFiles.map(namedSideFile));
        setState({ worker, other: info, status: 'ready', error: '' });
        showTab();
      } catch (err) {
        setState({ worker, other: null, status: 'error', error: /** @type {any} */ (err)?.message || String(err) });
      }
    },
    [client, showTab],
  );

  /** "Compare with…": the chosen files are B and its side files. */
  const compareWith = useCallback(
    (/** @type {File[]} */ list) => {
      const plan = planFiles(list);
      if (plan.main) openOther(plan.main, plan.sideFiles);
    },
    [openOther],
  );

  /** Dropped or chosen files: two profiles open as A and B in the Compare tab, else as before. */
  const openDropped = useCallback(
    async (/** @type {File[]} */ list) => {
      const pair = planCompare(list);
      if (!pair) {
        files.openFiles(list);
        return;
      }
      const extra = pair.sideFiles.length;
      const label = extra ? `${pair.a.name} (+${extra} file${extra === 1 ? '' : 's'})` : pair.a.name;
      const r = await files.openFile(pair.a, pair.a.name, { label, dataFiles: [], sideFiles: pair.sideFiles });
      if (r && !r.error) await openOther(pair.b, pair.sideFiles);
    },
    [files.openFile, files.openFiles, openOther],
  );

  const close = useCallback(() => {
    client.closeCompare().catch(() => {});
    setState({ worker: null, other: null, status: 'idle', error: '' });
    setModel(null);
  }, [client]);

  // the diff, again when a switch changes
  useEffect(() => {
    if (!other) {
      setModel(null);
      return undefined;
    }
    let stale = false;
    setComputing(true);
    client
      .compare({ normalize, swap })
      .then((r) => !stale && setModel(r.model))
      .catch((err) => !stale && setModel({ error: err?.message || String(err) }))
      .finally(() => !stale && setComputing(false));
    return () => {
      stale = true;
    };
  }, [other, normalize, swap, client]);

  return {
    other,
    status: live || state.status !== 'ready' ? state.status : 'idle',
    error: state.error,
    model: other ? model : null,
    computing,
    normalize,
    setNormalize,
    swap,
    setSwap,
    compareWith,
    openDropped,
    close,
  };
}
