// FileAnalysis: a view the core cannot make ({error} from session.analyze: an inverted tree too large
// to build) is a ViewError, which the worker marks so the page takes the options back; in a sandwich
// only that half says so, and the other half is drawn.
import { describe, expect, it } from 'vitest';
import { FileAnalysis, ViewError } from './file-analysis.js';

const ROOT_ONLY = {
  parent: Int32Array.of(-1),
  func: Int32Array.of(-1),
  depth: Int32Array.of(0),
  subtreeEnd: Int32Array.of(1),
  self: Float64Array.of(0),
  total: Float64Array.of(0),
  sampleNode: new Int32Array(0),
  count: 1,
  samples: 0,
};

// A session whose inverted trees (and callers halves) are too large to build.
function stubSession() {
  const asked = [];
  return {
    asked,
    analysisCanon: () => new Int32Array(0),
    analysisNameIds: () => new Int32Array(0),
    analysisName: () => '',
    analyze(json) {
      const o = JSON.parse(json);
      asked.push(o);
      if (o.invert || o.sandwich?.mode === 'callers') return { error: 'the inverted tree of these stacks is too large to build: …' };
      return ROOT_ONLY;
    },
    analyzeKeeping(/** @type {string} */ json) {
      return this.analyze(json);
    },
    keptSampleNode: () => new Int32Array(0),
  };
}

describe('FileAnalysis and views too large to build', () => {
  it('tree() throws a ViewError with the core\'s reason', () => {
    const a = new FileAnalysis(/** @type {any} */ (stubSession()), /** @type {any} */ ({}), [], 1);
    expect(() => a.tree({ invert: true })).toThrow(ViewError);
    expect(() => a.tree({ invert: true })).toThrow(/too large to build/);
    expect(a.tree({}).count).toBe(1);
  });
  it('a sandwich draws the half that can be made and says why the other cannot', () => {
    const s = stubSession();
    const a = new FileAnalysis(/** @type {any} */ (s), /** @type {any} */ ({}), [], 1);
    const sw = a.sandwich({}, 3);
    expect(sw.callers).toEqual({ error: 'the inverted tree of these stacks is too large to build: …' });
    expect(sw.callees.count).toBe(1);
    expect(s.asked.map((o) => o.sandwich)).toEqual([
      { mode: 'callers', func: 3 },
      { mode: 'callees', func: 3 },
    ]);
  });
  it('a tree shown in part (an inverted tree too large to build whole) carries the core\'s notice to the page', () => {
    const s = stubSession();
    const NOTICE = 'the inverted tree of these stacks is too large to show whole: it shows its 1.0 M heaviest nodes, …';
    s.analyze = (json) => (JSON.parse(json).sandwich?.mode === 'callees' ? ROOT_ONLY : { ...ROOT_ONLY, notice: NOTICE });
    const a = new FileAnalysis(/** @type {any} */ (s), /** @type {any} */ ({}), [], 1);
    expect(a.run({ invert: true }).notice).toBe(NOTICE);
    const sw = a.sandwich({}, 3);
    expect(sw.callers.notice).toBe(NOTICE);
    expect(sw.callers.count).toBe(1);
    expect(sw.callees.notice).toBe('');
  });
  it('the Functions view counts an inverted tree\'s functions in the same tree not inverted', () => {
    // main -> a -> b, one sample in b: inverted, the path b <- a <- main holds its self at main
    const names = ['main', 'a', 'b'];
    const tree = (/** @type {number[]} */ func, /** @type {number[]} */ self) => ({
      parent: Int32Array.of(-1, 0, 1, 2),
      func: Int32Array.from([-1, ...func]),
      depth: Int32Array.of(0, 1, 2, 3),
      subtreeEnd: Int32Array.of(4, 4, 4, 4),
      self: Float64Array.from([0, ...self]),
      total: Float64Array.of(1, 1, 1, 1),
      sampleNode: Int32Array.of(3),
      count: 4,
      samples: 1,
    });
    const s = stubSession();
    s.analysisNameIds = () => Int32Array.of(-1, -1, -1);
    s.analysisName = (i) => names[i];
    s.analyze = (json) => {
      const o = JSON.parse(json);
      s.asked.push(o);
      return o.invert ? tree([2, 1, 0], [0, 0, 1]) : tree([0, 1, 2], [0, 0, 1]);
    };
    const a = new FileAnalysis(/** @type {any} */ (s), /** @type {any} */ ({}), [], 1);
    a.run({ invert: true });
    const t = a.functionTotals();
    expect(Array.from(t.self)).toEqual([0, 0, 1]); // b's self, not main's
    expect(Array.from(t.total)).toEqual([1, 1, 1]);
    expect(s.asked.at(-1).invert).toBe(false);
    a.run({});
    const before = s.asked.length;
    expect(Array.from(a.functionTotals().self)).toEqual([0, 0, 1]);
    expect(s.asked.length).toBe(before); // not inverted: the tree shown is counted, no other made
  });
  it('other errors (a module fault) are not views the page can take back', () => {
    const s = stubSession();
    s.analyze = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    const a = new FileAnalysis(/** @type {any} */ (s), /** @type {any} */ ({}), [], 1);
    expect(() => a.sandwich({}, 3)).toThrow(RangeError);
  });
});

