// Drawing the flame chart on its canvas (a pure function of what flame-chart.jsx computed):
// per lane a title, its markers (diamonds in the title row), then the stacks: exact calls
// (tracers) or the samples' call nodes (samplers); the sample of the selected record; the
// time ruler and the selected range.
import { formatInt } from '../../lib/format.js';
import { colorFor, shortName } from '../flame-graph/flame-draw.js';
import { intervalBoxes, laneBoxes, lastAtOrBefore } from './chart-model.js';

export const RULER_H = 20;
export const TITLE_H = 15; // lane title
export const MARK_H = 18; // markers row
export const HEAD_H = TITLE_H + MARK_H;
export const ROW_H = 16;

// core markers: colour by kind name (perf record names, jitdump and XRay kinds)
const KIND_COLORS = {
  MMAP: '#8a5cc8', MMAP2: '#8a5cc8', COMM: '#2f9e44', FORK: '#37b24d', EXIT: '#c92a2a', LOST: '#e8590c', LOST_SAMPLES: '#e8590c',
  THROTTLE: '#f08c00', UNTHROTTLE: '#f08c00', SWITCH: '#1971c2', SWITCH_CPU_WIDE: '#1971c2', KSYMBOL: '#862e9c', BPF_EVENT: '#862e9c',
  'code load': '#0c8599', 'code move': '#66a80f', 'custom event': '#d6336c', 'typed event': '#ae3ec9', 'wall time': '#868e96',
};
/** @param {string} kindName */
const markerColor = (kindName) => KIND_COLORS[kindName] || '#888';

