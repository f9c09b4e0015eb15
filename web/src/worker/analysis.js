// Aggregation for the analysis views (runs in the worker; pure functions, unit-tested).
//
// prepare(profile, strings, mappings) -> ctx: funcs merged by name (canon), a synthetic
//   func per library for "collapse library", per-stack func paths on demand.
// analyze(ctx, {filter, transforms, invert}) -> call-node table for the samples that pass
//   the filter, after the transforms, plus sampleNode (original sample -> call node, -1 when
//   filtered out or dropped) so the flame chart and linked selection use the same nodes.
// layoutFlame(tree) -> the flame graph layout (preorder, left-heavy: children by total desc),
//   what the flame graph draws (views/flame-graph/flame-draw.js).
// sandwich(ctx, opts, func) -> callers (inverted, rooted at func) and callees trees.
//
// Transforms (applied in order to each sample's root->leaf func path):
//   {type:'focus-subtree', path:[funcs root->node]}  keep paths starting with `path`; the node becomes the root
//   {type:'focus-function', func}                   keep paths containing func; start at its first occurrence
//   {type:'merge-function', func}                   remove func from paths (its callees go to its caller)
//   {type:'drop-function', func}                    drop samples whose path contains func
//   {type:'collapse-recursion', func}               func ... func -> func (outermost kept, inner frames gone)
//   {type:'collapse-library', lib}                  runs of frames of mapping path `lib` -> one frame "lib"

/** @typedef {{threads?: number[]|null, cpus?: number[]|null, event?: number, t0?: number|null, t1?: number|null}} Filter */

export function prepare(profile, strings, mappings = []) {
  const { funcNames, stackFrames, stackPrefixes, frameFuncs } = profile;
  const nFuncs = funcNames.length;
  const names = [];
  const canon = new Int32Array(nFuncs);
  const byName = new Map();
  for (let f = 0; f < nFuncs; f++) {
    const id = funcNames[f];
    const key = id >= 0 && id < strings.length ? String(strings[id]) : '[unknown]';
    let c = byName.get(key);
    if (c === undefined) {
      c = names.length;
      names.push(key);
      byName.set(key, c);
    }
    canon[f] = c;
  }
  // canonical func -> library (mapping path) id, for collapse-library
  const libs = [];
  const libIndex = new Map();
  const canonLib = new Int32Array(names.length).fill(-1);
  const fm = profile.funcMappings || new Int32Array(0);
  const frm = profile.frameMappings || new Int32Array(0);
  const libOf = (m) => {
    if (m < 0 || m >= mappings.length) return -1;
    const p = String(mappings[m]?.path ?? '');
    if (!p) return -1;
    let id = libIndex.get(p);
    if (id === undefined) {
      id = libs.length;
      libs.push(p);
      libIndex.set(p, id);
    }
    return id;
  };
  for (let f = 0; f < nFuncs; f++) if (f < fm.length && canonLib[canon[f]] < 0) canonLib[canon[f]] = libOf(fm[f]);
  for (let fr = 0; fr < frameFuncs.length; fr++) {
    const f = frameFuncs[fr];
    if (f >= 0 && f < nFuncs && canonLib[canon[f]] < 0 && fr < frm.length) canonLib[canon[f]] = libOf(frm[fr]);
  }
  return {
    profile,
    names, // canonical func -> name (library pseudo-funcs are appended per analysis)
    canon,
    canonLib,
    libs,
    nCanon: names.length,
    stackCanon(s) {
      const fr = stackFrames[s];
      const f = fr >= 0 && fr < frameFuncs.length ? frameFuncs[fr] : -1;
      return f >= 0 && f < nFuncs ? canon[f] : this.unknownFunc();
    },
    unknownFunc() {
      let c = byName.get('[unknown]');
      if (c === undefined) {
        c = names.length;
        names.push('[unknown]');
        byName.set('[unknown]', c);
        this.nCanon = names.length;
      }
      return c;
    },
    stackPrefixes,
  };
}

/** Root->leaf canonical func path of stack s (fresh array). */
export function stackPath(ctx, s) {
  const out = [];
  const pre = ctx.stackPrefixes;
  let guard = 0;
  while (s >= 0 && guard++ < 100000) {
    out.push(ctx.stackCanon(s));
    const p = pre[s];
    s = p < s ? p : -1;
  }
  out.reverse();
  return out;
}

