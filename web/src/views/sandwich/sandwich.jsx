// Sandwich view: a function's callers (inverted, who calls it) above its callees (what it calls),
// as two call tree tables.
import { CallTree } from '../call-tree/call-tree.jsx';
import './sandwich.css';

/**
 * @param {{sandwich: {func: number, names: string[], callers: any, callees: any} | null}} props
 */
export function Sandwich({ sandwich, formatValue }) {
  if (!sandwich) return <div class="placeholder muted">Select a frame in the flame graph, flame chart or call tree, then “Sandwich”.</div>;
  return (
    <div class="sandwich">
      <div class="sw-title">
        Sandwich of <b class="mono">{String(sandwich.names[sandwich.func])}</b>
      </div>
      <div class="sw-half">
        <div class="sw-label muted">Callers (who calls it; inverted)</div>
        <Half tree={sandwich.callers} names={sandwich.names} label="Callers" testid="sandwich-callers" inverted formatValue={formatValue} />
      </div>
      <div class="sw-half">
        <div class="sw-label muted">Callees (what it calls)</div>
        <Half tree={sandwich.callees} names={sandwich.names} label="Callees" testid="sandwich-callees" formatValue={formatValue} />
      </div>
    </div>
  );
}

/** One half: its call tree (with a note when shown in part), or why it could not be made ({error}: too large to build). */
function Half(/** @type {any} */ { tree, testid, ...rest }) {
  if (tree?.error)
    return (
      <div class="placeholder sw-error" role="status" data-testid={`${testid}-error`}>
        {tree.error}
      </div>
    );
  return (
    <>
      {tree?.notice ? (
        <div class="muted sw-notice" role="status" data-testid={`${testid}-notice`}>
          Shown in part: {tree.notice}
        </div>
      ) : null}
      <CallTree tree={tree} testid={testid} {...rest} />
    </>
  );
}
