// profscope page: opens a profiler file in the decoding worker and shows its summary, record
// tree, hex view and the analysis views. Nothing is uploaded. Each concern is a hook in app/:
// opening files, the embedding API, the drop zone, hex/record selection, analysis options,
// the selected frame and its samples, the sandwich, the key map, the URL state.
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { DecoderClient } from './worker/client.js';
import { formatBytes, formatPercent } from './lib/format.js';
import { getTheme, setTheme } from './lib/theme.js';
import { EMBED } from './app/page-params.js';
import { useOpenFile } from './app/use-open-file.js';
import { useEmbedding } from './app/use-embedding.js';
import { useDropZone } from './app/use-drop-zone.js';
import { useSelection } from './app/use-selection.js';
import { useAnalysisOptions } from './app/use-analysis-options.js';
import { useFrameSelection } from './app/use-frame-selection.js';
import { useSandwich } from './app/use-sandwich.js';
import { useKeyMap } from './app/use-key-map.js';
import { useUrlState } from './app/use-url-state.js';
import { useLayout } from './app/use-layout.js';
import { Splitter } from './views/splitter/splitter.jsx';
import { MaximizeButton } from './views/splitter/maximize-button.jsx';
import { HexView } from './views/hex-view/hex-view.jsx';
import { StreamHex } from './views/hex-view/stream-hex.jsx';
import { RecordTree } from './views/record-tree/record-tree.jsx';
import { FlameGraph } from './views/flame-graph/flame-graph.jsx';
import { Diagnostics } from './views/diagnostics/diagnostics.jsx';
import { Summary } from './views/summary/summary.jsx';
import { FlameChart } from './views/flame-chart/flame-chart.jsx';
import { CallTree } from './views/call-tree/call-tree.jsx';
import { FilterBar } from './views/filter-bar/filter-bar.jsx';
import { SamplesStrip } from './views/filter-bar/samples-strip.jsx';
import { valueFormatter } from './views/filter-bar/weight-switch.jsx';
import { KeyMap } from './views/keymap/keymap.jsx';
import { Functions } from './views/functions/functions.jsx';
import { Composition } from './views/composition/composition.jsx';
import { DecoderOptions } from './views/decoder-options/decoder-options.jsx';
import { MissingPanel } from './views/missing/missing-panel.jsx';
import { SIDE } from './lib/multi-file.js';
import { Sandwich } from './views/sandwich/sandwich.jsx';
import { useExport } from './app/use-export.js';
import { useCompare } from './app/use-compare.js';
import { ExportMenu } from './views/export/export-menu.jsx';
import { Compare } from './views/compare/compare.jsx';

// The views below the panes, in number-key order (1-8).
const TABS = [
  ['flame', 'Flame graph'],
  ['chart', 'Flame chart'],
  ['calltree', 'Call tree'],
  ['sandwich', 'Sandwich'],
  ['functions', 'Functions'],
  ['composition', 'Composition'],
  ['diag', 'Diagnostics'],
  ['compare', 'Compare'],
];
const TAB_IDS = TABS.map(([id]) => id);

