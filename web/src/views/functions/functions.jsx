// Functions tab: one row per function. Tracers (XRay) get `llvm-xray account`'s columns
// (count, min, median, 90th and 99th percentile, max, sum of call durations, computed in the
// core); samplers get self and total weight per function of the current analysis (filters
// and transforms applied), like speedscope's sandwich table. Click a header to sort; click a
// row to select the function (double-click opens its sandwich).
import { InlinedTag } from '../../lib/inlined-tag.jsx';
import { AccountPending } from '../../lib/tables-pending.jsx';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { formatInt, formatPercent, plural } from '../../lib/format.js';
import { valueFormatter } from '../filter-bar/weight-switch.jsx';
import { firstIndexByName, functionRows, sortRows } from './function-table.js';
import './functions.css';

const MAX_ROWS = 3000;

function fmtSec(s) {
  const v = Number(s);
  if (!Number.isFinite(v)) return '';
  if (v >= 1) return `${v.toFixed(3)} s`;
  if (v >= 1e-3) return `${(v * 1e3).toFixed(3)} ms`;
  if (v >= 1e-6) return `${(v * 1e6).toFixed(3)} µs`;
  return `${(v * 1e9).toFixed(0)} ns`;
}

const ACCOUNT_COLS = [
  ['function', 'Function', null],
  ['funcid', 'Id', (v) => String(v)],
  ['count', 'Calls', formatInt],
  ['min', 'Min', fmtSec],
  ['median', 'Median', fmtSec],
  ['p90', '90%', fmtSec],
  ['p99', '99%', fmtSec],
  ['max', 'Max', fmtSec],
  ['sum', 'Sum', fmtSec],
];

export function Functions({ doc, analysis, client, onPick, onSandwich, selectedFunc = -1 }) {
  // a tracer's (XRay) functions are its call statistics (llvm-xray account's rows), which arrive with the
  // tables ('tables')
  const tracer = !!doc.summary?.samples_are_calls;
  const account = Array.isArray(doc.account) ? doc.account : [];
  const [sort, setSort] = useState({ key: tracer ? 'sum' : 'self', desc: true });
  // (a tracer's account rows name their functions)
  const nameIndex = useMemo(() => (tracer ? firstIndexByName(analysis.names) : null), [tracer, analysis.names]);

  // samplers: self/total per function, computed in the worker for the current analysis
  const [totals, setTotals] = useState(/** @type {{analysis:any, self:Float64Array, total:Float64Array}|null} */ (null));
  useEffect(() => {
    if (tracer) return undefined;
    let stale = false;
    client
      .functionTotals(analysis.gen)
      .then((t) => !stale && setTotals({ analysis, self: t.self, total: t.total }))
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [analysis, tracer]);
  const rows = useMemo(() => {
    if (tracer) return sortRows(account.map((r) => ({ ...r, name: String(r.function) })), sort.key === 'function' ? 'name' : sort.key, sort.desc);
    if (!totals || totals.analysis !== analysis) return [];
    return functionRows(totals, analysis.names, sort.key, sort.desc);
  }, [doc, doc.account, analysis, sort, totals]);

  const rootTotal = analysis.tree.total.length ? analysis.tree.total[0] : 0;
  const fmtValue = valueFormatter(analysis, doc); // XRay by time: durations, not ticks
  const matches = analysis.matches;
  const head = (key, label) => (
    <th
      key={key}
      scope="col"
      class={`fn-${key}`}
      aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
      onClick={() => setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'function' && key !== 'name' }))}
    >
      {label}
      {sort.key === key ? (sort.desc ? ' ▾' : ' ▴') : ''}
    </th>
  );
  const funcOf = (r) => (tracer && nameIndex ? nameIndex.get(r.name) ?? -1 : r.func);
  if (tracer && doc.account == null) {
    return (
      <div class="functions" data-testid="functions">
        <AccountPending doc={doc} />
      </div>
    );
  }
  return (
    <div class="functions" data-testid="functions">
      <div class="fn-note muted">
        {tracer
          ? `${plural(rows.length, 'function')} · call durations per function, as llvm-xray account computes them (times from the file's TSC and its cycle frequency)`
          : `${plural(rows.length, 'function')} · self and total weight of the samples that pass the filters and transforms`}
        {rows.length > MAX_ROWS ? ` · showing the first ${formatInt(MAX_ROWS)}` : ''}
      </div>
      <div class="fn-scroll">
        <table class="fn-table" aria-label={tracer ? 'Function accounting' : 'Functions'}>
          <thead>
            <tr>{tracer ? ACCOUNT_COLS.map(([k, l]) => head(k, l)) : [head('self', 'Self'), head('total', 'Total'), head('name', 'Function')]}</tr>
          </thead>
          <tbody>
            {rows.slice(0, MAX_ROWS).map((r, i) => {
              const f = funcOf(r);
              const cls = `${f >= 0 && f === selectedFunc ? 'sel' : ''}${f >= 0 && matches && matches[f] === 1 ? ' match' : ''}`;
              return (
                <tr key={i} class={cls} onClick={() => f >= 0 && onPick?.(f)} onDblClick={() => f >= 0 && onSandwich?.(f)} title={r.name}>
                  {tracer ? (
                    ACCOUNT_COLS.map(([k, , fmt]) => (
                      <td key={k} class={`fn-${k}`}>
                        {fmt ? fmt(r[k]) : r.name}
                      </td>
                    ))
                  ) : (
                    <>
                      <td class="fn-self">
                        {fmtValue(r.self)} <span class="muted">{formatPercent(r.self, rootTotal)}</span>
                      </td>
                      <td class="fn-total">
                        {fmtValue(r.total)} <span class="muted">{formatPercent(r.total, rootTotal)}</span>
                      </td>
                      <td class="fn-function">
                        <InlinedTag how={doc.funcInlined?.[r.func]} />
                        {r.name}
                        {doc.funcSources?.[r.func] ? <span class="muted"> {doc.funcSources[r.func]}</span> : null}
                      </td>
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
