// The filter bar over the analysis views: event / thread / process / CPU filters, the time
// range, search (substring or /regex/), invert, the transform stack (undo / redo) and the
// transforms for the selected frame.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { WeightSwitch } from './weight-switch.jsx';
import { formatInt, formatTime, plural, sampleWord } from '../../lib/format.js';
import { distinctInts } from '../../lib/keyed-hash.js';
import './filter-bar.css';

const TRANSFORMS = [
  ['focus-subtree', 'Focus subtree', 'Only this call path; it becomes the root'],
  ['focus-function', 'Focus function', 'Only stacks through this function, starting at it'],
  ['merge-function', 'Merge', 'Remove this function; its callees go to its caller'],
  ['drop-function', 'Drop', 'Drop the samples with this function'],
  ['collapse-recursion', 'Collapse recursion', 'f → … → f becomes f'],
  ['collapse-library', 'Collapse library', 'A run of frames of this library becomes one'],
];

export function describeTransform(t, names) {
  const fn = (f) => (t.label != null ? String(t.label) : String(names?.[f] ?? f));
  switch (t.type) {
    case 'focus-subtree':
      return `Focus subtree: ${t.label ?? ''}`;
    case 'focus-function':
      return `Focus function: ${fn(t.func)}`;
    case 'merge-function':
      return `Merge: ${fn(t.func)}`;
    case 'drop-function':
      return `Drop: ${fn(t.func)}`;
    case 'collapse-recursion':
      return `Collapse recursion: ${fn(t.func)}`;
    case 'collapse-library':
      return `Collapse library: ${t.lib}`;
    default:
      return String(t.type);
  }
}


