// Summary bar: format, mode, byte order, size, records, samples, time span, events, threads.
import { formatBytes, formatDuration, formatInt, formatTimestamp, plural } from '../../lib/format.js';
import { sizeItem } from './size-item.js';
import './summary.css';

/**
 * @param {{doc: any}} props
 */
export function Summary({ doc }) {
  const s = doc.summary || {};
  const events = Array.isArray(s.events) ? s.events : doc.events || [];
  const threads = Array.isArray(s.threads) ? s.threads : doc.threads || [];
  const facts = s.facts && typeof s.facts === 'object' ? Object.entries(s.facts) : [];
  const t0 = Number(s.time_start);
  const t1 = Number(s.time_end);
  const hasTime = Number.isFinite(t0) && Number.isFinite(t1) && t1 > 0;
  const items = [
    ['Format', s.format],
    ['Mode', s.mode],
    ['Byte order', s.byte_order],
    sizeItem(s.size != null ? Number(s.size) : doc.size, doc.dataFileBytes || 0, (doc.dataFileNames || []).length),
    ['Records', formatInt(s.records)],
    ['Samples', formatInt(s.samples)],
    ['Time span', hasTime ? formatDuration(doc.timing ? doc.timing.end - doc.timing.start : t1 - t0) : '–', hasTime ? `${formatTimestamp(t0)} – ${formatTimestamp(t1)}` : ''],
  ];
  return (
    <dl class="summary" aria-label="Summary">
      {items.map(([k, v, title]) => (
        <div class="sum-item" key={k} data-field={k.toLowerCase().replace(/ /g, '-')} title={title || undefined}>
          <dt>{k}</dt>
          <dd>{v == null || v === '' ? '–' : String(v)}</dd>
        </div>
      ))}
      <div class="sum-item" data-field="events">
        <dt>Events</dt>
        <dd>
          {events.length
            ? events.slice(0, 2).map((e, i) => (
                <span class="sum-event" key={i}>
                  {String(e.name ?? `event ${i}`)} <span class="muted">({formatInt(e.samples)})</span>
                </span>
              ))
            : '–'}
          {events.length > 2 ? (
            <details class="sum-threads sum-more">
              <summary>+{formatInt(events.length - 2)} more</summary>
              <ul>
                {events.map((e, i) => (
                  <li key={i}>
                    {String(e.name ?? `event ${i}`)} <span class="muted">({plural(e.samples, 'sample')})</span>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </dd>
      </div>
      <div class="sum-item" data-field="threads">
        <dt>Threads</dt>
        <dd>
          {threads.length ? (
            <details class="sum-threads">
              <summary>{formatInt(threads.length)}</summary>
              <ul>
                {threads.slice(0, 200).map((t, i) => (
                  <li key={i}>
                    <span class="mono">
                      {String(t.pid ?? '?')}/{String(t.tid ?? '?')}
                    </span>{' '}
                    {String(t.name ?? '')}
                    {t.samples != null ? <span class="muted"> ({plural(t.samples, 'sample')})</span> : null}
                  </li>
                ))}
                {threads.length > 200 ? <li class="muted">… {formatInt(threads.length - 200)} more</li> : null}
              </ul>
            </details>
          ) : (
            '0'
          )}
        </dd>
      </div>
      {facts.length ? (
        <div class="sum-item" data-field="facts">
          <dt>File facts</dt>
          <dd>
            <details class="sum-threads">
              <summary>{formatInt(facts.length)}</summary>
              <dl class="sum-facts">
                {facts.map(([k, val]) => (
                  <div key={k}>
                    <dt>{String(k)}</dt>
                    <dd>{String(val)}</dd>
                  </div>
                ))}
              </dl>
            </details>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
