// The functions of a comparison, by change (the core's order: |self delta|, then |total
// delta|): self and total of A and B, the delta and the delta in % of A.
import { formatInt } from '../../lib/format.js';

const MAX_ROWS = 2000;

/** @param {number} d */
const signed = (d) => (d > 0 ? `+${formatInt(d)}` : d < 0 ? `−${formatInt(-d)}` : '0');
/** @param {number} p */
const pct = (p) => (p === Infinity ? 'new' : !p ? '0%' : `${p > 0 ? '+' : '−'}${Math.abs(p).toFixed(1)}%`);
/** @param {number} d */
const cls = (d) => (d > 0 ? 'grew' : d < 0 ? 'shrank' : '');

/** @param {{model: any}} props */
export function DiffTable({ model }) {
  const f = model.functions;
  const n = Math.min(f.func.length, MAX_ROWS);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const fn = f.func[i];
    rows.push(
      <tr key={fn} data-name={model.labels[fn]}>
        <td class="name" title={model.modules[fn] ? `${model.labels[fn]} — ${model.modules[fn]}` : model.labels[fn]}>
          {model.labels[fn]}
        </td>
        <td>{formatInt(f.selfA[i])}</td>
        <td>{formatInt(f.selfB[i])}</td>
        <td class={cls(f.deltaSelf[i])}>{signed(f.deltaSelf[i])}</td>
        <td class={cls(f.deltaSelf[i])}>{pct(f.deltaSelfPct[i])}</td>
        <td>{formatInt(f.totalA[i])}</td>
        <td>{formatInt(f.totalB[i])}</td>
        <td class={cls(f.deltaTotal[i])}>{signed(f.deltaTotal[i])}</td>
        <td class={cls(f.deltaTotal[i])}>{pct(f.deltaTotalPct[i])}</td>
      </tr>,
    );
  }
  return (
    <div class="diff-table-wrap">
      <table class="diff-table" aria-label="Functions by change">
        <thead>
          <tr>
            <th>Function</th>
            <th>Self A</th>
            <th>Self B</th>
            <th>Δ self</th>
            <th>Δ self %</th>
            <th>Total A</th>
            <th>Total B</th>
            <th>Δ total</th>
            <th>Δ total %</th>
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
      {f.func.length > n ? <div class="muted">{formatInt(f.func.length - n)} more functions not shown</div> : null}
    </div>
  );
}
