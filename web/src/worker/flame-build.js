// Flame graph aggregation (runs in the worker).
//
// 1. Call-node tree: stacks (stackPrefixes/stackFrames) mapped to funcs (funcs of
//    the same name are one), identical call paths merged. Node 0 is the synthetic root; parents are created before children.
// 2. Per event: self sample counts per call node, totals summed towards the root.
// 3. Layout per event in preorder, children sorted by name (a classic flame graph):
//    node i covers [start[i], start[i] + total[i]) in sample units at row depth[i];
//    its subtree is the index range [i, end[i]).

/**
 * @param {{stackFrames: Int32Array, stackPrefixes: Int32Array, frameFuncs: Int32Array,
 *   funcNames: Int32Array, sampleStacks: Int32Array, sampleEvents: Int32Array}} p
 * @param {string[]} strings
 * @param {number} eventCount number of event rows
 * @returns {Array<FlameLayout>} one layout per event row
 *
 * @typedef {{event: number, total: number, maxDepth: number, func: Int32Array,
 *   depth: Int32Array, start: Float64Array, total_: Float64Array, self: Float64Array,
 *   end: Int32Array}} FlameLayout
 */
export function buildFlames(p, strings, eventCount) {
  const { stackFrames, stackPrefixes, frameFuncs, funcNames, sampleStacks, sampleEvents } = p;
  const nStacks = stackFrames.length;
  const nFuncs = funcNames.length;

  // --- funcs with the same name are one function for the graph (the decoder may
  // emit one func per frame); canon[f] = the first func of that name
  const canon = new Int32Array(nFuncs);
  {
    const byName = new Map();
    for (let f = 0; f < nFuncs; f++) {
      const id = funcNames[f];
      const key = id >= 0 && id < strings.length ? String(strings[id]) : '';
      const c = byName.get(key);
      if (c === undefined) {
        byName.set(key, f);
        canon[f] = f;
      } else canon[f] = c;
    }
  }

  // --- call-node tree
  const stackNode = new Int32Array(nStacks);
  let cap = 1024;
  let nodeParent = new Int32Array(cap);
  let nodeFunc = new Int32Array(cap);
  nodeParent[0] = -1;
  nodeFunc[0] = -1;
  let nNodes = 1;
  const map = new Map();
  const stride = nFuncs + 2;
  for (let s = 0; s < nStacks; s++) {
    const pre = stackPrefixes[s];
    const parentNode = pre >= 0 && pre < s ? stackNode[pre] : 0;
    const frame = stackFrames[s];
    const ff = frame >= 0 && frame < frameFuncs.length ? frameFuncs[frame] : -1;
    const f = ff >= 0 && ff < nFuncs ? canon[ff] : -1;
    const key = parentNode * stride + (f + 1);
    let node = map.get(key);
    if (node === undefined) {
      if (nNodes === cap) {
        cap *= 2;
        const np = new Int32Array(cap);
        np.set(nodeParent);
        nodeParent = np;
        const nf = new Int32Array(cap);
        nf.set(nodeFunc);
        nodeFunc = nf;
      }
      node = nNodes++;
      nodeParent[node] = parentNode;
      nodeFunc[node] = f;
      map.set(key, node);
    }
    stackNode[s] = node;
  }

  // --- name rank of funcs (children sorted by name)
  const nameOf = (f) => {
    if (f < 0 || f >= nFuncs) return '';
    const id = funcNames[f];
    return id >= 0 && id < strings.length ? String(strings[id]) : '';
  };
  const funcOrder = Array.from({ length: nFuncs }, (_, i) => i);
  const names = funcOrder.map(nameOf);
  funcOrder.sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : a - b));
  const funcRank = new Int32Array(nFuncs);
  funcOrder.forEach((f, i) => {
    funcRank[f] = i;
  });
  const rank = (node) => (nodeFunc[node] < 0 ? -1 : funcRank[nodeFunc[node]]);

  // --- children CSR (sorted by name rank)
  const kidsStart = new Int32Array(nNodes + 1);
  for (let n = 1; n < nNodes; n++) kidsStart[nodeParent[n] + 1]++;
  for (let i = 1; i <= nNodes; i++) kidsStart[i] += kidsStart[i - 1];
  const kids = new Int32Array(Math.max(0, nNodes - 1));
  const fill = kidsStart.slice(0, nNodes);
  for (let n = 1; n < nNodes; n++) kids[fill[nodeParent[n]]++] = n;
  for (let n = 0; n < nNodes; n++) {
    const a = kidsStart[n];
    const b = kidsStart[n + 1];
    if (b - a > 1) {
      const sub = Array.from(kids.subarray(a, b));
      sub.sort((x, y) => rank(x) - rank(y) || x - y);
      kids.set(sub, a);
    }
  }

  // --- per-event self counts
  const nEvents = Math.max(eventCount, 0);
  const selfBy = [];
  for (let e = 0; e < nEvents; e++) selfBy.push(new Float64Array(nNodes));
  const nSamples = sampleStacks.length;
  const counts = p.sampleCounts;
  for (let i = 0; i < nSamples; i++) {
    const e = sampleEvents[i];
    if (e < 0 || e >= nEvents) continue;
    const st = sampleStacks[i];
    const node = st >= 0 && st < nStacks ? stackNode[st] : 0;
    selfBy[e][node] += counts && counts.length ? counts[i] : 1; // gperftools rows carry a count
  }

  const layouts = [];
  for (let e = 0; e < nEvents; e++) {
    layouts.push(layoutEvent(e, selfBy[e], nodeParent, nodeFunc, nNodes, kidsStart, kids));
  }
  return layouts;
}

