// The selected frame (a call node of the current analysis) and stepping through its samples:
// each sample's callchain slot is shown in the hex view; the node under the pointer in any view;
// the sample of the selected record (marked in the flame graph and chart); and the transforms
// offered for the selected frame. Owned by the current analysis: a new call tree starts with
// nothing selected.
import { useCallback, useEffect, useMemo } from 'preact/hooks';
import { useOwnedState } from './owned-state.js';

/**
 * @typedef {{node: number, samples: Int32Array, rows?: Int32Array, k: number, slot: any, row: number, pending?: boolean, address?: bigint | null, time?: number}} FrameSamples
 *   (time: the current sample's, ns, once its slot is in)
 */

/**
 * @param {{doc: any, analysis: any, client: import('../worker/client.js').DecoderClient, selection: any,
 *   select: (sel: any, opts?: {reveal?: boolean}) => void, setCursor: (off: number) => void,
 *   pushTransform: (t: any) => void, onError: (message: string) => void}} p
 */
export function useFrameSelection({ doc, analysis, client, selection, select, setCursor, pushTransform, onError }) {
  const [selNode, setSelNode] = useOwnedState(analysis, () => -1);
  const [hoverNode, setHoverNode] = useOwnedState(analysis, () => -1);
  const [frameSamples, setFrameSamples] = useOwnedState(analysis, () => /** @type {FrameSamples | null} */ (null));
  const [library, setLibrary] = useOwnedState(analysis, () => ({ func: -1, lib: '' }));

  // select a frame: its samples; the hex view jumps to the frame's callchain slot in the first
  const showSample = useCallback(
    async (/** @type {number} */ node, /** @type {Int32Array} */ samples, /** @type {Int32Array} */ rows, /** @type {number} */ k) => {
      if (!doc || !samples.length) {
        setFrameSamples({ node, samples, rows, k: 0, slot: null, row: -1 });
        return;
      }
      const sample = samples[k];
      setFrameSamples({ node, samples, rows, k, slot: null, row: rows[k], pending: true });
      try {
        const r = await client.slot(sample, node, analysis?.gen);
        doc.fieldsCache.set(r.row, { label: r.label, fields: r.fields });
        doc.labels.set(r.row, r.label);
        setFrameSamples({ node, samples, rows, k, slot: r.slot, row: r.row, address: r.address, time: r.time });
        if (r.slot) {
          setCursor(r.slot.offset);
          select({ type: 'field', row: r.row, path: r.slot.path, name: r.slot.name, offset: r.slot.offset, size: r.slot.size }, { reveal: true });
        } else if (r.row >= 0) {
          select({ type: 'record', row: r.row }, { reveal: true });
        }
      } catch (err) {
        if (!err?.cancelled) onError(err?.message || String(err));
      }
    },
    [doc, client, select, analysis],
  );
  const selectNode = useCallback(
    async (/** @type {number} */ node, sample = -1) => {
      setSelNode(node);
      if (node <= 0) {
        setFrameSamples(null);
        return;
      }
      try {
        // the node's samples and their records, from the worker (which keeps each sample's node)
        const { samples, rows } = await client.nodeSamples(node, analysis?.gen);
        let k = 0;
        if (sample >= 0) {
          const at = samples.indexOf(sample);
          if (at >= 0) k = at;
        }
        showSample(node, samples, rows, k);
      } catch (err) {
        if (!err?.cancelled) onError(err?.message || String(err));
      }
    },
    [client, showSample, analysis],
  );
  const stepSample = useCallback(
    (/** @type {number} */ delta) => {
      if (!frameSamples || !frameSamples.samples.length) return;
      const n = frameSamples.samples.length;
      showSample(frameSamples.node, frameSamples.samples, /** @type {Int32Array} */ (frameSamples.rows), (frameSamples.k + delta + n) % n);
    },
    [frameSamples, showSample],
  );

  // the sample of the selected record (or of the frame's current sample)
  const selectedRow = selection && (selection.type === 'record' || selection.type === 'field') ? selection.row : frameSamples && frameSamples.row >= 0 ? frameSamples.row : -1;
  // (asked of the worker, which has each sample's record: the page keeps no column of every row's sample)
  // (with its time and thread lane: a tracer's lanes hold no samples, the flame chart marks it from these)
  const [rowSample, setRowSample] = useOwnedState(doc, () => ({ row: -1, sample: -1, time: 0, thread: -1 }));
  useEffect(() => {
    if (!doc || selectedRow < 0 || rowSample.row === selectedRow) return undefined;
    let stale = false;
    client
      .recordSample(selectedRow)
      .then((r) => !stale && setRowSample({ row: selectedRow, sample: r.sample, time: Number(r.time) || 0, thread: r.thread ?? -1 }))
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [client, doc, selectedRow, rowSample]);
  const markedSample = selectedRow >= 0 && rowSample.row === selectedRow ? rowSample.sample : -1;
  /** @type {{sample: number, time: number, thread: number} | null} the marked sample's time (ns) and thread lane */
  const markedAt = useMemo(() => (markedSample >= 0 ? { sample: markedSample, time: rowSample.time, thread: rowSample.thread } : null), [markedSample, rowSample]);
  // the marked sample's call node in this analysis: the page's own sample -> node when it has one (its lanes
  // draw samples), else asked of the worker (which keeps each sample's node)
  const [markedNode, setMarkedNode] = useOwnedState(analysis, () => ({ sample: -1, node: -1 }));
  useEffect(() => {
    if (!analysis || analysis.sampleNode || markedSample < 0 || markedNode.sample === markedSample) return undefined;
    let stale = false;
    client
      .sampleNode(markedSample, analysis.gen)
      .then((r) => !stale && setMarkedNode({ sample: markedSample, node: r.node }))
      .catch(() => {}); // (cancelled: another analysis replaced this one, and asks again)
    return () => {
      stale = true;
    };
  }, [client, analysis, markedSample, markedNode]);
  const marked = useMemo(() => {
    const n0 = markedSample < 0 ? -1 : analysis?.sampleNode ? (analysis.sampleNode[markedSample] ?? -1) : markedNode.sample === markedSample ? markedNode.node : -1;
    if (!analysis || n0 < 0) return null;
    const set = new Set();
    for (let n = n0; n >= 0; n = analysis.tree.parent[n]) {
      const li = analysis.layout.layoutOf[n];
      if (li >= 0) set.add(li);
    }
    return set;
  }, [analysis, markedSample, markedNode]);

  const selFunc = analysis && selNode > 0 ? analysis.tree.func[selNode] : -1;
  // a function picked in the Functions table: its heaviest call node
  const pickFunc = useCallback(
    (/** @type {number} */ f) => {
      if (!analysis) return;
      const t = analysis.tree;
      let best = -1;
      for (let n = 1; n < t.func.length; n++) if (t.func[n] === f && (best < 0 || t.total[n] > t.total[best])) best = n;
      if (best > 0) selectNode(best);
    },
    [analysis, selectNode],
  );
  const selPath = useMemo(() => {
    if (!analysis || selNode <= 0) return [];
    const out = [];
    for (let n = selNode; n > 0; n = analysis.tree.parent[n]) out.push(analysis.tree.func[n]);
    return out.reverse();
  }, [analysis, selNode]);
  // the library of the selected function (for "Collapse library"), from the worker
  useEffect(() => {
    if (selFunc < 0 || library.func === selFunc) return undefined;
    let stale = false;
    client
      .library(selFunc)
      .then((r) => !stale && setLibrary({ func: selFunc, lib: String(r.lib || '') }))
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [client, selFunc, library]);
  const selLib = library.func === selFunc ? library.lib : '';
  const onTransform = useCallback(
    (/** @type {string} */ type) => {
      if (type === 'focus-subtree') pushTransform({ type, path: selPath, label: selPath.map((f) => analysis.names[f]).join(' → ') });
      else if (type === 'collapse-library') pushTransform({ type, lib: selLib });
      else pushTransform({ type, func: selFunc, label: analysis.names[selFunc] });
    },
    [pushTransform, selPath, selLib, selFunc, analysis],
  );

  return { selNode, selectNode, hoverNode, setHoverNode, frameSamples, stepSample, markedSample, markedAt, marked, selFunc, selLib, pickFunc, onTransform };
}
