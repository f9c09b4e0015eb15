// @ts-check
// The record table's, the timeline's and the account's messages, made after 'decoded' (decode-worker.js), in
// this order: 'tables': the record table (its columns read from the session: its parents as runs where that
// is smaller), its index, the rows' type names and the composition (the record tree, hex shading and
// composition wait for it); 'timeline': the flame chart's lanes and exact calls (XRay's intervals; the flame
// chart waits for it); 'account': XRay's account (its Functions view waits for it). Each is posted as soon as
// it is made, so the record tree does not wait for the lanes of an XRay log's millions of calls, nor the
// flame chart for the account of them. Made in steps with the worker's other messages
// answered between them (a click on the flame graph waits one step, not all of them), and given up when
// another file opened meanwhile.
import { RecordKind } from '../lib/record-kind.js';
import { parseJson, readFlameRows, readRecordIndex, readRecords } from './session-columns.js';
import { callLanesFrom, lanesFrom, recordComposition, recordTypeNames } from './derive.js';

/** @typedef {import('../../../wasm/profscope').Session} Session */

/**
 * @param {Session} s the decoded session
 * @param {{scale: number, counts: any}} lanesOf the scale of the session's times to ns, the samples' weights
 * @param {{between: () => Promise<void>, current: () => boolean, post: (msg: any) => void, lap?: (what: string, value: any) => any}} steps
 *   between: lets the worker answer other messages (awaited before each step); current: false once `s` is
 *   no longer the open session (nothing more is asked of it); post: sends a message ('tables', 'timeline',
 *   then 'account'); lap: (bench) notes each step's time
 * @returns {Promise<boolean>} false when `s` was closed meanwhile (what was not posted yet never will be)
 */
export async function makeTables(s, lanesOf, { between, current, post, lap = (_w, v) => v }) {
  /**
   * Runs one step after the worker had its turn; its value. Throws CLOSED when the session was closed
   * meanwhile.
   * @template T
   * @param {string} what
   * @param {() => T} make
   * @returns {Promise<T>}
   */
  const step = async (what, make) => {
    await between();
    if (!current()) throw CLOSED;
    return lap(what, make());
  };
  const { scale } = lanesOf;
  try {
    const records = await step('record columns', () => readRecords(s));
    const typeNames = await step('type names', () => recordTypeNames(s.recordTypeList(), (r, kind) => typeName(s, kind, r)));
    const index = await step('record index', () => readRecordIndex(s));
    const composition = await step('composition', () => recordComposition(s.recordComposition(), typeNames));
    // (a record's sample is asked of the worker when it is selected: 'recordSample')
    // typeNames: (kind, type) -> type name, a row's name until its label arrives
    post({ type: 'tables', records, index, typeNames, composition });
    // (the session orders the samples by thread and time: no whole sample column is copied for it). A log whose
    // exact calls are its samples (XRay) gets a summary per thread instead: its chart draws the calls from here
    // (flameBoxes, callActivity), and a lane entry per call would be 12 bytes a call on the page, for nothing.
    const lanes = await step('lanes', () => {
      const calls = s.callLanes(scale);
      return calls ? callLanesFrom(calls) : lanesFrom(s.sampleLanes(false), scale, lanesOf.counts);
    });
    const intervals = await step('intervals', () => readFlameRows(s, scale));
    post({
      type: 'timeline',
      lanes, // the flame chart's, one per thread (a tracer's: CallLane summaries, no entry per call)
      intervals, // the rows of exact calls (XRay enter/exit pairs), or null: the chart asks for their boxes ('flameBoxes')
    });
    // llvm-xray account's rows (XRay; [] for other formats): the Functions view of a tracer
    post({ type: 'account', account: await step('account', () => parseJson(s.accountJson(), [])) });
    return true;
  } catch (err) {
    if (err === CLOSED) return false;
    throw err;
  }
}

/** Thrown by a step of makeTables when its session was closed meanwhile. */
const CLOSED = Symbol('closed');

/**
 * The type name of a row, as its decoder names the type (Session::RecordTypeName: "SAMPLE",
 * "feature CACHE", "function enter"); an attr's (whose type number is its index) is its label,
 * "attr 0 (cycles)".
 * @param {Session} s
 * @param {number} kind
 * @param {number} row
 */
function typeName(s, kind, row) {
  if (kind === RecordKind.Attr || kind === RecordKind.AttrIds) return String(s.recordLabel(row));
  return String(s.recordTypeName(row)) || String(s.recordLabel(row));
}

/** A task later: the messages that came meanwhile are handled first. */
export function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
