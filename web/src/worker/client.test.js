import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DecoderClient } from './client.js';

// A stand-in for the decoding worker: records what the page posts; the test answers for it.
class FakeWorker {
  static made = [];
  constructor() {
    this.posted = [];
    this.terminated = false;
    FakeWorker.made.push(this);
  }
  postMessage(m) {
    this.posted.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  answer(msg) {
    this.onmessage({ data: msg });
  }
}

describe('DecoderClient: Cancel while decoding', () => {
  beforeEach(() => {
    FakeWorker.made = [];
    vi.stubGlobal('Worker', FakeWorker);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks the worker to stop, and opens what it decoded before the stop', async () => {
    const c = new DecoderClient();
    const opened = c.open(new Blob([]), 'big.perf.data');
    const w = FakeWorker.made[0];
    expect(w.posted[0].type).toBe('open');
    c.stopDecoding(3000);
    expect(w.posted.at(-1)).toEqual({ type: 'stop' });
    w.answer({ type: 'decoded', ok: true, diagnostics: [{ code: 'decode_stopped', offset: 4096 }] });
    await expect(opened).resolves.toMatchObject({ type: 'decoded', diagnostics: [{ code: 'decode_stopped' }] });
    vi.advanceTimersByTime(5000);
    expect(w.terminated).toBe(false); // the decoded file stays open in its worker
  });

  it('terminates a worker that does not stop in time (a decoder that cannot pause) and rejects as cancelled', async () => {
    const c = new DecoderClient();
    const opened = c.open(new Blob([]), 'f.prof');
    const w = FakeWorker.made[0];
    c.stopDecoding(3000);
    vi.advanceTimersByTime(2999);
    expect(w.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(w.terminated).toBe(true);
    await expect(opened).rejects.toMatchObject({ cancelled: true });
  });

  it('keeps a worker that says it is stopping, however long its stop takes (side files still name what was read)', async () => {
    const c = new DecoderClient();
    const opened = c.open(new Blob([]), 'big.perf.data');
    const w = FakeWorker.made[0];
    c.stopDecoding(3000);
    w.answer({ type: 'stopping' });
    vi.advanceTimersByTime(10000);
    expect(w.terminated).toBe(false);
    w.answer({ type: 'decoded', ok: true });
    await expect(opened).resolves.toMatchObject({ ok: true });
  });

  it('does not stop a file whose decode is over (its tables are on their way)', async () => {
    const c = new DecoderClient();
    const opened = c.open(new Blob([]), 'f.data');
    const w = FakeWorker.made[0];
    w.answer({ type: 'progress', done: 10, total: 10 }); // the main file's end: data files may follow
    w.answer({ type: 'decodeOver' });
    c.stopDecoding(3000);
    expect(w.posted.some((m) => m.type === 'stop')).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(w.terminated).toBe(false);
    w.answer({ type: 'decoded', ok: true });
    await expect(opened).resolves.toMatchObject({ ok: true });
  });

  it('opens the next file in the worker it prepared, with its module loaded', () => {
    const c = new DecoderClient();
    c.open(new Blob([]), 'a');
    const first = FakeWorker.made[0];
    first.answer({ type: 'decoded', ok: true });
    vi.advanceTimersByTime(1000);
    expect(FakeWorker.made.length).toBe(2); // the spare
    c.open(new Blob([]), 'b');
    expect(first.terminated).toBe(true);
    expect(FakeWorker.made.length).toBe(2);
    expect(FakeWorker.made[1].posted[0]).toMatchObject({ type: 'open', name: 'b' });
  });
});

/** A client whose worker answered 'decoded' for an XRay log: the client, its worker, the opened document. */
async function decodedXRay() {
  const c = new DecoderClient();
  const opened = c.open(new Blob([]), 'x.xray');
  const w = FakeWorker.made[0];
  w.answer({ type: 'decoded', ok: true });
  return { c, w, doc: await opened };
}

describe('DecoderClient: the record table follows the decoded file', () => {
  beforeEach(() => {
    FakeWorker.made = [];
    vi.stubGlobal('Worker', FakeWorker);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("opens on 'decoded' and hands over the 'tables' message that comes after it", async () => {
    const c = new DecoderClient();
    const opened = c.open(new Blob([]), 'f.perf.data');
    const w = FakeWorker.made[0];
    w.answer({ type: 'decoded', ok: true, records: null });
    const doc = await opened;
    expect(doc.records).toBeNull();
    const kinds = new Uint8Array([0, 1]);
    w.answer({ type: 'tables', records: { kinds }, index: {} });
    await expect(doc.whenTables).resolves.toMatchObject({ type: 'tables', records: { kinds } });
    // the timeline follows, then the account
    const lanes = [{ thread: 0 }];
    w.answer({ type: 'timeline', lanes, intervals: null });
    await expect(doc.whenTimeline).resolves.toMatchObject({ type: 'timeline', lanes });
    const account = [{ function: 'main' }];
    w.answer({ type: 'account', account });
    await expect(doc.whenAccount).resolves.toMatchObject({ type: 'account', account });
  });

  it('each of the three messages reaches its wait, in whatever order they come', async () => {
    const { c, w, doc } = await decodedXRay();
    w.answer({ type: 'account', account: [] });
    w.answer({ type: 'tables', records: {} });
    w.answer({ type: 'timeline', lanes: [] });
    await expect(doc.whenAccount).resolves.toMatchObject({ type: 'account' });
    await expect(doc.whenTables).resolves.toMatchObject({ type: 'tables' });
    await expect(doc.whenTimeline).resolves.toMatchObject({ type: 'timeline' });
    expect(c.tablesDue).toBeNull();
  });

  it('the account says why when making it failed after the timeline came', async () => {
    const { w, doc } = await decodedXRay();
    w.answer({ type: 'tables', records: {} });
    w.answer({ type: 'timeline', lanes: [] });
    await expect(doc.whenTimeline).resolves.toMatchObject({ type: 'timeline' });
    w.answer({ type: 'error', request: 'open', message: 'out of memory' });
    await expect(doc.whenAccount).resolves.toEqual({ error: 'out of memory' });
  });

  it('the timeline says why when making it failed after the record table came', async () => {
    const { w, doc } = await decodedXRay();
    w.answer({ type: 'tables', records: {} });
    await expect(doc.whenTables).resolves.toMatchObject({ type: 'tables' });
    w.answer({ type: 'error', request: 'open', message: 'out of memory' });
    await expect(doc.whenTimeline).resolves.toEqual({ error: 'out of memory' });
    await expect(doc.whenAccount).resolves.toEqual({ error: 'out of memory' });
  });

  it('says why when the worker fails making them, and gives null when another file opens first', async () => {
    const c = new DecoderClient();
    let opened = c.open(new Blob([]), 'a.perf.data');
    FakeWorker.made[0].answer({ type: 'decoded', ok: true });
    let doc = await opened;
    FakeWorker.made[0].answer({ type: 'error', request: 'open', message: 'out of memory' });
    await expect(doc.whenTables).resolves.toEqual({ error: 'out of memory' });
    await expect(doc.whenTimeline).resolves.toEqual({ error: 'out of memory' });
    await expect(doc.whenAccount).resolves.toEqual({ error: 'out of memory' });

    opened = c.open(new Blob([]), 'b.perf.data');
    FakeWorker.made[1].answer({ type: 'decoded', ok: true });
    doc = await opened;
    c.open(new Blob([]), 'c.perf.data'); // b's worker is terminated
    expect(FakeWorker.made[1].terminated).toBe(true);
    await expect(doc.whenTables).resolves.toBeNull();
    await expect(doc.whenTimeline).resolves.toBeNull();
    await expect(doc.whenAccount).resolves.toBeNull();
  });
});

describe('DecoderClient: answers the page must tell apart', () => {
  beforeEach(() => {
    FakeWorker.made = [];
    vi.stubGlobal('Worker', FakeWorker);
  });
  afterEach(() => vi.unstubAllGlobals());

  async function openedClient() {
    const c = new DecoderClient();
    const opened = c.open(new Blob([]), 'f.data');
    const w = FakeWorker.made[0];
    w.answer({ type: 'decoded', ok: true });
    await opened;
    return { c, w };
  }

  it('a node of a call tree the worker has since remade: the request is dropped as cancelled', async () => {
    const { c, w } = await openedClient();
    const asked = c.slot(5, 3, 7);
    const req = w.posted.at(-1);
    expect(req).toMatchObject({ type: 'slot', sample: 5, node: 3, gen: 7 });
    w.answer({ type: 'error', id: req.id, request: 'slot', message: 'the call tree was remade meanwhile', stale: true });
    await expect(asked).rejects.toMatchObject({ cancelled: true });
  });

  it("a call node's samples asked of an analysis the worker has since replaced: the request is dropped as cancelled", async () => {
    const { c, w } = await openedClient();
    const asked = c.nodeSamples(3, 7);
    const req = w.posted.at(-1);
    expect(req).toMatchObject({ type: 'nodeSamples', node: 3, gen: 7 });
    w.answer({ type: 'error', id: req.id, request: 'nodeSamples', message: 'the call tree was remade meanwhile', stale: true });
    await expect(asked).rejects.toMatchObject({ cancelled: true });
    const node = c.sampleNode(5, 7);
    const req2 = w.posted.at(-1);
    expect(req2).toMatchObject({ type: 'sampleNode', sample: 5, gen: 7 });
    w.answer({ type: 'sampleNode', id: req2.id, sample: 5, node: 4 });
    await expect(node).resolves.toMatchObject({ node: 4 });
  });

  it('a view too large to build is a ViewError (the page takes its options back)', async () => {
    const { c, w } = await openedClient();
    const asked = c.analyze({ invert: true });
    const req = w.posted.at(-1);
    w.answer({ type: 'error', id: req.id, request: 'analyze', message: 'the inverted tree of these stacks is too large to build', view: true });
    await expect(asked).rejects.toMatchObject({ name: 'ViewError', message: expect.stringMatching(/too large/) });
    const other = c.functionTotals(2);
    const req2 = w.posted.at(-1);
    expect(req2).toMatchObject({ type: 'functionTotals', gen: 2 });
    w.answer({ type: 'error', id: req2.id, request: 'functionTotals', message: 'no file is open' });
    await expect(other).rejects.not.toMatchObject({ cancelled: true });
  });
});