export function App() {
  const client = useMemo(() => new DecoderClient(), []);
  const [tab, setTab] = useState('flame');
  const [showKeys, setShowKeys] = useState(false);
  const searchRef = useRef(null);
  const gotoRef = useRef(null); // the hex view's Go to offset field (key g)
  const chartApi = useRef(null);
  // a new document opens on its diagnostics when it has errors, else on the flame graph
  const onOpened = useCallback((d) => setTab((d.diagnostics || []).some((x) => /error|fatal/i.test(String(x.severity))) || !d.ok ? 'diag' : 'flame'), []);
  const files = useOpenFile(client, onOpened);
  const { doc, source, status, setError } = files;
  useEmbedding(files.openFile);
  const showCompare = useCallback(() => setTab('compare'), []);
  const cmp = useCompare(doc, client, files, showCompare);
  const exp = useExport(doc, client, setError);
  // files dropped onto an open profile that are all side files (binaries, debug files, a perf
  // archive tarball, side folders of symbols) are added to it; anything else opens as usual
  const onDropped = useCallback(
    (/** @type {File[]} */ list) =>
      doc && list.length && list.every((f) => SIDE.test(f.name) || /** @type {any} */ (f).profscopeFolder) ? files.addSideFiles(doc, list) : cmp.openDropped(list),
    [doc, files.addSideFiles, cmp.openDropped],
  );
  const dragging = useDropZone(onDropped, !!doc);
  // the "what is missing" panel, until dismissed for this decode
  const [missingDismissed, setMissingDismissed] = useState(/** @type {any} */ (null));
  const missing = doc?.missing;
  // shown right after a person's drop (not over the bundled sample or an embedding host's file)
  const showMissing = doc && doc.extras?.chosen && missing && (missing.mappings.length || missing.stack_copy) && missingDismissed !== doc;
  const sel = useSelection(doc, client);
  const an = useAnalysisOptions(doc, client, setError);
  const { opts, analysis } = an;
  const frame = useFrameSelection({ doc, analysis, client, selection: sel.selection, select: sel.select, setCursor: sel.setCursor, pushTransform: an.pushTransform, onError: setError });
  const sw = useSandwich({ analysis, opts, client, showTab: () => setTab('sandwich'), onError: setError });
  const layout = useLayout();
  useKeyMap({ gotoRef, doc, tabs: TAB_IDS, tab, setTab, showKeys, setShowKeys, selection: sel.selection, select: sel.select, onByteClick: sel.onByteClick, onBack: sel.onBack, onError: setError, searchRef, chartApi, layout });
  useUrlState({ doc, tab, opts, selection: sel.selection, setTab, changeOpts: an.changeOpts, select: sel.select });

  const busy = status === 'decoding' || status === 'loading' || status === 'stopping';
  const selectRecord = (/** @type {number} */ row) => sel.select({ type: 'record', row }, { reveal: true });
  return (
    <div class={`app${EMBED ? ' embed' : ''}${dragging ? ' dragging' : ''}${busy && doc ? ' stale' : ''}${layout.maximized ? ' maximized' : ''}`} aria-busy={busy ? 'true' : 'false'}>
      <TopBar files={files} busy={busy} onKeys={() => setShowKeys(true)} onFiles={cmp.openDropped} exp={exp} />

      {files.error ? (
        <div class="banner error" role="alert">
          Could not open {files.pendingName || 'the file'}: {files.error}
        </div>
      ) : null}
      {an.viewError ? (
        <div class="banner error" role="alert" data-testid="view-error">
          This view could not be made, the options are as they were: {an.viewError}{' '}
          <button type="button" class="close" aria-label="Dismiss" title="Dismiss" onClick={an.dismissViewError}>
            ×
          </button>
        </div>
      ) : null}
      {an.analysis?.notice && !an.viewError ? (
        <div class="banner" role="status" data-testid="view-notice">
          This view is shown in part: {an.analysis.notice}
        </div>
      ) : null}
      {status === 'cancelled' ? (
        <div class="banner" role="status">
          Decoding cancelled. Drop a file or use “Open file…”.
        </div>
      ) : null}

      {doc && !busy ? <StoppedBanner doc={doc} /> : null}

      {doc && doc.summary?.format === 'jitdump' ? (
        <div class="banner" role="note" data-testid="jitdump-alone">
          A jit dump alone has no samples: it names the code a JIT wrote. Drop it together with the perf.data recorded
          from the same process (<code>perf record -k 1</code>, its PID in the dump's name) to see those samples' JIT
          frames by name.
        </div>
      ) : null}
      {doc ? <Summary doc={doc} /> : <div class="summary-placeholder" />}

      <main class="panes" style={layout.style.panes}>
        <section class="pane tree-pane" aria-label="Records" onMouseOver={sel.onTreeHover} onMouseLeave={() => sel.setHoverRange(null)}>
          {doc ? <RecordTree doc={doc} client={client} selection={sel.selection} revealNonce={sel.revealNonce} onSelect={sel.select} /> : <Empty busy={busy} />}
        </section>
        <section class="pane hex-pane" aria-label="Hex view">
          {source && doc && sel.range?.stream ? (
            <StreamHex doc={doc} client={client} range={sel.range} scrollNonce={sel.scrollNonce} onSelect={sel.select} />
          ) : source ? (
            <HexView
              doc={doc}
              source={source}
              range={sel.range}
              cursor={sel.cursor}
              scrollNonce={sel.scrollNonce}
              onByteClick={sel.onByteClick}
              onFollow={sel.onFollow}
              onBack={sel.onBack}
              canBack={sel.canBack}
              hoverRange={sel.hoverRange}
              gotoRef={gotoRef}
            />
          ) : (
            <Empty busy={busy} />
          )}
        </section>
      </main>
      <Splitter split={layout.split} onSplit={layout.setSplit} />

      <section class="bottom" style={layout.style.bottom}>
        <div class="tabs" role="tablist" aria-label="Views">
          {TABS.map(([id, label], i) => (
            <button type="button" role="tab" key={id} aria-selected={tab === id ? 'true' : 'false'} onClick={() => setTab(id)} title={String(i + 1)}>
              {label}
              {id === 'diag' && doc ? <span class={`count${doc.diagnostics?.length ? ' warn' : ''}`}>{doc.diagnostics?.length ?? 0}</span> : null}
            </button>
          ))}
          <MaximizeButton maximized={layout.maximized} onToggle={layout.toggleMaximized} />
        </div>
        {showMissing ? <MissingPanel missing={missing} busy={busy} onAdd={(f) => files.addSideFiles(doc, f)} onDismiss={() => setMissingDismissed(doc)} /> : null}
        {doc && doc.decoderOptions && tab !== 'diag' ? <DecoderOptions doc={doc} busy={busy} onChange={(options) => files.reopen(doc, options)} /> : null}
        {doc && analysis && tab !== 'diag' && tab !== 'composition' && tab !== 'compare' ? (
          <FilterBar
            doc={doc}
            opts={opts}
            analysis={analysis}
            analyzing={an.analyzing}
            onChange={an.changeOpts}
            onUndo={an.undoTransform}
            onRedo={an.redoTransform}
            canRedo={an.canRedo}
            searchRef={searchRef}
            selName={frame.selFunc >= 0 ? String(analysis.names[frame.selFunc]) : ''}
            selLib={frame.selLib}
            onTransform={frame.onTransform}
            onSandwich={() => frame.selFunc >= 0 && sw.openSandwich(frame.selFunc)}
          />
        ) : null}
        {doc && analysis && frame.frameSamples && tab !== 'diag' && tab !== 'compare' ? <SamplesStrip doc={doc} analysis={analysis} info={frame.frameSamples} onStep={frame.stepSample} /> : null}
        <section class="tabpanel" role="tabpanel" aria-label={TABS.find(([id]) => id === tab)?.[1] ?? 'Diagnostics'}>
          {!doc || (!analysis && tab !== 'flame' && tab !== 'composition' && tab !== 'diag' && tab !== 'compare') ? (
            <Empty busy={busy} />
          ) : tab === 'compare' ? (
            <Compare doc={doc} cmp={cmp} />
          ) : tab === 'flame' ? (
            <FlameGraph
              doc={doc}
              analysis={analysis}
              matches={analysis?.matches}
              marked={frame.marked}
              selectedNode={frame.selNode}
              onSelectNode={frame.selectNode}
              hoverNode={frame.hoverNode}
              onHoverNode={frame.setHoverNode}
            />
          ) : tab === 'chart' ? (
            <FlameChart
              doc={doc}
              analysis={analysis}
              matches={analysis.matches}
              markedSample={frame.markedSample}
              markedAt={frame.markedAt}
              selectedNode={frame.selNode}
              onSelectNode={frame.selectNode}
              onSelectRecord={selectRecord}
              hoverNode={frame.hoverNode}
              onHoverNode={frame.setHoverNode}
              range={opts.filter.t0 != null ? { t0: opts.filter.t0, t1: opts.filter.t1 } : null}
              onRange={(t0, t1) => an.changeOpts({ ...opts, filter: { ...opts.filter, t0, t1 } })}
              apiRef={chartApi}
              loadCpuLanes={() => client.cpuLanes().then((m) => m.lanes)}
              loadFlameBoxes={(/** @type {any} */ q) => client.flameBoxes(q).then((m) => m.boxes)}
              loadCallActivity={(/** @type {any} */ q) => client.callActivity(q).then((m) => m.activity)}
            />
          ) : tab === 'calltree' ? (
            <CallTree
              tree={analysis.tree}
              names={analysis.names}
              matches={analysis.matches}
              selectedNode={frame.selNode}
              onSelectNode={frame.selectNode}
              label={opts.invert ? 'Call tree (inverted, bottom-up)' : 'Call tree (top-down)'}
              inverted={opts.invert}
              hoverNode={frame.hoverNode}
              onHoverNode={frame.setHoverNode}
              testid="call-tree"
              formatValue={valueFormatter(analysis, doc)}
              inlined={doc.funcInlined}
            />
          ) : tab === 'sandwich' ? (
            <Sandwich sandwich={sw.sandwich} formatValue={valueFormatter(analysis, doc)} />
          ) : tab === 'functions' ? (
            <Functions doc={doc} analysis={analysis} client={client} selectedFunc={frame.selFunc} onPick={frame.pickFunc} onSandwich={sw.openSandwich} />
          ) : tab === 'composition' ? (
            <Composition doc={doc} onSelectRecord={selectRecord} />
          ) : (
            <Diagnostics diagnostics={doc.diagnostics || []} selected={sel.diagSelected} onPick={sel.onPickDiagnostic} />
          )}
        </section>
      </section>

      {showKeys ? <KeyMap onClose={() => setShowKeys(false)} /> : null}
      {dragging ? (
        <div class="drop-overlay" aria-hidden="true">
          <div>Drop a perf.data file to open it</div>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Where a cancelled decode stopped (its decode_stopped diagnostic), above what it kept; nothing otherwise.
 * @param {{doc: any}} props
 */
function StoppedBanner({ doc }) {
  const stop = (doc.diagnostics || []).find((/** @type {any} */ d) => d.code === 'decode_stopped');
  if (!stop) return null;
  const at = Number(stop.offset) || 0;
  // in a perf --threads recording's data files (read in turns: each about as far as this one)
  const inData = /of data file (\d+), (\d+) bytes/.exec(String(stop.message || ''));
  const where = inData
    ? `byte ${at.toLocaleString('en-US')} of data file ${doc.dataFileNames?.[Number(inData[1]) - 1] ?? inData[1]} ` +
      `(${formatPercent(at, Number(inData[2]) || 1)}; the data files are read in turns, each about as far)`
    : `byte ${at.toLocaleString('en-US')} of ${Number(doc.size).toLocaleString('en-US')} (${formatPercent(at, doc.size || 1)})`;
  return (
    <div class="banner" role="status" data-testid="decode-stopped">
      {`Decoding was cancelled at ${where}: shown is what was decoded before it. Open the file again to decode all of it.`}
    </div>
  );
}

/**
 * What the decode has made so far, for the progress line: " · 1,234,567 samples" (records while no sample
 * is made yet: an XRay log's calls are made at its end), or nothing.
 * @param {{samples?: number, records?: number}} p
 */
function decodedSoFar(p) {
  if (p.samples) return ` · ${p.samples.toLocaleString('en-US')} samples`;
  if (p.records) return ` · ${p.records.toLocaleString('en-US')} records`;
  return '';
}

/** The bar at the top: the file input, the open file's name, decoding progress, theme, keys. */
function TopBar({ files, busy, onKeys, onFiles, exp }) {
  const fileInput = useRef(/** @type {HTMLInputElement | null} */ (null));
  const { doc, progress, status } = files;
  return (
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
        multiple
        onChange={(e) => {
          const fs = Array.from(e.currentTarget.files || []);
          if (fs.length) onFiles(fs);
          e.currentTarget.value = '';
        }}
      />
      <span class="file-name" data-testid="file-name" title={doc ? `${doc.name} (${doc.size} bytes)` : ''}>
        {busy ? files.pendingName : doc ? doc.name : ''}
        {doc && !busy ? <span class="muted"> · {formatBytes(doc.size + (doc.dataFileBytes || 0))}</span> : null}
      </span>
      {busy ? (
        <div class="progress" role="status" aria-label="Decoding progress">
          <progress max={progress.total || 1} value={progress.done} />
          <span class="muted">
            {status === 'loading'
              ? 'Loading sample…'
              : status === 'stopping'
                ? 'Stopping… keeping what was decoded'
                : `Decoding… ${progress.total ? formatPercent(progress.done, progress.total) : ''}${decodedSoFar(progress)}`}
          </span>
          <button type="button" onClick={files.cancel} disabled={status === 'stopping'} title="Stop decoding and show what was decoded so far">
            Cancel
          </button>
        </div>
      ) : null}
      <ExportMenu disabled={!files.doc || busy} busy={exp.busy} format={files.doc?.summary?.format} onExport={exp.exportAs} />
      <span class="privacy muted">Decoded in your browser · nothing is uploaded</span>
      <ThemePicker />
      <button type="button" class="keys-btn" onClick={onKeys} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">
        ?
      </button>
    </header>
  );
}

function ThemePicker() {
  const [t, setT] = useState(getTheme);
  return (
    <select
      aria-label="Theme"
      value={t}
      onChange={(e) => {
        const v = e.currentTarget.value;
        setT(v);
        setTheme(v);
      }}
    >
      <option value="auto">Theme: system</option>
      <option value="light">Theme: light</option>
      <option value="dark">Theme: dark</option>
    </select>
  );
}

function Empty({ busy }) {
  return (
    <div class="placeholder muted">
      {busy ? 'Decoding…' : EMBED ? 'Waiting for a profile from the page that embeds this view.' : 'Drop a perf.data file anywhere, or use “Open file…”.'}
    </div>
  );
}
