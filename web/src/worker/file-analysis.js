// @ts-check
// The analysis of the open file, in the worker: the core aggregates (session.analyze, given the
// page's options as JSON), the worker keeps the last call tree for the questions that follow
// (samples of a node, function totals, callchain slots) and lays out the flame graph.
import { functionTotals, layoutFlame, searchFuncs } from './call-nodes.js';

/** @typedef {import('../../../wasm/profscope').Session} Session */
/** @typedef {import('../../../wasm/profscope').CallTreeColumns & {samples: number, sampleNode?: Int32Array}} KeptTree */
/** @typedef {import('../../../wasm/profscope').AnalysisOptionsJson} AnalysisOptionsJson */

/**
 * The page's analysis options: the core's options plus what only the page uses (search;
 * transform labels, the filter's pid); times in ns.
 * @typedef {{filter?: {event?: number, threads?: number[], cpus?: number[], t0?: number|null, t1?: number|null, pid?: number|null},
 *   transforms?: Array<import('../../../wasm/profscope').AnalysisTransformJson & {label?: string}>, invert?: boolean,
 *   search?: string, sandwich?: {mode: 'callers'|'callees', func: number}, weight?: Weight}} PageOptions
 * @typedef {'count' | 'samples' | 'time' | 'period'} Weight
 */

/**
 * What a file's graphs are weighted by at first: traced calls (XRay) by time (a call's duration),
 * samples by their count.
 * @param {{format?: string, samples_are_calls?: boolean} | undefined} summary the file's summary
 * @returns {Weight}
 */
export function defaultWeight(summary) {
  return summary?.samples_are_calls ? 'time' : 'samples';
}

/**
 * The weights a file offers (the first is the default): traced calls time or calls, perf samples or
 * period; [] when there is no choice.
 * @param {{format?: string, samples_are_calls?: boolean} | undefined} summary
 * @returns {Weight[]}
 */
export function weightChoices(summary) {
  if (summary?.samples_are_calls) return ['time', 'count'];
  const format = summary?.format;
  if (format === 'perf.data' || format === 'perf' || format === 'simpleperf') return ['samples', 'period'];
  return [];
}

/** Options the core cannot make a view of (bad options, or a view too large to build): the page says why. */
export class ViewError extends Error {}

export class FileAnalysis {
  /**
   * @param {Session} session
   * @param {import('./session-columns.js').KeptColumns} profile
   * @param {string[]} strings
   * @param {number} scale ns per unit of the session's times
   * @param {{pageDrawsSamples?: boolean}} [how] pageDrawsSamples: the page's flame chart draws lanes of
   *   samples, and needs each sample's call node (false when the calls are the samples: XRay's lanes are
   *   summaries, and the page asks for a node's samples and a sample's node)
   */
  constructor(session, profile, strings, scale, how = {}) {
    this.session = session;
    this.pageDrawsSamples = how.pageDrawsSamples ?? true;
    this.profile = profile;
    this.strings = strings;
    this.scale = scale;
    /** canonical function -> name (functions merged by name; grows with collapse-library) */
    this.names = /** @type {string[]} */ ([]);
    this.canon = session.analysisCanon();
    this.refreshNames();
    this.unknown = this.names.lastIndexOf('[unknown]');
    /** @type {KeptTree | null} the last analysis (functionTotals and slot answer from it; its sample -> node
     * stays in the module: nodeSamples, sampleNode) */
    this.lastTree = null;
    /** @type {PageOptions | null} */
    this.lastOpts = null;
    /** which analysis lastTree is (run() counts them): requests about a node name the one they mean */
    this.generation = 0;
  }

  /** Names of the canonical functions the core has made since the last call. */
  refreshNames() {
    const ids = this.session.analysisNameIds();
    for (let i = this.names.length; i < ids.length; i++) this.names.push(ids[i] >= 0 ? String(this.strings[ids[i]] ?? '') : this.session.analysisName(i));
  }

  /**
   * Canonical function of a stack node's frame.
   * @param {number} st
   */
  stackCanon(st) {
    const fr = this.profile.stackFrames[st];
    const f = fr >= 0 && fr < this.profile.frameFuncs.length ? this.profile.frameFuncs[fr] : -1;
    return f >= 0 && f < this.canon.length ? this.canon[f] : this.unknown;
  }

  /**
   * The library collapse-library would put a canonical function in ('' when none).
   * @param {number} func
   */
  libraryOf(func) {
    return func >= 0 ? this.session.analysisLibrary(func) : '';
  }

