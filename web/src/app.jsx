// profscope page: opens a profiler file in the decoding worker and shows its
// summary, record tree, hex view, flame graph and diagnostics. Nothing is uploaded.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DecoderClient } from './worker/client.js';
import { ByteSource } from './lib/byte-source.js';
import { fallbackLabel, fileRow, findRowAt, RecordKind } from './lib/records.js';
import { formatBytes, formatPercent } from './lib/format.js';
import { fieldAtPath } from './views/record-tree/tree-model.js';
import { HexView } from './views/hex-view/hex-view.jsx';
import { RecordTree } from './views/record-tree/record-tree.jsx';
import { FlameGraph } from './views/flame-graph/flame-graph.jsx';
import { Diagnostics } from './views/diagnostics/diagnostics.jsx';
import { Summary } from './views/summary/summary.jsx';

export const SAMPLE_URL = 'samples/calltree.perf.data';
export const SAMPLE_NAME = 'calltree.perf.data';

export function App() {
  const client = useMemo(() => new DecoderClient(), []);
  const [status, setStatus] = useState(/** @type {'idle'|'loading'|'decoding'|'ready'|'error'|'cancelled'} */ ('idle'));
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [pendingName, setPendingName] = useState('');
  const [error, setError] = useState('');
  const [doc, setDoc] = useState(/** @type {any} */ (null));
  const [source, setSource] = useState(/** @type {ByteSource | null} */ (null));
  const [selection, setSelection] = useState(/** @type {any} */ (null));
  const [cursor, setCursor] = useState(-1);
  const [revealNonce, setRevealNonce] = useState(0);
  const [scrollNonce, setScrollNonce] = useState(0);
  const [tab, setTab] = useState('flame');
  const [diagSelected, setDiagSelected] = useState(-1);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef(null);
  const openSeq = useRef(0);

  const openFile = useCallback(
    async (file, name) => {
      const seq = ++openSeq.current;
      setPendingName(name);
      setStatus('decoding');
      setError('');
      setProgress({ done: 0, total: file.size });
      try {
        const msg = await client.open(file, name, {
          onProgress: (done, total) => {
            if (seq === openSeq.current) setProgress({ done, total });
          },
        });
        if (seq !== openSeq.current) return;
        const next = { ...msg, file, name, fieldsCache: new Map(), labels: new Map() };
        setDoc(next);
        setSource(new ByteSource(file));
        setSelection(null);
        setCursor(-1);
        setDiagSelected(-1);
        setStatus('ready');
        const hasErrors = (msg.diagnostics || []).some((d) => /error|fatal/i.test(String(d.severity)));
        setTab(hasErrors || !msg.ok ? 'diag' : 'flame');
      } catch (err) {
        if (seq !== openSeq.current) return;
        if (err && err.cancelled) {
          setStatus('cancelled');
          setDoc(null);
          setSource(null);
          return;
        }
        setDoc(null);
        setSource(null);
        setError(err?.message || String(err));
        setStatus('error');
      }
    },
    [client],
  );

  const cancel = () => {
    openSeq.current++;
    client.stop();
    setStatus('cancelled');
    setDoc(null);
    setSource(null);
  };

  // the bundled sample, from the page's own origin, when no file was given
  useEffect(() => {
    let stop = false;
    setStatus('loading');
    setPendingName(SAMPLE_NAME);
    fetch(SAMPLE_URL)
      .then((r) => {
        if (!r.ok) throw new Error(`could not load the sample (${r.status})`);
        return r.blob();
      })
      .then((blob) => {
        if (!stop && openSeq.current === 0) openFile(new File([blob], SAMPLE_NAME), SAMPLE_NAME);
      })
      .catch((err) => {
        if (!stop && openSeq.current === 0) {
          setError(err.message || String(err));
          setStatus('error');
        }
      });
    return () => {
      stop = true;
    };
  }, [openFile]);

  useEffect(() => () => client.stop(), [client]);

  // drop zone over the whole page
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e) => Array.from(e.dataTransfer?.types || []).includes('Files');
    const onEnter = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const onOver = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const f = e.dataTransfer.files?.[0];
      if (f) openFile(f, f.name);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [openFile]);

  const select = useCallback((sel, opts = {}) => {
    setSelection(sel);
    if (opts.reveal) setRevealNonce((n) => n + 1);
    setScrollNonce((n) => n + 1);
  }, []);

  const onByteClick = useCallback(
    (off) => {
      if (!doc) return;
      setCursor(off);
      const row = findRowAt(doc, off);
      if (row >= 0) select({ type: 'record', row }, { reveal: true });
      else select({ type: 'bytes', start: off, end: off + 1, label: 'no record covers this byte' });
    },
    [doc, select],
  );

  const onPickDiagnostic = useCallback(
    (i, d) => {
      if (!doc) return;
      setDiagSelected(i);
      const size = doc.size;
      const off = Math.max(0, Number(d.offset) || 0);
      const start = Math.min(off, Math.max(0, size - 1));
      const len = Math.max(1, Number(d.length) || 0);
      const end = Math.min(size, Math.max(start + 1, off + len));
      setCursor(start);
      const note = off >= size ? `offset ${'0x' + off.toString(16)} is past the end of the file` : '';
      select({ type: 'bytes', start, end, label: `${String(d.code ?? 'diagnostic')}`, note });
    },
    [doc, select],
  );

  const range = useMemo(() => (doc ? selectionRange(doc, selection) : null), [doc, selection, revealNonce]);

  const busy = status === 'decoding' || status === 'loading';
  const pct = progress.total ? formatPercent(progress.done, progress.total) : '';
  const diagCount = doc?.diagnostics?.length ?? 0;

  return (
    <div class={`app${dragging ? ' dragging' : ''}${busy && doc ? ' stale' : ''}`} aria-busy={busy ? 'true' : 'false'}>
      <header class="topbar">
        <h1 class="brand">profscope</h1>
        <button type="button" class="primary" onClick={() => fileInput.current?.click()}>
          Open file…
        </button>
        <input
          ref={fileInput}
          type="file"
          class="visually-hidden"
          aria-label="Open a profiler file"
          data-testid="file-input"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) openFile(f, f.name);
            e.currentTarget.value = '';
          }}
        />
        <span class="file-name" data-testid="file-name" title={doc ? `${doc.name} (${doc.size} bytes)` : ''}>
          {busy ? pendingName : doc ? doc.name : ''}
          {doc && !busy ? <span class="muted"> · {formatBytes(doc.size)}</span> : null}
        </span>
        {busy ? (
          <div class="progress" role="status" aria-label="Decoding progress">
            <progress max={progress.total || 1} value={progress.done} />
            <span class="muted">
              {status === 'loading' ? 'Loading sample…' : `Decoding… ${pct}`}
            </span>
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        ) : null}
        <span class="privacy muted">Decoded in your browser · nothing is uploaded</span>
      </header>

      {error ? (
        <div class="banner error" role="alert">
          Could not open {pendingName || 'the file'}: {error}
        </div>
      ) : null}
      {status === 'cancelled' ? (
        <div class="banner" role="status">
          Decoding cancelled. Drop a file or use “Open file…”.
        </div>
      ) : null}

      {doc ? <Summary doc={doc} /> : <div class="summary-placeholder" />}

      <main class="panes">
        <section class="pane tree-pane" aria-label="Records">
          {doc ? (
            <RecordTree doc={doc} client={client} selection={selection} revealNonce={revealNonce} onSelect={select} />
          ) : (
            <Empty busy={busy} />
          )}
        </section>
        <section class="pane hex-pane" aria-label="Hex view">
          {doc && source ? (
            <HexView
              doc={doc}
              source={source}
              range={range}
              cursor={cursor}
              scrollNonce={scrollNonce}
              onByteClick={onByteClick}
            />
          ) : (
            <Empty busy={busy} />
          )}
        </section>
      </main>

      <section class="bottom">
        <div class="tabs" role="tablist" aria-label="Views">
          <button type="button" role="tab" aria-selected={tab === 'flame' ? 'true' : 'false'} onClick={() => setTab('flame')}>
            Flame graph
          </button>
          <button type="button" role="tab" aria-selected={tab === 'diag' ? 'true' : 'false'} onClick={() => setTab('diag')}>
            Diagnostics{doc ? <span class={`count${diagCount ? ' warn' : ''}`}>{diagCount}</span> : null}
          </button>
        </div>
        {tab === 'flame' ? (
          <section class="tabpanel" role="tabpanel" aria-label="Flame graph">
            {doc ? <FlameGraph doc={doc} /> : <Empty busy={busy} />}
          </section>
        ) : (
          <section class="tabpanel" role="tabpanel" aria-label="Diagnostics">
            {doc ? <Diagnostics diagnostics={doc.diagnostics || []} selected={diagSelected} onPick={onPickDiagnostic} /> : <Empty busy={busy} />}
          </section>
        )}
      </section>

      {dragging ? (
        <div class="drop-overlay" aria-hidden="true">
          <div>Drop a perf.data file to open it</div>
        </div>
      ) : null}
    </div>
  );
}

