// @ts-check
// Page side of the decoding worker: one worker per opened file (cancel: stopDecoding). Each
// method is one request of decode-worker.js (its header lists the messages); the answer is the
// worker's message with the same id.

/**
 * @typedef {{file: Blob, name: string, folder?: string}} NamedFile
 * @typedef {{folder: string, capped: boolean, offered: number}} SideFolder
 * @typedef {{onProgress?: (done: number, total: number, samples: number, records: number) => void, dataFiles?: NamedFile[], sideFiles?: NamedFile[],
 *   sideFolders?: SideFolder[], options?: Record<string, string>}} OpenOptions
 * @typedef {import('./file-analysis.js').PageOptions} PageOptions
 */
/** @typedef {{tables: Function | null, timeline: Function | null, account: Function | null}} Due the open file's waits for its messages */

export class DecoderClient {
  constructor() {
    /** @type {Worker | null} */
    this.worker = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function}>} */
    this.pending = new Map();
    /** @type {{resolve: Function, reject: Function, onProgress?: Function, decoded?: boolean} | null} */
    this.opening = null;
    /** @type {Worker | null} */
    this.spare = null;
    /** the opened file's record table, its timeline and its account, on their way after 'decoded' (see open())
     * @type {Due | null} */
    this.tablesDue = null;
  }

  /** A worker that is loading the WASM module, for the next file. */
  prepare() {
    if (!this.spare && typeof Worker !== 'undefined') this.spare = new Worker(new URL('./decode-worker.js', import.meta.url), { type: 'module' });
  }

  start() {
    this.stop();
    // the spare has compiled the module already (decode-worker.js starts on it at once)
    const worker = this.spare ?? new Worker(new URL('./decode-worker.js', import.meta.url), { type: 'module' });
    this.spare = null;
    worker.onmessage = (e) => this.onMessage(e.data);
    worker.onerror = (e) => {
      const message = e.message || 'the decoding worker failed to start';
      e.preventDefault?.();
      this.failAll(new Error(message));
    };
    worker.onmessageerror = () => this.failAll(new Error('could not read a message from the worker'));
    this.worker = worker;
  }

  stop() {
    if (this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this.failAll(Object.assign(new Error('cancelled'), { cancelled: true }));
  }

  /**
   * Cancel while a file decodes: the worker stops the decode at its next step ('stopping') and answers
   * 'decoded' with what it read (a decode_stopped warning says where). A worker that does not say
   * 'stopping' within `graceMs` (a decoder that did not pause in time) is terminated as
   * stop() does, and open() rejects as cancelled.
   * @param {number} [graceMs]
   */
  stopDecoding(graceMs = 3000) {
    const opening = this.opening;
    // nothing decoding (the answer is in: the file is about to open), or decoded already (its tables
    // are on their way): nothing to stop
    if (!this.worker || !opening || opening.decoded) return;
    this.worker.postMessage({ type: 'stop' });
    setTimeout(() => {
      if (this.opening === opening && !opening.decoded) this.stop();
    }, graceMs);
  }

  /** @param {Error} err */
  failAll(err) {
    if (this.opening) {
      this.opening.reject(err);
      this.opening = null;
    }
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.endTables(/** @type {any} */ (err).cancelled ? null : { error: err.message });
  }

  /**
   * Ends the wait for the open file's tables, timeline and account that have not come: with `answer`
   * ({error}, or null when the worker was stopped first).
   * @param {any} answer
   */
  endTables(answer) {
    this.tablesDue?.tables?.(answer);
    this.tablesDue?.timeline?.(answer);
    this.tablesDue?.account?.(answer);
    this.tablesDue = null;
  }

  /**
   * Hands a message that completes the open file to its wait ('tables', 'timeline' or 'account'); the wait
   * for the file ends once all three came (whatever their order).
   * @param {'tables' | 'timeline' | 'account'} part
   * @param {any} msg
   */
  arrived(part, msg) {
    const due = this.tablesDue;
    if (!due) return;
    due[part]?.(msg);
    due[part] = null;
    if (!due.tables && !due.timeline && !due.account) this.tablesDue = null;
  }

  /**
   * Opens a file in a fresh worker; resolves with the 'decoded' message. Its record table comes next, then
   * its timeline, then its account: the message's `whenTables` resolves with the 'tables' message (records,
   * index, typeNames, composition), its `whenTimeline` with the 'timeline' message (lanes, intervals), its
   * `whenAccount` with the 'account' message (account); each with {error} when making it failed, or with
   * null when the worker is stopped first (another file opened).
   * @param {Blob} file
   * @param {string} name
   * @param {OpenOptions} [opts]
   */
  open(file, name, opts = {}) {
    this.start();
    const worker = /** @type {Worker} */ (this.worker);
    return new Promise((resolve, reject) => {
      this.opening = { resolve, reject, onProgress: opts.onProgress };
      worker.postMessage({ type: 'open', file, name, dataFiles: opts.dataFiles || [], sideFiles: opts.sideFiles || [], sideFolders: opts.sideFolders || [], options: opts.options || {} });
    });
  }

  /** @param {any} msg */
  onMessage(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'decodeOver' || msg.type === 'stopping') {
      // the decode is over (what follows, the views' tables, ends soon), or is stopping as asked:
      // either way the worker answers, no need to terminate it
      if (this.opening) this.opening.decoded = true;
      return;
    }
    if (msg.type === 'tables' || msg.type === 'timeline' || msg.type === 'account') {
      this.arrived(msg.type, msg);
      return;
    }
    if (msg.type === 'progress') {
      this.opening?.onProgress?.(msg.done, msg.total, msg.samples || 0, msg.records || 0);
      return;
    }
    if (msg.type === 'decoded') {
      const o = this.opening;
      this.opening = null;
      /** @type {Due} */
      const due = { tables: null, timeline: null, account: null };
      msg.whenTables = new Promise((resolve) => {
        due.tables = resolve;
      });
      msg.whenTimeline = new Promise((resolve) => {
        due.timeline = resolve;
      });
      msg.whenAccount = new Promise((resolve) => {
        due.account = resolve;
      });
      this.tablesDue = due;
      o?.resolve(msg);
      // the next file opens in a fresh worker: load its module soon (not while the page draws this one)
      setTimeout(() => this.prepare(), 250);
      return;
    }
    if (msg.id != null && this.pending.has(msg.id)) {
      const p = /** @type {{resolve: Function, reject: Function}} */ (this.pending.get(msg.id));
      this.pending.delete(msg.id);
      // (stale: about a call tree the worker has since remade, dropped as a cancelled request is)
      if (msg.type === 'error') p.reject(Object.assign(new Error(msg.message), msg.view ? { name: 'ViewError' } : msg.stale ? { cancelled: true } : {}));
      else p.resolve(msg);
      return;
    }
    if (msg.type === 'error') {
      const o = this.opening;
      this.opening = null;
      o?.reject(new Error(msg.message));
      // failed while making the record table of a decoded file: the page says so where the rows would be
      this.endTables({ error: msg.message });
    }
  }

  /**
   * @param {string} type
   * @param {object} payload
   * @returns {Promise<any>}
   */
  request(type, payload) {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('no decoder'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ type, id, ...payload });
    });
  }

  /**
   * The fields of a row, and its label.
   * @param {number} row
   * @returns {Promise<{row: number, label: string, fields: any[]}>}
   */
  fields(row) {
    return this.request('fields', { row });
  }

  /**
   * The decompressed bytes of a container row (perf -z COMPRESSED); empty when the row is none.
   * @param {number} row
   * @returns {Promise<{row: number, bytes: Uint8Array}>}
   */
  containerBytes(row) {
    return this.request('containerBytes', { row });
  }

  /**
   * @param {number[]} rows
   * @returns {Promise<{rows: number[], labels: string[]}>}
   */
  labels(rows) {
    return this.request('labels', { rows });
  }

  /**
   * Rows whose label contains the text (case-insensitive), matches /regex/flags, or starts at a 0x offset.
   * @param {string} query
   * @returns {Promise<{rows: Int32Array}>}
   */
  searchRecords(query) {
    return this.request('searchRecords', { query });
  }


  /**
   * Re-aggregates in the worker.
   * @param {PageOptions} opts
   * @returns {Promise<{analysis: any}>}
   */
  analyze(opts) {
    return this.request('analyze', { opts });
  }

  /**
   * Callers and callees of a function under the options.
   * @param {PageOptions} opts
   * @param {number} func
   * @returns {Promise<{func: number, sandwich: {callers: any, callees: any}, names: string[]}>}
   */
  sandwich(opts, func) {
    return this.request('sandwich', { opts, func });
  }

  /**
   * The samples of a call node (in sample order) and their record rows. `gen`: the analysis the node is of;
   * the request is dropped ({cancelled}) when the worker has made another since (the node clicked is then
   * of a tree no longer shown).
   * @param {number} node
   * @param {number} [gen]
   * @returns {Promise<{node: number, samples: Int32Array, rows: Int32Array}>}
   */
  nodeSamples(node, gen) {
    return this.request('nodeSamples', { node, gen });
  }

  /**
   * The call node of a sample in analysis `gen` (-1: filtered out or dropped); dropped as for nodeSamples.
   * @param {number} sample
   * @param {number} [gen]
   * @returns {Promise<{sample: number, node: number}>}
   */
  sampleNode(sample, gen) {
    return this.request('sampleNode', { sample, gen });
  }

  /**
   * Self and total per function of the current analysis (Functions table). `gen`: the analysis the
   * request is about (its `gen`); the request is dropped ({cancelled}) when the worker has made another since.
   * @param {number} [gen]
   * @returns {Promise<{self: Float64Array, total: Float64Array}>}
   */
  functionTotals(gen) {
    return this.request('functionTotals', { gen });
  }

  /**
   * Callchain slot of a call node in one sample: the record row, the slot (null when none) and the record's fields.
   * @param {number} sample
   * @param {number} node
   * @param {number} [gen] as for functionTotals
   * @returns {Promise<{sample: number, row: number, address: bigint | null, slot: {name: string, offset: number, size: number, path: string} | null, fields: any[], label: string}>}
   */
  slot(sample, node, gen) {
    return this.request('slot', { sample, node, gen });
  }

  /**
   * The first sample of a record row (-1 when the row is no sample's), its time (ns) and thread lane (-1: none).
   * @param {number} row
   * @returns {Promise<{row: number, sample: number, time: number, thread: number}>}
   */
  recordSample(row) {
    return this.request('recordSample', { row });
  }

  /**
   * The library (mapping path) collapse-library would put a function in; '' when none.
   * @param {number} func
   * @returns {Promise<{func: number, lib: string}>}
   */
  library(func) {
    return this.request('library', { func });
  }

  /**
   * The flame chart's lanes per CPU (Session.sampleLanes(true), derive.js lanesFrom), made when first shown.
   * @returns {Promise<{lanes: import('./derive.js').Lane[]}>}
   */
  cpuLanes() {
    return this.request('cpuLanes', {});
  }

  /**
   * The boxes of exact calls (XRay) the flame chart draws: of rows `rows` (doc.intervals.rows' indexes) in
   * [t0, t1) ns at `cols` columns (session-columns.js readFlameBoxes).
   * @param {{rows: Int32Array, t0: number, t1: number, cols: number}} q
   * @returns {Promise<{boxes: import('./session-columns.js').FlameBoxes}>}
   */
  flameBoxes(q) {
    return this.request('flameBoxes', q);
  }

  /**
   * The calls started per column of [t0, t1) ns at `cols` columns of a tracer's thread lanes `lanes`
   * (derive.js CallLane threads): lane j's columns are activity[j * cols, (j + 1) * cols).
   * @param {{lanes: Int32Array, t0: number, t1: number, cols: number}} q
   * @returns {Promise<{activity: Float32Array, cols: number}>}
   */
  callActivity(q) {
    return this.request('callActivity', q);
  }

  /**
   * A file for another tool, made in the worker from the open profile (core/api/export).
   * @param {string} format folded|speedscope|gecko|pprof|chrome
   * @param {string} [weight] ""|samples|period|time
   * @param {string} [event] "" = every event
   * @returns {Promise<{format: string, bytes: Uint8Array, error: string}>}
   */
  exportFile(format, weight = '', event = '') {
    return this.request('export', { format, weight, event });
  }

  /**
   * Decodes a second profile beside the open one, for the Compare tab.
   * @param {Blob} file
   * @param {string} name
   * @param {NamedFile[]} [sideFiles]
   * @returns {Promise<{name: string, ok: boolean, format: string, samples: number, diagnostics: number}>}
   */
  openCompare(file, name, sideFiles = []) {
    return this.request('openCompare', { file, name, sideFiles });
  }

  /**
   * The diff of the open profile (A) and the second one (B); swap compares B to A.
   * @param {{normalize?: boolean, swap?: boolean, event?: string}} opts
   * @returns {Promise<{model: any}>}
   */
  compare({ normalize = false, swap = false, event = '' } = {}) {
    return this.request('compare', { normalize, swap, event });
  }

  /** Forgets the second profile. */
  closeCompare() {
    return this.request('closeCompare', {});
  }
}
