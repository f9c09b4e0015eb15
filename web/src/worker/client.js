// Page side of the decoding worker: one worker per opened file (cancel = terminate).

/**
 * @typedef {{onProgress?: (done:number,total:number)=>void}} OpenOptions
 */
export class DecoderClient {
  constructor() {
    /** @type {Worker | null} */
    this.worker = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function}>} */
    this.pending = new Map();
    /** @type {{resolve: Function, reject: Function, onProgress?: Function} | null} */
    this.opening = null;
  }

  start() {
    this.stop();
    const worker = new Worker(new URL('./decode-worker.js', import.meta.url), { type: 'module' });
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

  failAll(err) {
    if (this.opening) {
      this.opening.reject(err);
      this.opening = null;
    }
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /**
   * Opens a file in a fresh worker; resolves with the 'decoded' message.
   * @param {Blob} file
   * @param {string} name
   * @param {OpenOptions} [opts]
   */
  open(file, name, opts = {}) {
    this.start();
    return new Promise((resolve, reject) => {
      this.opening = { resolve, reject, onProgress: opts.onProgress };
      this.worker.postMessage({ type: 'open', file, name, dataFiles: opts.dataFiles || [], sideFiles: opts.sideFiles || [], options: opts.options || {} });
    });
  }

  onMessage(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'progress') {
      this.opening?.onProgress?.(msg.done, msg.total);
      return;
    }
    if (msg.type === 'decoded') {
      const o = this.opening;
      this.opening = null;
      o?.resolve(msg);
      return;
    }
    if (msg.id != null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === 'error') p.reject(new Error(msg.message));
      else p.resolve(msg);
      return;
    }
    if (msg.type === 'error') {
      const o = this.opening;
      this.opening = null;
      o?.reject(new Error(msg.message));
    }
  }

  request(type, payload) {
    if (!this.worker) return Promise.reject(new Error('no decoder'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type, id, ...payload });
    });
  }

  /** @returns {Promise<{label: string, fields: any[]}>} */
  fields(row) {
    return this.request('fields', { row });
  }

  /** @returns {Promise<{rows: number[], labels: string[]}>} */
  labels(rows) {
    return this.request('labels', { rows });
  }

  /** Rows whose label contains the text (case-insensitive), matches /regex/flags, or starts at a 0x offset. @returns {Promise<{rows: Int32Array}>} */
  searchRecords(query) {
    return this.request('searchRecords', { query });
  }


  /** Re-aggregates in the worker: opts {filter, transforms, invert, search}. */
  analyze(opts) {
    return this.request('analyze', { opts });
  }

  sandwich(opts, func) {
    return this.request('sandwich', { opts, func });
  }

  /** Samples behind a call node of the last analysis, and their record rows. @returns {Promise<{samples: Int32Array, rows: Int32Array}>} */
  samplesOf(node) {
    return this.request('samplesOf', { node });
  }

  /** Self and total per function of the current analysis (Functions table). @returns {Promise<{self: Float64Array, total: Float64Array}>} */
  functionTotals() {
    return this.request('functionTotals', {});
  }

  /** Callchain slot of a call node in one sample: {row, slot:{offset,size,name}|null, fields}. */
  slot(sample, node) {
    return this.request('slot', { sample, node });
  }

  /** The library (mapping path) collapse-library would put a function in; '' when none. @returns {Promise<{lib: string}>} */
  library(func) {
    return this.request('library', { func });
  }
}
