// The 'tables', 'timeline' and 'account' messages are made in steps (web/src/worker/tables.js): the worker answers the
// page's other requests between them, posts the record table's message before making the lanes, and gives up
// when another file opened meanwhile. Checked on real files with the
// WASM module: the requests a page sends meanwhile (a record's fields and label, a call tree) are answered
// from the same session between the steps; the tables made so are the ones made without interruption;
// a session closed between two steps is asked nothing more and no message is made after it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../wasm/load-node.mjs';
import { decodeStrings } from '../../web/src/lib/strings.js';
import { readFlameBoxes, readKept } from '../../web/src/worker/session-columns.js';
import { FileAnalysis } from '../../web/src/worker/file-analysis.js';
import { makeTables } from '../../web/src/worker/tables.js';
import { intAt } from '../../web/src/lib/int-runs.js';
import { laneSamples } from '../../web/src/views/flame-chart/chart-model.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const D = (...p) => path.join(ROOT, 'tests', 'data', ...p);
const STEPS = ['record columns', 'type names', 'record index', 'composition', 'lanes', 'intervals', 'account'];
// the steps done when 'tables' is posted
const TABLES_STEPS = 4;

const opened = [];
afterAll(() => opened.forEach((o) => o.close()));

async function open(file, side = []) {
  const o = await openSession(file, { side });
  opened.push(o);
  const s = o.session;
  const profile = readKept(s);
  const base = s.timeBase();
  const analysis = new FileAnalysis(s, profile, decodeStrings(s.strings()), base.scale);
  const lanesOf = { scale: base.scale, counts: s.sampleCounts(), canon: analysis.canon };
  return { s, profile, analysis, lanesOf };
}

const noWait = { between: async () => {}, current: () => true };

/**
 * makeTables' messages: {made, posted: [msg], tables, timeline, account, at: [steps done when each was posted]}.
 * `done` (the steps' names, as lap sees them) is shared with the caller's lap.
 */
async function collect(s, lanesOf, opts, done = []) {
  const posted = [];
  const at = [];
  const made = await makeTables(s, lanesOf, {
    ...opts,
    post: (m) => {
      posted.push(m);
      at.push(done.length);
    },
    lap: (what, v) => (done.push(what), v),
  });
  const of = (/** @type {string} */ type) => posted.find((m) => m.type === type);
  return { made, posted, at, tables: of('tables'), timeline: of('timeline'), account: of('account') };
}

