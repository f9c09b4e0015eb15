// The JavaScript aggregation: a test oracle, not app code. The page's call trees come from the
// core (core/analysis/call_tree.cc through Session::Analyze); tests/node/analysis-parity.test.mjs
// holds the core to this independent version on real files of every format.
//
// prepare(profile, strings, mappings) -> ctx: funcs merged by name (canon), a synthetic
//   func per library for "collapse library", per-stack func paths on demand.
// analyze(ctx, {filter, transforms, invert}) -> call-node table for the samples that pass
//   the filter, after the transforms, plus sampleNode (original sample -> call node, -1 when
//   filtered out or dropped); in depth-first order with subtreeEnd, as the core's.
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
  return depthFirst({ parent, func, depth, self, sampleNode, samples: counted });
}

/**
 * The tree (nodes in creation order, parents first) renumbered depth-first, children in creation
 * order, with totals and subtreeEnd: node n's subtree is [n, subtreeEnd[n]).
 */
function depthFirst({ parent, func, depth, self, sampleNode, samples }) {
  const count = parent.length;
  const kids = Array.from({ length: count }, () => []);
  for (let n = 1; n < count; n++) kids[parent[n]].push(n);
  const order = []; // new -> old
  const stack = [0];
  while (stack.length) {
    const n = stack.pop();
    order.push(n);
    for (let i = kids[n].length - 1; i >= 0; i--) stack.push(kids[n][i]);
  }
  const pos = new Int32Array(count); // old -> new
  order.forEach((old, i) => (pos[old] = i));
  const out = {
    parent: Int32Array.from(order, (o) => (o === 0 ? -1 : pos[parent[o]])),
    func: Int32Array.from(order, (o) => func[o]),
    depth: Int32Array.from(order, (o) => depth[o]),
    self: Float64Array.from(order, (o) => self[o]),
    total: new Float64Array(count),
    subtreeEnd: new Int32Array(count),
    count,
    sampleNode: sampleNode.map((n) => (n >= 0 ? pos[n] : n)),
    samples,
  };
  // children come after their parent: sum totals and subtree sizes from the last node back
  const size = new Int32Array(count).fill(1);
  for (let n = count - 1; n >= 0; n--) {
    out.total[n] += out.self[n];
    if (n > 0) {
      out.total[out.parent[n]] += out.total[n];
      size[out.parent[n]] += size[n];
    }
  }
  for (let n = 0; n < count; n++) out.subtreeEnd[n] = n + size[n];
  return out;
}

/** Sandwich of one function: callers (inverted, rooted at func) and callees (rooted at func). */
export function sandwich(ctx, opts, f) {
  const callees = analyze(ctx, {
    ...opts,
    invert: false,
    mapPath: (path) => {
      const i = path.lastIndexOf(f); // the innermost call: recursion merged into the root
      return i < 0 ? null : path.slice(i);
    },
  });
  const callers = analyze(ctx, {
    ...opts,
    invert: true,
    mapPath: (path) => {
      const i = path.indexOf(f); // the outermost call
      return i < 0 ? null : path.slice(0, i + 1);
    },
  });
  return { callers, callees };
}