export function FilterBar({ doc, opts, analysis, analyzing, onChange, onUndo, onRedo, canRedo, searchRef, selName, selLib, onTransform, onSandwich }) {
  const events = doc.events || [];
  const threads = doc.threads || [];
  const cpus = useMemo(() => (doc.cpus || []).slice(0, 4096).map((c) => c.cpu), [doc]); // counted in the worker
  // threads that have samples (the others cannot change a sample filter)
  const sampled = useMemo(() => threads.map((t, i) => (t.samples == null || Number(t.samples) > 0 ? i : -1)).filter((i) => i >= 0), [doc]);
  const [q, setQ] = useState(opts.search || '');
  // The last search this box sent: when opts.search comes back as that value it is the echo of our
  // own (debounced) change and must not overwrite what was typed since; any other value is an
  // outside change (undo, URL state) and replaces the text.
  const sentSearch = useRef(opts.search || '');
  const latestOpts = useRef(opts);
  latestOpts.current = opts;
  useEffect(() => {
    const s = opts.search || '';
    if (s === sentSearch.current) return;
    sentSearch.current = s;
    setQ(s);
  }, [opts.search]);
  // search: re-ask the worker (debounced)
  useEffect(() => {
    if (q === (opts.search || '')) return undefined;
    const h = setTimeout(() => {
      sentSearch.current = q;
      onChange({ ...latestOpts.current, search: q }, { keepRedo: true });
    }, 200);
    return () => clearTimeout(h);
  }, [q]);
  let badRegex = false;
  const m = /^\/(.*)\/([a-z]*)$/.exec(q);
  if (m) {
    try {
      new RegExp(m[1], m[2]);
    } catch {
      badRegex = true;
    }
  }
  const f = opts.filter;
  const t0 = doc.timing.zero ?? doc.timing.start; // times from the file's one time zero (the flame chart's ruler's)
  const matchCount = analysis.matches ? analysis.matches.reduce((a, b) => a + b, 0) : 0;
  const setFilter = (patch) => onChange({ ...opts, filter: { ...f, ...patch } }, { keepRedo: true });
  return (
    <div class="analysis-bar" role="toolbar" aria-label="Narrowing">
      <label>
        Event{' '}
        <select aria-label="Event filter" value={String(f.event)} onChange={(e) => setFilter({ event: Number(e.currentTarget.value) })}>
          {(events.length ? events : [{ name: 'samples' }]).map((ev, i) => (
            <option value={String(i)} key={i}>
              {String(ev.name ?? `event ${i}`)} ({formatInt(doc.eventTotals?.[i] ?? ev.samples ?? 0)})
            </option>
          ))}
        </select>
      </label>
      <label>
        Thread{' '}
        <select
          aria-label="Thread filter"
          value={f.threads.length ? String(f.threads[0]) : ''}
          onChange={(e) => setFilter({ threads: e.currentTarget.value === '' ? [] : [Number(e.currentTarget.value)] })}
        >
          <option value="">
            all ({sampled.length} with {sampleWord(doc)}s)
          </option>
          {sampled.map((i) => (
            <option value={String(i)} key={i}>
              {String(threads[i].name ?? '')} {threads[i].pid}/{threads[i].tid} ({formatInt(threads[i].samples ?? 0)})
            </option>
          ))}
        </select>
      </label>
      <label>
        Process{' '}
        <select
          aria-label="Process filter"
          value={f.pid != null ? String(f.pid) : ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === '') setFilter({ pid: null, threads: [] });
            else {
              const pid = Number(v);
              setFilter({ pid, threads: threads.map((t, i) => (Number(t.pid) === pid ? i : -1)).filter((i) => i >= 0) });
            }
          }}
        >
          <option value="">all</option>
          {distinctInts(threads.map((t) => Number(t.pid))).map((pid) => (
            <option value={String(pid)} key={pid}>
              {pid}
            </option>
          ))}
        </select>
      </label>
      {cpus.length ? (
        <label>
          CPU{' '}
          <select aria-label="CPU filter" value={f.cpus.length ? String(f.cpus[0]) : ''} onChange={(e) => setFilter({ cpus: e.currentTarget.value === '' ? [] : [Number(e.currentTarget.value)] })}>
            <option value="">all</option>
            {cpus.map((c) => (
              <option value={String(c)} key={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {f.t0 != null ? (
        <span class="ab-range" data-testid="range-filter">
          Range {formatTime(f.t0 - t0)} – {formatTime(f.t1 - t0)}{' '}
          <button type="button" onClick={() => setFilter({ t0: null, t1: null })} aria-label="Clear the time range">
            ×
          </button>
        </span>
      ) : null}
      <input
        ref={searchRef}
        type="search"
        class={`ab-search${badRegex ? ' bad' : ''}`}
        placeholder="Search functions (/regex/)  [/]"
        aria-label="Search functions"
        value={q}
        onInput={(e) => setQ(e.currentTarget.value)}
      />
      {q ? <span class="muted" data-testid="search-count">{badRegex ? 'bad regex' : matchCount === 1 ? '1 function matches' : `${formatInt(matchCount)} functions match`}</span> : null}
      <label title="Bottom-up: roots are the functions where samples were taken">
        <input type="checkbox" checked={opts.invert} onChange={(e) => onChange({ ...opts, invert: e.currentTarget.checked }, { keepRedo: true })} /> Invert
      </label>
      <WeightSwitch doc={doc} opts={opts} onChange={onChange} />
      <span class="ab-samples muted" data-testid="analysis-samples" data-ms={analysis.ms != null ? analysis.ms.toFixed(1) : ''} title={analysis.ms != null ? `aggregated in the worker in ${analysis.ms.toFixed(1)} ms` : undefined}>
        {analyzing ? 'aggregating…' : plural(analysis.samples, sampleWord(doc))}
      </span>
      <div class="ab-transforms">
        {opts.transforms.length ? (
          <ol class="ab-stack" aria-label="Transforms">
            {opts.transforms.map((t, i) => (
              <li key={i}>{describeTransform(t, analysis.names)}</li>
            ))}
          </ol>
        ) : null}
        <button type="button" onClick={onUndo} disabled={!opts.transforms.length} title="Undo the last transform">
          Undo
        </button>
        <button type="button" onClick={onRedo} disabled={!canRedo} title="Redo">
          Redo
        </button>
        {selName ? (
          <span class="ab-sel">
            <span class="muted">Selected</span> <b class="mono" title={selName}>{selName}</b>:
            {TRANSFORMS.map(([type, text, title]) => (
              <button
                type="button"
                key={type}
                title={title}
                disabled={type === 'collapse-library' && !selLib}
                onClick={() => onTransform(type)}
              >
                {text}
              </button>
            ))}
            <button type="button" onClick={onSandwich}>
              Sandwich
            </button>
          </span>
        ) : (
          <span class="muted">select a frame for transforms</span>
        )}
      </div>
    </div>
  );
}