/** Applies the transforms to a path; returns null when the sample is dropped. */
export function transformPath(path, transforms, ctx) {
  let p = path;
  for (const t of transforms) {
    if (!p) return null;
    switch (t.type) {
      case 'focus-subtree': {
        const pre = t.path || [];
        if (p.length < pre.length) return null;
        for (let i = 0; i < pre.length; i++) if (p[i] !== pre[i]) return null;
        p = pre.length ? p.slice(pre.length - 1) : p;
        break;
      }
      case 'focus-function': {
        const i = p.indexOf(t.func);
        if (i < 0) return null;
        p = p.slice(i);
        break;
      }
      case 'merge-function':
        p = p.filter((f) => f !== t.func);
        break;
      case 'drop-function':
        if (p.includes(t.func)) return null;
        break;
      case 'collapse-recursion': {
        const a = p.indexOf(t.func);
        const b = p.lastIndexOf(t.func);
        if (a >= 0 && b > a) p = p.slice(0, a + 1).concat(p.slice(b + 1));
        break;
      }
      case 'collapse-library': {
        const lib = ctx.libs.indexOf(t.lib);
        if (lib < 0) break;
        const pseudo = libFunc(ctx, lib);
        const out = [];
        for (const f of p) {
          const inLib = f < ctx.canonLib.length && ctx.canonLib[f] === lib;
          if (inLib) {
            if (out[out.length - 1] !== pseudo) out.push(pseudo);
          } else out.push(f);
        }
        p = out;
        break;
      }
      default:
        break;
    }
  }
  return p;
}

function libFunc(ctx, lib) {
  const name = ctx.libs[lib];
  const key = `[lib] ${name}`;
  let i = ctx.names.indexOf(key);
  if (i < 0) {
    i = ctx.names.length;
    ctx.names.push(key);
  }
  return i;
}

/** Does sample i pass the filter? */
export function passes(p, i, filter, sets) {
  if (filter.event != null && filter.event >= 0 && p.sampleEvents[i] !== filter.event) return false;
  if (sets.threads && !sets.threads.has(p.sampleThreads[i])) return false;
  if (sets.cpus && !sets.cpus.has(p.sampleCpus && i < p.sampleCpus.length ? p.sampleCpus[i] : -1)) return false;
  if (filter.t0 != null && p.sampleTimes[i] < filter.t0) return false;
  if (filter.t1 != null && p.sampleTimes[i] > filter.t1) return false;
  return true;
}

/**
 * Call-node tree of the filtered, transformed samples.
 * @returns {{parent: Int32Array, func: Int32Array, depth: Int32Array, self: Float64Array,
 *   total: Float64Array, count: number, sampleNode: Int32Array, samples: number}}
 */
export function analyze(ctx, opts = {}) {
  const filter = opts.filter || {};
  const transforms = opts.transforms || [];
  const invert = !!opts.invert;
  const map = opts.mapPath || null; // (path) -> path|null, extra per-analysis rewrite (sandwich)
  const p = ctx.profile;
  const sets = {
    threads: filter.threads && filter.threads.length ? new Set(filter.threads) : null,
    cpus: filter.cpus && filter.cpus.length ? new Set(filter.cpus) : null,
  };
  const nSamples = p.sampleStacks.length;
  const nStacks = p.stackFrames.length;
  const stackNode = new Int32Array(nStacks + 1).fill(-3); // -3 not computed, -2 dropped; index nStacks = empty stack
  const parent = [-1];
  const func = [-1];
  const depth = [0];
  const keys = new Map();
  const child = (par, f) => {
    const key = par * 4194304 + f; // f < 2^22
    let n = keys.get(key);
    if (n === undefined) {
      n = parent.length;
      parent.push(par);
      func.push(f);
      depth.push(depth[par] + 1);
      keys.set(key, n);
    }
    return n;
  };
  const nodeOfStack = (s) => {
    const slot = s >= 0 && s < nStacks ? s : nStacks;
    let n = stackNode[slot];
    if (n !== -3) return n;
    let path = slot === nStacks ? [] : stackPath(ctx, s);
    path = transformPath(path, transforms, ctx);
    if (path && map) path = map(path);
    if (!path) n = -2;
    else {
      if (invert) path = path.slice().reverse();
      n = 0;
      for (const f of path) n = child(n, f);
    }
    stackNode[slot] = n;
    return n;
  };
  const sampleNode = new Int32Array(nSamples).fill(-1);
  const counts = p.sampleCounts;
  const selfArr = [];
  let counted = 0;
  for (let i = 0; i < nSamples; i++) {
    if (!passes(p, i, filter, sets)) continue;
    const n = nodeOfStack(p.sampleStacks[i]);
    if (n < 0) continue;
    sampleNode[i] = n;
    const c = counts && counts.length ? counts[i] : 1; // gperftools rows stand for several samples
    selfArr[n] = (selfArr[n] || 0) + c;
    counted += c;
  }
  const count = parent.length;
  const self = new Float64Array(count);
  for (let n = 0; n < count; n++) self[n] = selfArr[n] || 0;
  const total = Float64Array.from(self);
  for (let n = count - 1; n >= 1; n--) total[parent[n]] += total[n];
  return {
    parent: Int32Array.from(parent),
    func: Int32Array.from(func),
    depth: Int32Array.from(depth),
    self,
    total,
    count,
    sampleNode,
    samples: counted,
  };
}