describe("FileAnalysis keeps each sample's call node", () => {
  // main -> a (samples 0, 2), main -> b (sample 1), sample 3 filtered out
  const TREE = {
    parent: Int32Array.of(-1, 0, 1, 1),
    func: Int32Array.of(-1, 0, 1, 2),
    depth: Int32Array.of(0, 1, 2, 2),
    subtreeEnd: Int32Array.of(4, 4, 3, 4),
    self: Float64Array.of(0, 0, 2, 1),
    total: Float64Array.of(3, 3, 2, 1),
    sampleNode: Int32Array.of(2, 3, 2, -1),
    count: 4,
    samples: 3,
  };
  // (the module keeps the sample -> node of analyzeKeeping's tree; this stub's node samples are those of TREE)
  const session = () => {
    const s = /** @type {any} */ (stubSession());
    s.analyze = () => ({ ...TREE, sampleNode: TREE.sampleNode.slice() });
    let kept = new Int32Array(0);
    s.analyzeKeeping = (/** @type {string} */ json) => {
      const { sampleNode, ...rest } = s.analyze(json);
      kept = sampleNode;
      return rest;
    };
    s.keptSampleNode = () => kept.slice();
    s.sampleNode = (/** @type {number} */ k) => (k >= 0 && k < kept.length ? kept[k] : -1);
    s.nodeSamples = (/** @type {number} */ n) => Int32Array.from(kept.keys()).filter((k) => kept[k] >= n && kept[k] < TREE.subtreeEnd[n]);
    return s;
  };
  it("answers a node's samples and a sample's node from the module's kept tree, once it has one", () => {
    const a = new FileAnalysis(/** @type {any} */ (session()), /** @type {any} */ ({}), [], 1);
    expect(Array.from(a.nodeSamples(2))).toEqual([]); // (no tree yet)
    expect(a.sampleNode(0)).toBe(-1);
    a.run({});
    expect(Array.from(a.nodeSamples(1))).toEqual([0, 1, 2]); // main's subtree
    expect(Array.from(a.nodeSamples(2))).toEqual([0, 2]);
    expect(Array.from(a.nodeSamples(3))).toEqual([1]);
    expect([0, 1, 2, 3, 4, -1].map((k) => a.sampleNode(k))).toEqual([2, 3, 2, -1, -1, -1]);
  });
  it('gives the page a copy of sample -> node only when its lanes draw samples', () => {
    const drawn = new FileAnalysis(/** @type {any} */ (session()), /** @type {any} */ ({}), [], 1).run({});
    expect(Array.from(drawn.sampleNode)).toEqual([2, 3, 2, -1]);
    const calls = new FileAnalysis(/** @type {any} */ (session()), /** @type {any} */ ({}), [], 1, { pageDrawsSamples: false });
    expect(calls.run({}).sampleNode).toBeNull();
    expect(Array.from(calls.nodeSamples(2))).toEqual([0, 2]); // the worker still answers
    expect(calls.sampleNode(1)).toBe(3);
  });
});