  /**
   * The core's call tree for the page's options. `keep`: its sample -> node stays in the module
   * (analyzeKeeping: the tree the page shows, whose nodes' samples are asked for), not in the answer.
   * @param {PageOptions} opts
   * @param {boolean} [keep]
   * @returns {KeptTree}
   */
  tree(opts, keep = false) {
    const f = opts.filter || {};
    /** @type {AnalysisOptionsJson} */
    const o = {
      filter: {
        event: f.event ?? -1,
        threads: f.threads || [],
        cpus: f.cpus || [],
        // times back to the session's units
        ...(f.t0 != null ? { t0: f.t0 / this.scale } : {}),
        ...(f.t1 != null ? { t1: f.t1 / this.scale } : {}),
      },
      transforms: (opts.transforms || []).map(({ type, func, path, lib }) => ({ type, func, path, lib })),
      invert: !!opts.invert,
      ...(opts.weight ? { weight: opts.weight } : {}),
    };
    if (opts.sandwich) o.sandwich = { mode: opts.sandwich.mode, func: opts.sandwich.func };
    const t = keep ? this.session.analyzeKeeping(JSON.stringify(o)) : this.session.analyze(JSON.stringify(o));
    if ('error' in t) throw new ViewError(t.error);
    this.refreshNames(); // collapse-library adds pseudo functions
    return t;
  }

  /**
   * Aggregation of the filtered, transformed samples, laid out for the views.
   * @param {PageOptions} opts
   */
  run(opts) {
    const t0 = performance.now();
    const tree = this.tree(opts, true);
    this.lastTree = tree;
    this.lastOpts = opts;
    this.generation++;
    const layout = layoutFlame(tree, this.names, opts.filter?.event ?? 0);
    const matches = searchFuncs(this.names, opts.search || '');
    return {
      // copies: the worker keeps lastTree, the page gets transferred copies. Sample -> node (4 bytes a
      // sample) stays in the module, which answers a node's samples and a sample's node (nodeSamples,
      // sampleNode); the page gets a copy only when its lanes draw samples (null: an XRay log's lanes
      // are summaries of its calls, and 4 bytes a call copied would be for nothing)
      tree: treeColumns(tree, true),
      sampleNode: this.pageDrawsSamples ? this.session.keptSampleNode() : null,
      samples: tree.samples,
      notice: tree.notice || '', // shown in part (an inverted tree too large to build whole: its heaviest nodes)
      weight: opts.weight || 'samples', // what self/total count
      layout,
      names: this.names.slice(),
      matches,
      opts,
      gen: this.generation,
      ms: performance.now() - t0,
    };
  }

  /**
   * The samples behind call node `node` of the last tree (its subtree), in sample order.
   * @param {number} node
   */
  nodeSamples(node) {
    return this.lastTree ? this.session.nodeSamples(node) : new Int32Array(0);
  }

  /**
   * The call node of sample `sample` in the last tree: -1 when it was filtered out or dropped, or is not there.
   * @param {number} sample
   */
  sampleNode(sample) {
    return this.lastTree ? this.session.sampleNode(sample) : -1;
  }

  /**
   * Self and total per function of the last tree's options (the Functions view). An inverted tree's
   * self sits at each path's outermost caller, and one too large to build whole leaves out callers: its
   * functions are then counted in the same tree not inverted.
   */
  functionTotals() {
    const opts = this.lastOpts || {};
    const tree = opts.invert || !this.lastTree ? this.tree({ ...opts, invert: false }) : this.lastTree;
    return functionTotals(tree, this.names.length);
  }

  /**
   * Both halves of the sandwich of a function.
   * @param {PageOptions} opts
   * @param {number} func
   */
  sandwich(opts, func) {
    // a half too large to build (the callers of a function deep in distinct stacks) says so, the other is drawn
    const half = (/** @type {'callers'|'callees'} */ mode) => {
      try {
        return treeColumns(this.tree({ ...opts, sandwich: { mode, func } }), false);
      } catch (err) {
        if (!(err instanceof ViewError)) throw err;
        return { error: err.message };
      }
    };
    return { callers: half('callers'), callees: half('callees') };
  }
}

/**
 * The columns of a call tree the page draws (copies when the worker keeps the tree).
 * @param {KeptTree} t
 * @param {boolean} copy
 * @returns {import('../../../wasm/profscope').CallTreeColumns}
 */
function treeColumns(t, copy) {
  const { parent, func, depth, subtreeEnd, self, total, count } = t;
  const notice = t.notice || '';
  if (!copy) return { parent, func, depth, subtreeEnd, self, total, count, notice };
  return { parent: parent.slice(), func: func.slice(), depth: depth.slice(), subtreeEnd: subtreeEnd.slice(), self: self.slice(), total: total.slice(), count, notice };
}