/** Children lists (CSR) sorted by total descending, then name. */
export function childrenOf(tree, names) {
  const { parent, total, func, count } = tree;
  const start = new Int32Array(count + 1);
  for (let n = 1; n < count; n++) start[parent[n] + 1]++;
  for (let i = 1; i <= count; i++) start[i] += start[i - 1];
  const kids = new Int32Array(Math.max(0, count - 1));
  const fill = start.slice(0, count);
  for (let n = 1; n < count; n++) kids[fill[parent[n]]++] = n;
  const nm = (n) => names[func[n]] ?? '';
  for (let n = 0; n < count; n++) {
    const a = start[n];
    const b = start[n + 1];
    if (b - a > 1) {
      const sub = Array.from(kids.subarray(a, b));
      sub.sort((x, y) => total[y] - total[x] || (nm(x) < nm(y) ? -1 : nm(x) > nm(y) ? 1 : x - y));
      kids.set(sub, a);
    }
  }
  return { start, kids };
}

/**
 * Flame graph layout (left-heavy). Nodes with total 0 are left out.
 * @returns {{event:number,total:number,maxDepth:number,func:Int32Array,depth:Int32Array,start:Float64Array,
 *   total_:Float64Array,self:Float64Array,end:Int32Array,node:Int32Array,layoutOf:Int32Array}}
 */
export function layoutFlame(tree, names, event = 0) {
  const { total, self, func, count } = tree;
  const { start: ks, kids } = childrenOf(tree, names);
  let m = 0;
  for (let n = 0; n < count; n++) if (total[n] > 0 || n === 0) m++;
  const out = {
    event,
    total: total[0] || 0,
    maxDepth: 0,
    func: new Int32Array(m),
    depth: new Int32Array(m),
    start: new Float64Array(m),
    total_: new Float64Array(m),
    self: new Float64Array(m),
    end: new Int32Array(m),
    node: new Int32Array(m),
    layoutOf: new Int32Array(count).fill(-1),
  };
  const st = [[0, 0, 0]]; // node, depth, start; negative node = close marker
  let k = 0;
  while (st.length) {
    const [n, d, s] = st.pop();
    if (n < 0) {
      out.end[-n - 1] = k;
      continue;
    }
    const oi = k++;
    out.func[oi] = func[n];
    out.depth[oi] = d;
    out.start[oi] = s;
    out.total_[oi] = total[n];
    out.self[oi] = self[n];
    out.node[oi] = n;
    out.layoutOf[n] = oi;
    if (d > out.maxDepth) out.maxDepth = d;
    st.push([-oi - 1, 0, 0]);
    const a = ks[n];
    const b = ks[n + 1];
    const starts = [];
    let x = s;
    for (let i = a; i < b; i++) {
      starts.push(x);
      x += total[kids[i]];
    }
    for (let i = b - 1; i >= a; i--) if (total[kids[i]] > 0) st.push([kids[i], d + 1, starts[i - a]]);
  }
  return out;
}

/** Root->node func path of call node n. */
export function nodePath(tree, n) {
  const out = [];
  while (n > 0) {
    out.push(tree.func[n]);
    n = tree.parent[n];
  }
  return out.reverse();
}

/** Is call node n in the subtree of node a? */
export function isUnder(tree, n, a) {
  while (n >= 0) {
    if (n === a) return true;
    if (tree.depth[n] <= tree.depth[a]) return false;
    n = tree.parent[n];
  }
  return false;
}

/** Original samples behind call node a (its subtree), in sample order. */
export function samplesOf(tree, a) {
  const out = [];
  const memo = new Int8Array(tree.count); // 0 unknown, 1 under, 2 not
  memo[a] = 1;
  const sn = tree.sampleNode;
  for (let i = 0; i < sn.length; i++) {
    const n = sn[i];
    if (n < 0) continue;
    let v = memo[n];
    if (!v) {
      v = isUnder(tree, n, a) ? 1 : 2;
      memo[n] = v;
    }
    if (v === 1) out.push(i);
  }
  return Int32Array.from(out);
}

/** Sandwich of one function: callers (inverted, rooted at func) and callees (rooted at func). */
export function sandwich(ctx, opts, f) {
  const callees = analyze(ctx, {
    ...opts,
    invert: false,
    mapPath: (path) => {
      const i = path.indexOf(f);
      return i < 0 ? null : path.slice(i);
    },
  });
  const callers = analyze(ctx, {
    ...opts,
    invert: true,
    mapPath: (path) => {
      const i = path.lastIndexOf(f);
      return i < 0 ? null : path.slice(0, i + 1);
    },
  });
  return { callers, callees };
}

