// @ts-check
// From a call node back to the bytes (pure functions, unit-tested): which frame of a sample a
// call node stands for, and which callchain slot of the sample's record holds its address.

/**
 * @typedef {{stackFrames: Int32Array, stackPrefixes: Int32Array, frameAddresses: BigUint64Array}} FrameColumns
 */

/**
 * Address of the original frame behind call node `node` in a sample whose stack is `stack`: the frame at the node's
 * depth when the tree is plain (no transforms, not inverted), else the leaf-most frame of the
 * node's function. null when none.
 * @param {{profile: FrameColumns, stackCanon: (stack: number) => number}} ctx
 * @param {{func: Int32Array, depth: Int32Array}} tree
 * @param {number} stack the sample's stack (Session.sampleStack; -1: none)
 * @param {number} node
 * @param {boolean} plain
 * @returns {bigint | null}
 */
export function frameAddressFor(ctx, tree, stack, node, plain) {
  const p = ctx.profile;
  const frames = [];
  let s = stack;
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

/**
 * The callchain slot (or ip field) of a sample record holding `address`, or null. A
 * `--call-graph dwarf` sample's user frames are found among its `unwound` field's frames:
 * the ip register, then the stack-copy slot that held each return address.
 * Field values are "0x…" or decimal text; addresses are exact (BigUint64Array).
 * @param {any[]} fields the record's fields (recordFieldsJson)
 * @param {bigint} address
 */
export function callchainSlot(fields, address) {
  /** @param {unknown} v */
  const same = (v) => {
    const m = /^(0x[0-9a-f]+|\d+)/i.exec(String(v));
    return !!m && BigInt(m[1]) === address;
  };
  const list = fields || [];
  const ci = list.findIndex((f) => f.name === 'callchain');
  if (ci >= 0 && list[ci].children) {
    const k = list[ci].children.findIndex((/** @type {any} */ c) => same(c.value));
    if (k >= 0) {
      const hit = list[ci].children[k];
      return { name: `callchain${hit.name}`, offset: Number(hit.offset), size: Number(hit.size), path: `${ci}.${k}` };
    }
  }
  const ui = list.findIndex((f) => f.name === 'unwound');
  if (ui >= 0 && list[ui].children) {
    const k = list[ui].children.findIndex((/** @type {any} */ c) => same(c.value) && Number(c.size) > 0);
    if (k >= 0) {
      const hit = list[ui].children[k];
      return { name: `unwound ${hit.name}`, offset: Number(hit.offset), size: Number(hit.size), path: `${ui}.${k}` };
    }
  }
  const ii = list.findIndex((f) => f.name === 'ip');
  if (ii >= 0 && same(list[ii].value)) return { name: 'ip', offset: Number(list[ii].offset), size: Number(list[ii].size), path: `${ii}` };
  return null;
}