describe('tables in steps', () => {
  it.each([
    ['xray fdr_threads', D('xray', 'fdr_threads', 'xray.log'), [D('xray', 'fdr_threads', 'xray_threads')]],
    ['perf pipe_mode', D('perf', 'pipe_mode', 'pipe.data'), []],
  ])('%s: other requests are answered between the steps, and the tables are the same', async (_name, file, side) => {
    const { s, profile, analysis, lanesOf } = await open(file, side);
    const whole = await collect(s, lanesOf, noWait);
    const done = [];
    const answers = [];
    let rows = -1;
    const got = await collect(s, lanesOf, {
      // what the page may ask while the tables are made: a record's fields and label, a call tree
      between: async () => {
        await new Promise((r) => setTimeout(r, 0));
        rows = s.recordCount();
        const row = answers.length % rows;
        const fields = JSON.parse(s.recordFieldsJson(row));
        const tree = analysis.run({ filter: { event: -1 }, transforms: [], invert: false });
        answers.push({ after: done.length, label: String(s.recordLabel(row)), fields: fields.length, nodes: tree.tree.parent.length });
      },
      current: () => true,
    }, done);
    expect(done).toEqual(STEPS);
    // the record table is posted once its steps are done, before the lanes are made; the timeline once the
    // lanes and calls are, before the account is made; the account last
    expect(got.made).toBe(true);
    expect(got.posted.map((m) => m.type)).toEqual(['tables', 'timeline', 'account']);
    expect(got.at).toEqual([TABLES_STEPS, STEPS.length - 1, STEPS.length]);
    expect(Object.keys(got.timeline).sort()).toEqual(['intervals', 'lanes', 'type']);
    const msg = { ...got.tables, ...got.timeline, ...got.account };
    // one turn before each step (the lanes are one: the session orders the samples by thread and time)
    for (let i = 0; i < STEPS.length; i++) expect(answers.filter((a) => a.after === i).length).toBe(1);
    expect(answers.length).toBe(STEPS.length);
    for (const a of answers) {
      expect(a.label).not.toBe('');
      expect(a.fields).toBeGreaterThan(0);
      expect(a.nodes).toBeGreaterThan(1);
    }
    expect(msg.records.kinds.length).toBe(rows);
    expect(msg.records).toEqual(whole.tables.records);
    expect(msg.index).toEqual(whole.tables.index);
    expect(msg.typeNames).toEqual(whole.tables.typeNames);
    expect(msg.composition).toEqual(whole.tables.composition);
    expect(msg.lanes).toEqual(whole.timeline.lanes);
    expect(msg.intervals).toEqual(whole.timeline.intervals);
    expect(msg.account).toEqual(whole.account.account);
    // every sample is in one lane (an XRay log's lanes: a summary per thread, its calls counted)
    const inLanes = msg.lanes.reduce((n, l) => n + laneSamples(l), 0);
    expect(inLanes).toBe(s.sampleCount());
    // the parents, as runs or not, read as the session's
    const parents = s.recordParents();
    for (let r = 0; r < rows; r++) expect(intAt(msg.records.parents, r)).toBe(parents[r]);
  });

  it('the XRay log\'s type names and its rows of exact calls come with the tables; their boxes are asked for', async () => {
    const { s, analysis, lanesOf } = await open(D('xray', 'fdr_threads', 'xray.log'), [D('xray', 'fdr_threads', 'xray_threads')]);
    const { tables, timeline, account } = await collect(s, lanesOf, noWait);
    const msg = { ...tables, ...timeline, ...account };
    expect([...msg.typeNames.values()].join(' ')).toMatch(/function enter/);
    // the rows and the calls' span in ns, not the calls (they stay in the session)
    const iv = msg.intervals;
    expect(iv.calls).toBe(s.intervalStarts().length);
    expect(iv.rows.thread.length).toBeGreaterThan(0);
    expect(iv.hi).toBeGreaterThan(iv.lo);
    expect(Object.keys(iv).sort()).toEqual(['calls', 'hi', 'lo', 'rows']);
    // the boxes of every row over the whole span, as the flame chart asks for them: named functions
    const all = Int32Array.from(iv.rows.thread, (_t, r) => r);
    const boxes = readFlameBoxes(s, analysis.canon, lanesOf.scale, { rows: all, t0: iv.lo, t1: iv.hi + 1, cols: 1000 });
    expect(boxes.row.length).toBeGreaterThan(0);
    const named = new Set(Array.from(boxes.func, (f) => analysis.names[f]));
    expect([...named].some((n) => /worker|main/.test(n))).toBe(true);
    expect(Math.min(...boxes.start)).toBe(iv.lo);
    // llvm-xray account's rows (the Functions view) come after them
    expect(msg.account.length).toBeGreaterThan(0);
    expect(msg.account.map((r) => String(r.function)).some((n) => /worker|main/.test(n))).toBe(true);
  });

  // the turns: one before each step
  const TURNS = STEPS;
  it.each(TURNS.map((w, i) => [w, i]))('a session closed at the turn before "%s" is asked nothing more and no message is made after it', async (_w, k) => {
    const { s, lanesOf } = await open(D('xray', 'fdr_threads', 'xray.log'), [D('xray', 'fdr_threads', 'xray_threads')]);
    let turns = 0;
    let closed = false;
    let askedAfter = 0;
    const watched = new Proxy(s, {
      get(target, prop) {
        const v = Reflect.get(target, prop);
        if (typeof v !== 'function') return v;
        return (...args) => {
          if (closed) askedAfter++;
          return v.apply(target, args);
        };
      },
    });
    const done = [];
    const got = await collect(watched, lanesOf, {
      between: async () => {
        if (turns++ === k) closed = true; // another file opened during this turn
      },
      current: () => !closed,
    }, done);
    expect(got.made).toBe(false);
    // what was made before the close was posted (the record table, then the timeline); nothing after it
    expect(got.posted.map((m) => m.type)).toEqual(k >= STEPS.length - 1 ? ['tables', 'timeline'] : k >= TABLES_STEPS ? ['tables'] : []);
    expect(turns).toBe(k + 1);
    expect(done).toEqual(STEPS.slice(0, k));
    expect(askedAfter).toBe(0);
  });

  it('a step that fails rejects (the worker answers the page with the error)', async () => {
    const { s, lanesOf } = await open(D('perf', 'pipe_mode', 'pipe.data'));
    const broken = new Proxy(s, {
      get(target, prop) {
        if (prop === 'recordOffsetRuns') return () => { throw new Error('record columns failed'); };
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    await expect(collect(broken, lanesOf, noWait)).rejects.toThrow('record columns failed');
  });
});
