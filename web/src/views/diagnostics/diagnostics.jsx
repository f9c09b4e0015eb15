// Diagnostics list: code, severity, offset, message (a repeated one: its count
// and first/last offsets). Clicking one jumps the hex
// view to its offset and selects its bytes.
import { hex, formatInt } from '../../lib/format.js';
import './diagnostics.css';

/**
 * @param {{diagnostics: any[], selected: number, onPick: (i: number, d: any) => void}} props
 */
export function Diagnostics({ diagnostics, selected, onPick }) {
  if (!diagnostics.length) {
    return <p class="diag-empty muted">No diagnostics: the decoder found nothing wrong with this file.</p>;
  }
  const counts = {};
  for (const d of diagnostics) counts[d.severity] = (counts[d.severity] || 0) + 1;
  return (
    <div class="diagnostics">
      <div class="diag-counts muted">
        {Object.entries(counts)
          .map(([k, n]) => `${formatInt(n)} ${k}${n === 1 || /s$/.test(k) ? '' : 's'}`)
          .join(' · ')}
      </div>
      <table class="diag-table">
        <thead>
          <tr>
            <th scope="col">Severity</th>
            <th scope="col">Code</th>
            <th scope="col">Offset</th>
            <th scope="col">Length</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {diagnostics.map((d, i) => (
            <tr
              key={i}
              class={`diag-row sev-${String(d.severity || '').toLowerCase()}${i === selected ? ' selected' : ''}`}
              tabIndex={0}
              aria-selected={i === selected ? 'true' : 'false'}
              onClick={() => onPick(i, d)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onPick(i, d);
                }
              }}
            >
              <td>
                <span class="sev-badge">{String(d.severity ?? '')}</span>
              </td>
              <td class="mono">{String(d.code ?? '')}</td>
              <td class="mono">{d.offset != null ? hex(d.offset) : ''}</td>
              <td class="mono">{d.length != null ? formatInt(d.length) : ''}</td>
              <td class="diag-msg">
                {String(d.message ?? '')}
                {d.count > 1 ? (
                  <span class="diag-repeat muted">
                    {` (${formatInt(d.count)} times, first at ${hex(d.offset)}, last at ${hex(d.last_offset)})`}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