function layoutEvent(event, self, nodeParent, nodeFunc, nNodes, kidsStart, kids) {
  const total = Float64Array.from(self);
  for (let n = nNodes - 1; n >= 1; n--) total[nodeParent[n]] += total[n];
  let count = 0;
  for (let n = 0; n < nNodes; n++) if (total[n] > 0) count++;
  if (total[0] <= 0) count = 1; // keep the root even when empty

  const out = {
    event,
    total: total[0],
    maxDepth: 0,
    func: new Int32Array(count),
    depth: new Int32Array(count),
    start: new Float64Array(count),
    total_: new Float64Array(count),
    self: new Float64Array(count),
    end: new Int32Array(count),
  };
  // iterative preorder DFS; a negative entry -(i+1) closes out node i (sets end[i])
  const stackNode = [0];
  const stackDepth = [0];
  const stackStart = [0];
  let k = 0;
  while (stackNode.length) {
    const node = stackNode.pop();
    const d = stackDepth.pop();
    const st = stackStart.pop();
    if (node < 0) {
      // close marker: -(outIndex+1)
      const oi = -node - 1;
      out.end[oi] = k;
      continue;
    }
    const oi = k++;
    out.func[oi] = nodeFunc[node];
    out.depth[oi] = d;
    out.start[oi] = st;
    out.total_[oi] = total[node];
    out.self[oi] = self[node];
    if (d > out.maxDepth) out.maxDepth = d;
    // close marker below the children
    stackNode.push(-oi - 1);
    stackDepth.push(0);
    stackStart.push(0);
    // children pushed in reverse so the first (by name) is visited first
    const a = kidsStart[node];
    const b = kidsStart[node + 1];
    let x = st;
    const starts = [];
    for (let i = a; i < b; i++) {
      const c = kids[i];
      starts.push(x);
      x += total[c];
    }
    for (let i = b - 1; i >= a; i--) {
      const c = kids[i];
      if (total[c] <= 0) continue;
      stackNode.push(c);
      stackDepth.push(d + 1);
      stackStart.push(starts[i - a]);
    }
  }
  return out;
}
