// Composition dashboard: what the file is made of and what it covers, read at a glance.
// Bars for bytes per record kind and per feature section (counted by the worker from the
// record table), samples per event, thread and CPU, the time span, and the records that say
// samples were lost or throttled. Each bar of a record kind selects the first such record.
import { useMemo } from 'preact/hooks';
import { formatBytes, formatDuration, formatInt, formatPercent } from '../../lib/format.js';
import { RecordKind } from '../../lib/record-kind.js';
import { RecordsPending } from '../../lib/tables-pending.jsx';
import './composition.css';

const MAX_BARS = 16;

function Bars({ title, items, total, unit = 'bytes', onPick, testid }) {
  const max = Math.max(1, ...items.map((x) => x.value));
  const shown = items.slice(0, MAX_BARS);
  const rest = items.slice(MAX_BARS).reduce((a, x) => a + x.value, 0);
  const fmt = unit === 'bytes' ? formatBytes : formatInt;
  return (
    <section class="cmp-card" aria-label={title} data-testid={testid}>
      <h3>{title}</h3>
      {shown.length ? (
        <ul class="cmp-bars">
          {shown.map((x, i) => (
            <li key={i} title={`${x.label}: ${fmt(x.value)}${x.note ? ` · ${x.note}` : ''}`} onClick={onPick && x.pick != null ? () => onPick(x.pick) : undefined} class={onPick && x.pick != null ? 'pick' : ''}>
              <span class="cmp-label mono">{x.label}</span>
              <span class="cmp-bar">
                <span class="cmp-fill" style={{ width: `${(100 * x.value) / max}%`, background: x.color || undefined }} />
              </span>
              <span class="cmp-value">
                {fmt(x.value)} <span class="muted">{formatPercent(x.value, total)}</span>
                {x.note ? <span class="muted"> · {x.note}</span> : null}
              </span>
            </li>
          ))}
          {rest > 0 ? (
            <li class="muted">
              <span class="cmp-label">{formatInt(items.length - MAX_BARS)} more</span>
              <span class="cmp-bar" />
              <span class="cmp-value">{fmt(rest)}</span>
            </li>
          ) : null}
        </ul>
      ) : (
        <p class="muted">none in this file</p>
      )}
    </section>
  );
}

const LOSS = /^(LOST|LOST_SAMPLES|THROTTLE|UNTHROTTLE|AUXTRACE_ERROR)$/;

/** @param {{doc: any, onSelectRecord: (row: number) => void}} props */
export function Composition(props) {
  // the composition is counted with the record table, which arrives after the rest of the file
  return props.doc.composition ? <CompositionOf {...props} /> : <RecordsPending doc={props.doc} purpose="to count them by kind" />;
}

/** @param {{doc: any, onSelectRecord: (row: number) => void}} props */
function CompositionOf({ doc, onSelectRecord }) {
  const comp = doc.composition || [];
  const data = useMemo(() => {
    const pick = (g) => g.first; // counted in the worker, with the group's first row
    const records = comp.filter((g) => g.kind !== RecordKind.Feature).map((g) => ({ label: g.label, value: g.bytes, note: `${formatInt(g.count)}×${g.nested ? ' (decompressed)' : ''}`, pick: pick(g) }));
    const features = comp.filter((g) => g.kind === RecordKind.Feature).map((g) => ({ label: g.label.replace(/^feature /, ''), value: g.bytes, pick: pick(g) }));
    const loss = comp.filter((g) => LOSS.test(g.label)).map((g) => ({ label: g.label, value: g.count, pick: pick(g) }));
    const events = (doc.events || []).map((e, i) => ({ label: String(e.name ?? `event ${i}`), value: Number(e.samples) || 0 })).sort((a, b) => b.value - a.value);
    const threads = (doc.threads || [])
      .map((t) => ({ label: `${String(t.name ?? '') || '?'} ${t.pid}/${t.tid}`, value: Number(t.samples) || 0 }))
      .filter((t) => t.value > 0)
      .sort((a, b) => b.value - a.value);
    const cpuItems = (doc.cpus || []).map((c) => ({ label: `CPU ${c.cpu}`, value: c.rows })); // counted in the worker
    return { records, features, loss, events, threads, cpuItems };
  }, [doc]);
  const fileBytes = doc.size || 1;
  const samples = doc.sampleRows ?? 0;
  const span = doc.timing ? doc.timing.end - doc.timing.start : 0;
  const featureBytes = data.features.reduce((a, x) => a + x.value, 0);
  return (
    <div class="composition" data-testid="composition">
      <div class="cmp-facts">
        <div>
          <b>{formatBytes(doc.size)}</b> <span class="muted">file</span>
        </div>
        <div>
          <b>{formatInt(doc.records.kinds.length)}</b> <span class="muted">rows in the record table</span>
        </div>
        <div>
          <b>{formatInt(samples)}</b> <span class="muted">{doc.intervals ? 'calls' : 'samples'}</span>
        </div>
        <div>
          <b>{span > 0 ? formatDuration(Math.round(span)) : '–'}</b> <span class="muted">time span</span>
        </div>
        <div>
          <b>{formatInt(doc.markers?.rows?.length ?? 0)}</b> <span class="muted">timeline markers</span>
        </div>
        <div>
          <b>{formatBytes(featureBytes)}</b> <span class="muted">in feature sections</span>
        </div>
      </div>
      <div class="cmp-grid">
        <Bars title="Bytes per record kind" items={data.records} total={fileBytes} onPick={onSelectRecord} testid="cmp-records" />
        <Bars title="Bytes per feature section" items={data.features} total={fileBytes} onPick={onSelectRecord} testid="cmp-features" />
        <Bars title="Lost and throttled (records)" items={data.loss} total={Math.max(1, data.loss.reduce((a, x) => a + x.value, 0))} unit="count" onPick={onSelectRecord} testid="cmp-loss" />
        <Bars title="Samples per event" items={data.events} total={Math.max(1, samples)} unit="count" testid="cmp-events" />
        <Bars title="Samples per thread" items={data.threads} total={Math.max(1, samples)} unit="count" testid="cmp-threads" />
        <Bars title="Samples per CPU" items={data.cpuItems} total={Math.max(1, samples)} unit="count" testid="cmp-cpus" />
      </div>
    </div>
  );
}