/** Matches of a search (substring, case-insensitive, or /regex/flags) among names -> Uint8Array per func. */
export function searchFuncs(names, query) {
  const out = new Uint8Array(names.length);
  if (!query) return out;
  let test;
  const m = /^\/(.*)\/([a-z]*)$/.exec(query);
  if (m) {
    let re;
    try {
      re = new RegExp(m[1], m[2].includes('i') ? m[2] : m[2] + 'i');
    } catch {
      return out;
    }
    test = (s) => re.test(s);
  } else {
    const q = query.toLowerCase();
    test = (s) => s.toLowerCase().includes(q);
  }
  for (let i = 0; i < names.length; i++) if (test(String(names[i]))) out[i] = 1;
  return out;
}

/** Lanes of the flame chart: samples of each thread (or CPU: key 'sampleCpus', n = max cpu + 1) sorted by time. */
export function buildLanes(profile, nThreads, key = 'sampleThreads') {
  const { sampleTimes } = profile;
  const sampleThreads = profile[key] || new Int32Array(0);
  const n = sampleThreads.length;
  const counts = new Int32Array(nThreads + 1);
  for (let i = 0; i < n; i++) {
    const t = sampleThreads[i];
    counts[t >= 0 && t < nThreads ? t : nThreads]++;
  }
  const lanes = [];
  for (let t = 0; t <= nThreads; t++) lanes.push({ thread: t < nThreads ? t : -1, samples: new Int32Array(counts[t]), times: null });
  const fill = new Int32Array(nThreads + 1);
  for (let i = 0; i < n; i++) {
    const t = sampleThreads[i];
    const l = t >= 0 && t < nThreads ? t : nThreads;
    lanes[l].samples[fill[l]++] = i;
  }
  for (const lane of lanes) {
    let sorted = true;
    for (let k = 1; k < lane.samples.length; k++) if (sampleTimes[lane.samples[k]] < sampleTimes[lane.samples[k - 1]]) sorted = false;
    if (!sorted) {
      const arr = Array.from(lane.samples);
      arr.sort((a, b) => sampleTimes[a] - sampleTimes[b] || a - b);
      lane.samples = Int32Array.from(arr);
    }
    lane.times = new Float64Array(lane.samples.length);
    for (let k = 0; k < lane.samples.length; k++) lane.times[k] = sampleTimes[lane.samples[k]];
  }
  return lanes.filter((l) => l.samples.length > 0);
}

/** The callchain slot (or ip field) of a sample record holding `address`, or null. */
export function callchainSlot(fields, address) {
  // addresses travel as doubles (exact below 2^53; kernel addresses round the same way)
  const same = (v) => {
    const m = /^(0x[0-9a-f]+|\d+)/i.exec(String(v));
    if (!m) return false;
    try {
      return Number(BigInt(m[1])) === address;
    } catch {
      return false;
    }
  };
  const list = fields || [];
  const ci = list.findIndex((f) => f.name === 'callchain');
  if (ci >= 0 && list[ci].children) {
    const k = list[ci].children.findIndex((c) => same(c.value));
    if (k >= 0) {
      const hit = list[ci].children[k];
      return { name: `callchain${hit.name}`, offset: Number(hit.offset), size: Number(hit.size), path: `${ci}.${k}` };
    }
  }
  const ii = list.findIndex((f) => f.name === 'ip');
  if (ii >= 0 && same(list[ii].value)) return { name: 'ip', offset: Number(list[ii].offset), size: Number(list[ii].size), path: `${ii}` };
  return null;
}

/**
 * Address of the original frame behind call node `node` in sample `i`: the frame at the
 * node's depth when the tree is plain (no transforms, not inverted), else the leaf-most
 * frame of the node's function. null when none.
 */
export function frameAddressFor(ctx, tree, i, node, plain) {
  const p = ctx.profile;
  const frames = [];
  let s = p.sampleStacks[i];
  while (s >= 0) {
    frames.push(s);
    const q = p.stackPrefixes[s];
    s = q < s ? q : -1;
  }
  frames.reverse(); // root -> leaf stack ids
  const f = tree.func[node];
  let pick = -1;
  if (plain) {
    const d = tree.depth[node] - 1;
    if (d >= 0 && d < frames.length && ctx.stackCanon(frames[d]) === f) pick = frames[d];
  }
  if (pick < 0) {
    for (let k = frames.length - 1; k >= 0; k--) {
      if (ctx.stackCanon(frames[k]) === f) {
        pick = frames[k];
        break;
      }
    }
  }
  if (pick < 0) return null;
  const fr = p.stackFrames[pick];
  return fr >= 0 && fr < p.frameAddresses.length ? p.frameAddresses[fr] : null;
}
