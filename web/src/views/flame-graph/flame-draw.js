// Canvas drawing and hit testing of a flame graph layout (see layoutFlame in worker/analysis.js).
// Top-down icicle: the root is the top row. Only boxes in the visible rows and wider
// than half a device pixel are drawn; subtrees of skipped boxes are skipped whole.

export const ROW_H = 18;

/** FNV-1a hash of a string -> 32-bit unsigned */
export function hashName(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Warm flame colour by name hash; [unknown] and the root are grey. */
export function colorFor(name, dark, isRoot) {
  if (isRoot) return dark ? 'hsl(220 10% 38%)' : 'hsl(220 12% 80%)';
  if (name === '[unknown]' || name === '') return dark ? 'hsl(0 0% 34%)' : 'hsl(0 0% 74%)';
  const h = hashName(name);
  const hue = (h % 55) + 2; // red..yellow
  const sat = 65 + ((h >>> 8) % 25);
  const light = dark ? 34 + ((h >>> 16) % 14) : 58 + ((h >>> 16) % 16);
  return `hsl(${hue} ${sat}% ${light}%)`;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {{layout: any, nameOf: (i: number) => string, zoom: number, hover: number,
 *   width: number, height: number, scrollTop: number, dpr: number, dark: boolean, font: string,
 *   textColor: string, dimText: string}} o
 */
export function drawFlame(ctx, o) {
  const { layout, nameOf, zoom, hover, width, height, scrollTop, dpr, dark } = o;
  const W = Math.round(width * dpr);
  const H = Math.round(height * dpr);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, W, H);
  if (!layout || layout.func.length === 0) return;
  const { depth, start, total_, end } = layout;
  const z = zoom >= 0 && zoom < depth.length ? zoom : 0;
  const zStart = start[z];
  const zTotal = total_[z] || 1;
  const rowH = ROW_H * dpr;
  const firstRow = Math.floor(scrollTop / ROW_H);
  const lastRow = Math.ceil((scrollTop + height) / ROW_H);
  const yOf = (d) => Math.round(d * rowH - scrollTop * dpr);
  ctx.font = o.font;
  ctx.textBaseline = 'middle';
  o.matchesAny = !!(o.matches && o.matches.indexOf(1) >= 0);
  const ellipsisW = ctx.measureText('…').width;

  const box = (i, x0, x1, dim) => {
    const d = depth[i];
    if (d < firstRow || d > lastRow) return;
    const y0 = yOf(d);
    const y1 = yOf(d + 1) - Math.max(1, Math.round(dpr));
    const w = x1 - x0 - (x1 - x0 > 2 * dpr ? Math.max(1, Math.round(dpr)) : 0);
    if (w <= 0) return;
    const name = nameOf(i);
    const searching = o.matches && o.matches.some ? o.matchesAny : false;
    const hit = searching && i > 0 && o.matches[layout.func[i]] === 1;
    ctx.globalAlpha = dim ? 0.55 : searching && !hit ? 0.3 : 1;
    ctx.fillStyle = hit ? (dark ? 'hsl(200 80% 45%)' : 'hsl(200 85% 62%)') : colorFor(name, dark, i === 0);
    ctx.fillRect(x0, y0, w, y1 - y0);
    if (o.marked && o.marked.has(i)) {
      ctx.globalAlpha = 1;
      ctx.strokeStyle = dark ? '#7fd4ff' : '#0a58ca';
      ctx.lineWidth = Math.max(2, Math.round(2 * dpr));
      ctx.strokeRect(x0 + ctx.lineWidth / 2, y0 + ctx.lineWidth / 2, w - ctx.lineWidth, y1 - y0 - ctx.lineWidth);
    }
    if (i === o.selected) {
      ctx.globalAlpha = 1;
      ctx.strokeStyle = o.textColor;
      ctx.lineWidth = Math.max(2, Math.round(2 * dpr));
      ctx.setLineDash([4 * dpr, 2 * dpr]);
      ctx.strokeRect(x0 + ctx.lineWidth / 2, y0 + ctx.lineWidth / 2, w - ctx.lineWidth, y1 - y0 - ctx.lineWidth);
      ctx.setLineDash([]);
    }
    if (i === hover) {
      ctx.globalAlpha = 1;
      ctx.strokeStyle = o.textColor;
      ctx.lineWidth = Math.max(1, Math.round(dpr));
      ctx.strokeRect(x0 + ctx.lineWidth / 2, y0 + ctx.lineWidth / 2, w - ctx.lineWidth, y1 - y0 - ctx.lineWidth);
    }
    const pad = 3 * dpr;
    const avail = w - 2 * pad;
    if (avail > 6 * dpr) {
      const label = fitText(ctx, shortName(name), avail, ellipsisW);
      if (label) {
        ctx.globalAlpha = 1;
        ctx.fillStyle = dark ? '#f3f3f3' : '#1b1b1b';
        ctx.save();
        ctx.beginPath();
        ctx.rect(x0, y0, w, y1 - y0);
        ctx.clip();
        ctx.fillText(label, x0 + pad, (y0 + y1) / 2);
        ctx.restore();
      }
    }
    ctx.globalAlpha = 1;
  };

  // ancestors of the zoomed node: full width, dimmed
  if (z > 0) {
    let i = 0;
    while (i < z) {
      box(i, 0, W, true);
      // descend towards z: next child containing z
      let c = i + 1;
      while (c < depth.length && !(c <= z && z < end[c])) c = end[c];
      if (c >= depth.length || c === i) break;
      i = c;
    }
  }

  const scale = W / zTotal;
  const minPx = 0.5;
  let i = z;
  const stop = end[z];
  while (i < stop) {
    const d = depth[i];
    const x0f = (start[i] - zStart) * scale;
    const wf = total_[i] * scale;
    if (wf < minPx || d > lastRow) {
      i = end[i]; // too narrow, or deeper than the view: skip its subtree
      continue;
    }
    const x0 = Math.round(x0f);
    const x1 = Math.round(x0f + wf);
    if (x1 > x0) box(i, x0, x1, false);
    i++;
  }
}

/** Box label: "/opt/x/calltree+0x1164" -> "calltree+0x1164" (the tooltip keeps the full name). */
export function shortName(name) {
  if (name.length < 2 || name[0] === '[') return name;
  const plus = name.lastIndexOf('+');
  const head = plus > 0 ? name.slice(0, plus) : name;
  const slash = head.lastIndexOf('/');
  return slash >= 0 && slash < head.length - 1 ? name.slice(slash + 1) : name;
}

/** Longest prefix of `s` (with an ellipsis) that fits `avail` px, or '' */
function fitText(ctx, s, avail, ellipsisW) {
  if (!s) return '';
  const full = ctx.measureText(s).width;
  if (full <= avail) return s;
  if (avail < ellipsisW * 3) return '';
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(s.slice(0, mid)).width + ellipsisW <= avail) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? s.slice(0, lo) + '…' : '';
}

