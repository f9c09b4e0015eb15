// What is missing to name every frame, right after a drop: each mapping with samples but no
// names (or whose missing binary stopped --call-graph dwarf unwinding), most samples first, each
// saying what to drop; the dwarf samples whose stack copy was too small, with the perf record
// option that fixes it. Files added here (or dropped on the page) reopen the profile with them
// as side files, and the list follows; "Add folder…" takes a whole folder of symbols (a build-id
// cache such as ~/.debug, a usr/lib/debug tree, a folder of binaries) as a dropped folder is
// taken. The page cannot look in /usr/lib/debug itself: a stripped binary's debug file is named
// so the person can drop it or its folder. (Session.missingJson, MissingReport)
import { useRef } from 'preact/hooks';
import { chosenFolder } from '../../lib/multi-file.js';
import './missing-panel.css';

const fmt = (/** @type {number} */ n) => n.toLocaleString('en-US');
const plural = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) => `${fmt(n)} ${n === 1 ? one : many}`;

/**
 * @param {{missing: import('../../../../wasm/profscope').MissingReport, busy: boolean,
 *   onAdd: (files: File[] & {sideFolders?: any[]}) => void, onDismiss: () => void}} props
 */
export function MissingPanel({ missing, busy, onAdd, onDismiss }) {
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  const folderInput = useRef(/** @type {HTMLInputElement | null} */ (null));
  const { mappings, stack_copy: stack } = missing;
  const count = mappings.length + (stack ? 1 : 0);
  return (
    <section class="missing-panel" role="region" aria-label="What is missing" data-testid="missing-panel">
      <header>
        <strong>{plural(count, 'thing is', 'things are')} missing to name every frame</strong>
        <span class="muted"> · most samples first</span>
        <span class="spacer" />
        <button type="button" disabled={busy} onClick={() => input.current?.click()} title="Add side files: binaries, debug files, a perf archive tarball, kallsyms">
          Add files…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="missing-add-files"
          onChange={(e) => {
            const f = Array.from(e.currentTarget.files || []);
            e.currentTarget.value = '';
            if (f.length) onAdd(f);
          }}
        />
        <button
          type="button"
          disabled={busy}
          onClick={() => folderInput.current?.click()}
          title="Add a folder of symbols: a build-id cache (~/.debug), a usr/lib/debug tree, a folder of binaries; its files are matched by build-id"
        >
          Add folder…
        </button>
        <input
          ref={folderInput}
          type="file"
          hidden
          data-testid="missing-add-folder"
          webkitdirectory={true}
          onChange={(e) => {
            const f = Array.from(e.currentTarget.files || []);
            e.currentTarget.value = '';
            if (f.length) chosenFolder(f).then((files) => (files.sideFolders.length ? onAdd(files) : null));
          }}
        />
        <button type="button" class="close" aria-label="Dismiss" title="Dismiss" onClick={onDismiss}>
          ×
        </button>
      </header>
      <ol>
        {mappings.map((m) => (
          <li key={`${m.dso}|${m.build_id}`}>
            <span class="what">
              <code title={m.build_id ? `build-id ${m.build_id}` : 'no build-id recorded'}>{m.dso}</code>
              {m.build_id ? <span class="muted"> {m.build_id.slice(0, 12)}…</span> : null}
            </span>
            <span class="count">
              {m.samples ? `${plural(m.samples, 'sample', 'samples')}, ${plural(m.frames, 'frame', 'frames')} unnamed` : null}
              {m.samples && m.unwind_cut ? '; ' : null}
              {m.unwind_cut ? `${plural(m.unwind_cut, 'sample', 'samples')} cut short (unwinding stopped there)` : null}
            </span>
            <span class="drop">{m.drop}</span>
          </li>
        ))}
        {stack ? (
          <li key="stack-copy">
            <span class="what">stack copies too small</span>
            <span class="count">
              {plural(stack.samples, 'sample', 'samples')}: {fmt(stack.copy_bytes)} bytes copied, up to {fmt(stack.needed_bytes)} needed
            </span>
            <span class="drop">{stack.fix ? `record again with ${stack.fix}` : "even perf's largest copy (dwarf,65528) would not hold them"}</span>
          </li>
        ) : null}
      </ol>
    </section>
  );
}