function Empty({ busy }) {
  return <div class="placeholder muted">{busy ? 'Decoding…' : 'Drop a perf.data file anywhere, or use “Open file…”.'}</div>;
}

/** Bytes to highlight for a selection. */
function selectionRange(doc, sel) {
  if (!sel) return null;
  const { offsets, sizes, kinds, types } = doc.records;
  const labelOf = (row) => doc.labels.get(row) ?? fallbackLabel(kinds[row], types[row]);
  if (sel.type === 'bytes') return { start: sel.start, end: sel.end, label: sel.label, note: sel.note };
  if (sel.type === 'record') {
    const r = fileRow(doc, sel.row);
    if (r < 0) return null;
    const nested = r !== sel.row;
    return {
      start: offsets[r],
      end: offsets[r] + sizes[r],
      label: labelOf(sel.row),
      note: nested
        ? `a record at z+0x${offsets[sel.row].toString(16)} of the decompressed stream; showing its ${labelOf(r)} container`
        : '',
    };
  }
  if (sel.type === 'field') {
    if (kinds[sel.row] === RecordKind.Nested) {
      const r = fileRow(doc, sel.row);
      if (r < 0) return null;
      return {
        start: offsets[r],
        end: offsets[r] + sizes[r],
        label: `${labelOf(sel.row)}.${sel.name}`,
        note: 'field of a decompressed record; showing the compressed container',
      };
    }
    const f = fieldAtPath(doc.fieldsCache.get(sel.row)?.fields || [], sel.path);
    const off = Number(f?.offset ?? sel.offset);
    const size = Number(f?.size ?? sel.size);
    return { start: off, end: off + Math.max(1, size), label: `${labelOf(sel.row)} · ${sel.name}` };
  }
  return null;
}