/**
 * Node under (x, y) in CSS px of the canvas (y includes the scroll offset), or -1.
 */
export function hitTest(layout, zoom, width, x, y) {
  if (!layout || layout.func.length === 0) return -1;
  const { depth, start, total_, end } = layout;
  const d = Math.floor(y / ROW_H);
  if (d < 0) return -1;
  const z = zoom >= 0 && zoom < depth.length ? zoom : 0;
  if (d < depth[z]) {
    // an ancestor row
    let i = 0;
    while (i < z) {
      if (depth[i] === d) return i;
      let c = i + 1;
      while (c < depth.length && !(c <= z && z < end[c])) c = end[c];
      if (c >= depth.length) break;
      i = c;
    }
    return -1;
  }
  const scale = width / (total_[z] || 1);
  const value = start[z] + x / scale;
  let i = z;
  const stop = end[z];
  while (i < stop) {
    if (value >= start[i] && value < start[i] + total_[i]) {
      if (depth[i] === d) return i;
      i++; // descend
    } else {
      i = end[i]; // next sibling
    }
  }
  return -1;
}

/** Path of node i from the root (indices). */
export function pathTo(layout, i) {
  const { end } = layout;
  const out = [];
  let cur = 0;
  if (i < 0) return out;
  out.push(0);
  while (cur !== i) {
    let c = cur + 1;
    while (c < end[cur] && !(c <= i && i < end[c])) c = end[c];
    if (c >= end[cur]) break;
    out.push(c);
    cur = c;
  }
  return out;
}