/** @param {number} ns */
export function fmtTime(ns) {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${(ns / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (a >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${Math.round(ns)} ns`;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {any} s what to draw: {dpr, fg, font, size:{w,h}, dark, geo:{lanes,t0,t1,noTime}, view:{t0,t1}, scrollTop,
 *   laneTop, laneRows, markersByLane, byCpu, threads, markers, intervals, tree, sampleNode, names, matches,
 *   hoverNode, selectedNode, markedSample, range:{t0,t1}|null}
 */
export function drawChart(ctx, s) {
  const { dpr, fg, font, size, dark, geo, view, scrollTop, laneTop, laneRows, markersByLane, byCpu, threads, markers, intervals, tree, sampleNode, names, matches, hoverNode, selectedNode, markedSample, range } = s;
  const xOf = (/** @type {number} */ t) => ((t - view.t0) / (view.t1 - view.t0)) * size.w;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, size.w, size.h);
  ctx.font = font;
  ctx.textBaseline = 'middle';
  const searching = matches && matches.indexOf(1) >= 0;
  const cols = Math.max(1, Math.floor(size.w));
  const colors = new Map(); // func -> fill colour (name hash), per draw
  // lanes
  geo.lanes.forEach((lane, li) => {
    const top = laneTop[li] - scrollTop;
    const bottom = laneTop[li + 1] - scrollTop;
    if (bottom < RULER_H || top > size.h) return;
    // title
    const th = !byCpu && lane.thread >= 0 ? threads[lane.thread] : null;
    ctx.fillStyle = dark ? '#262a31' : '#eceff4';
    ctx.fillRect(0, top, size.w, HEAD_H);
    ctx.fillStyle = fg;
    const title = byCpu ? `CPU ${lane.thread}` : th ? `${String(th.name ?? '')} ${th.pid}/${th.tid}` : 'no thread';
    const rows = laneRows[li];
    const ml = markersByLane[li];
    const what = rows
      ? `${formatInt(lane.samples.length)} calls (exact enter/exit times)`
      : lane.samples.length
        ? `${formatInt(lane.samples.length)} samples (all events, before filters)`
        : `${formatInt(ml.idx.length)} markers, no samples`;
    const laneTitle = `${title} · ${what}`;
    // markers in the title row (only those in view: sorted by time)
    const pad = ((view.t1 - view.t0) / Math.max(1, size.w)) * 5;
    let lastMx = -Infinity;
    for (let j = geo.noTime ? 0 : Math.max(0, lastAtOrBefore(ml.times, view.t0 - pad)); j < ml.idx.length; j++) {
      const k = ml.idx[j];
      const x = geo.noTime ? 2 : xOf(ml.times[j]);
      if (x > size.w + 4) break;
      if (x < -4 || x - lastMx < 1) continue;
      lastMx = x;
      ctx.fillStyle = markerColor(markers.kindNames[markers.kind[k]]);
      ctx.beginPath();
      const my = top + TITLE_H;
      ctx.moveTo(x, my + 3);
      ctx.lineTo(x + 4, my + MARK_H / 2);
      ctx.lineTo(x, my + MARK_H - 3);
      ctx.lineTo(x - 4, my + MARK_H / 2);
      ctx.closePath();
      ctx.fill();
    }
    // the lane title, on its own line above the markers
    ctx.fillStyle = fg;
    ctx.fillText(laneTitle, 6, top + TITLE_H / 2 + 1);
    // marker-only lane (a jit dump alone): how the markers accumulate over time (the code cache filling)
    if (!rows && !lane.samples.length && ml.idx.length && !geo.noTime) {
      const y0 = top + HEAD_H + 3 * ROW_H - 2;
      const hgt = 3 * ROW_H - 6;
      const n = ml.idx.length;
      ctx.strokeStyle = dark ? '#3bc9db' : '#0c8599';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      let started = false;
      let lastX = -Infinity;
      for (let j = 0; j < n; j++) {
        const x = Math.max(0, Math.min(size.w, xOf(ml.times[j])));
        if (x - lastX < 0.5 && j < n - 1) continue;
        lastX = x;
        const y = y0 - ((j + 1) / n) * hgt;
        if (!started) {
          ctx.moveTo(x, y0);
          started = true;
        }
        ctx.lineTo(x, y);
      }
      ctx.lineTo(size.w, y0 - hgt);
      ctx.stroke();
      ctx.fillStyle = fg;
      ctx.fillText(`cumulative: ${formatInt(n)} markers`, 6, y0 - hgt + 6);
    }
    // stacks: exact calls (tracers) or the samples' call nodes (samplers)
    const scale = size.w / cols;
    let boxes;
    if (rows) {
      boxes = [];
      const iv = intervals;
      rows.forEach((row, d) => {
        for (const b of intervalBoxes(row, view.t0, view.t1, cols)) boxes.push({ depth: d + 1, node: -1, fn: iv.func[b.i], x0: b.x0, x1: b.x1 });
      });
    } else boxes = laneBoxes(lane, sampleNode, tree, view.t0, view.t1, cols, lane.gap);
    for (const b of boxes) {
      const y = top + HEAD_H + (b.depth - 1) * ROW_H;
      if (y + ROW_H < RULER_H || y > size.h) continue;
      const x0 = b.x0 * scale;
      const w = (b.x1 - b.x0) * scale;
      const fn = rows ? b.fn : tree.func[b.node];
      const hit = searching && matches[fn] === 1;
      ctx.globalAlpha = searching && !hit ? 0.3 : 1;
      let col = colors.get(fn);
      if (col === undefined) {
        col = colorFor(String(names[fn] ?? '[unknown]'), dark, false);
        colors.set(fn, col);
      }
      ctx.fillStyle = hit ? (dark ? 'hsl(200 80% 45%)' : 'hsl(200 85% 62%)') : col;
      ctx.fillRect(x0, y, Math.max(1, w - (w > 3 ? 1 : 0)), ROW_H - 1);
      ctx.globalAlpha = 1;
      if (b.node >= 0 && b.node === hoverNode) {
        ctx.strokeStyle = fg;
        ctx.lineWidth = 1;
        ctx.strokeRect(x0 + 0.5, y + 0.5, Math.max(1, w - 1), ROW_H - 2);
      }
      if (b.node >= 0 && b.node === selectedNode) {
        ctx.strokeStyle = fg;
        ctx.lineWidth = 2;
        ctx.setLineDash([4, 2]);
        ctx.strokeRect(x0 + 1, y + 1, Math.max(1, w - 2), ROW_H - 3);
        ctx.setLineDash([]);
      }
      if (w > 30) {
        const nm = String(names[fn] ?? '[unknown]');
        ctx.save();
        ctx.beginPath();
        ctx.rect(x0, y, w - 1, ROW_H);
        ctx.clip();
        ctx.fillStyle = dark ? '#f3f3f3' : '#1b1b1b';
        ctx.fillText(shortName(nm), x0 + 3, y + ROW_H / 2);
        ctx.restore();
      }
    }
  });
  // the sample of the selected byte/record
  if (markedSample >= 0) {
    geo.lanes.forEach((lane, li) => {
      const k = lane.samples.indexOf(markedSample);
      if (k < 0) return;
      const x = xOf(lane.times[k]);
      const top = laneTop[li] - scrollTop;
      ctx.strokeStyle = dark ? '#7fd4ff' : '#0a58ca';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, laneTop[li + 1] - scrollTop - 6);
      ctx.stroke();
    });
  }
  // ruler + range
  ctx.fillStyle = dark ? '#1e2126' : '#f1f2f5';
  ctx.fillRect(0, 0, size.w, RULER_H);
  ctx.fillStyle = fg;
  const span = view.t1 - view.t0;
  const step = Math.pow(10, Math.floor(Math.log10(span / 6 || 1)));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => span / s <= 8) || step * 10;
  for (let t = Math.ceil(view.t0 / nice) * nice; t <= view.t1; t += nice) {
    const x = xOf(t);
    ctx.fillRect(x, RULER_H - 5, 1, 5);
    ctx.fillText(geo.noTime ? `#${Math.round(t)}` : fmtTime(t - geo.t0), x + 3, RULER_H / 2);
  }
  const r = range;
  if (r) {
    ctx.fillStyle = dark ? 'rgba(91,147,240,0.18)' : 'rgba(47,111,223,0.14)';
    const a = xOf(r.t0);
    const b = xOf(r.t1);
    ctx.fillRect(a, 0, Math.max(1, b - a), size.h);
    ctx.fillStyle = dark ? '#5b93f0' : '#2f6fdf';
    ctx.fillRect(a, 0, 1, size.h);
    ctx.fillRect(b, 0, 1, size.h);
  }
}
