// Drawing the flame chart on its canvas (a pure function of what flame-chart.jsx computed):
// per lane a title, its markers (diamonds in the title row), then the stacks: exact calls
// (tracers) or the samples' call nodes (samplers); the sample of the selected record; the
// time ruler and the selected range.
import { formatInt, formatTime, plural } from '../../lib/format.js';
import { colorFor, shortName } from '../flame-graph/flame-draw.js';
import { laneActivity, laneBoxes, laneSamples, lastAtOrBefore, niceTicks, rowBoxes, stripCells } from './chart-model.js';

export const RULER_H = 20;
export const TITLE_H = 15; // lane title
export const MARK_H = 18; // markers row
export const HEAD_H = TITLE_H + MARK_H;
export const ROW_H = 16;
export const STRIP_H = 8; // a collapsed lane's activity strip

/**
 * A lane's name: "CPU n", or the thread's "comm pid/tid".
 * @param {{thread: number}} lane
 * @param {boolean} byCpu
 * @param {any[]} threads
 */
export function laneName(lane, byCpu, threads) {
  if (byCpu) return `CPU ${lane.thread}`;
  const th = lane.thread >= 0 ? threads[lane.thread] : null;
  return th ? `${String(th.name ?? '')} ${th.pid}/${th.tid}` : 'no thread';
}

/**
 * A ruler label for a tick `value` (ns from the time zero) at tick spacing `step`: in the unit of
 * the step (s, ms, µs, ns) with just the decimals the step needs ("0.4 s", "250 ms", "12.5 µs").
 * @param {number} value
 * @param {number} step
 */
export function tickLabel(value, step) {
  const [unit, name] = step >= 1e8 ? [1e9, 's'] : step >= 1e5 ? [1e6, 'ms'] : step >= 1e2 ? [1e3, 'µs'] : [1, 'ns'];
  const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(step / unit) - 1e-9)));
  return `${(value / unit).toFixed(decimals)} ${name}`;
}

// core markers: colour by kind name (perf record names, jitdump and XRay kinds)
const KIND_COLORS = {
  MMAP: '#8a5cc8', MMAP2: '#8a5cc8', COMM: '#2f9e44', FORK: '#37b24d', EXIT: '#c92a2a', LOST: '#e8590c', LOST_SAMPLES: '#e8590c',
  THROTTLE: '#f08c00', UNTHROTTLE: '#f08c00', SWITCH: '#1971c2', SWITCH_CPU_WIDE: '#1971c2', KSYMBOL: '#862e9c', BPF_EVENT: '#862e9c',
  'code load': '#0c8599', 'code move': '#66a80f', 'custom event': '#d6336c', 'typed event': '#ae3ec9', 'wall time': '#868e96',
};
/** @param {string} kindName */
const markerColor = (kindName) => KIND_COLORS[kindName] || '#888';

/** @param {number} ns */
export const fmtTime = formatTime;

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {any} s what to draw: {dpr, fg, font, size:{w,h}, dark, geo:{t0,t1,noTime,zero}, lanes (shown, in order), collapsed (lane keys),
 *   view:{t0,t1}, scrollTop,
 *   laneTop, laneRows, markersByLane, byCpu, threads, markers, flameBoxes (the worker's boxes of exact calls and their
 *   rows: {boxes, byRow}, or null while they are asked for), strips (a tracer's lane (CallLane) -> the worker's
 *   last activity of its calls {q: {t0, t1}, act}, or undefined while it is asked for), tree, sampleNode, names,
 *   matches, hoverNode, selectedNode, markedSample, markedAt ({sample, time, thread}: where a tracer's lane marks
 *   it), range:{t0,t1}|null}
 */
export function drawChart(ctx, s) {
  const { dpr, fg, font, size, dark, geo, lanes, collapsed, view, scrollTop, laneTop, laneRows, markersByLane, byCpu, threads, markers, flameBoxes, strips, tree, sampleNode, names, matches, hoverNode, selectedNode, markedSample, markedAt, range } = s;
  const xOf = (/** @type {number} */ t) => ((t - view.t0) / (view.t1 - view.t0)) * size.w;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, size.w, size.h);
  ctx.font = font;
  ctx.textBaseline = 'middle';
  const searching = matches && matches.indexOf(1) >= 0;
  const cols = Math.max(1, Math.floor(size.w));
  const colors = new Map(); // func -> fill colour (name hash), per draw
  // lanes
  lanes.forEach((/** @type {any} */ lane, /** @type {number} */ li) => {
    const top = laneTop[li] - scrollTop;
    const bottom = laneTop[li + 1] - scrollTop;
    if (bottom < RULER_H || top > size.h) return;
    // title
    ctx.fillStyle = dark ? '#262a31' : '#eceff4';
    ctx.fillRect(0, top, size.w, HEAD_H);
    ctx.fillStyle = fg;
    const title = laneName(lane, byCpu, threads);
    const rows = laneRows[li];
    const ml = markersByLane[li];
    const folded = collapsed.has(lane.key);
    const what = rows || lane.calls
      ? `${plural(laneSamples(lane), 'call')} (exact enter/exit times)`
      : lane.samples.length
        ? `${plural(lane.count ?? lane.samples.length, 'sample')} (all events, before filters)`
        : `${plural(ml.idx.length, 'marker')}, no samples`;
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
    ctx.fillText(laneTitle + (folded ? ' · collapsed' : ''), 6, top + TITLE_H / 2 + 1);
    if (folded) {
      // collapsed: one strip of the lane's activity (samples per column, darker = more); a tracer's lane
      // holds no calls: the worker counts them (its last answer, placed in this view)
      const strip = lane.calls ? strips?.(lane) : { q: view, act: laneActivity(lane, view.t0, view.t1, cols, null) };
      const y = top + HEAD_H + 1;
      for (const cell of strip ? stripCells(strip.act, strip.q, view, size.w) : []) {
        const a = 0.25 + 0.75 * cell.v;
        ctx.fillStyle = dark ? `rgba(255,140,60,${a})` : `rgba(214,90,20,${a})`;
        ctx.fillRect(cell.x, y, cell.w, STRIP_H);
      }
      return;
    }
    // marker-only lane (a jit dump alone): how the markers accumulate over time (the code cache filling)
    if (!rows && !laneSamples(lane) && ml.idx.length && !geo.noTime) {
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
      // (the worker's boxes of this lane's rows, for the view they were asked for: drawn in this one)
      boxes = [];
      const fb = flameBoxes;
      rows.forEach((/** @type {number} */ row, /** @type {number} */ d) => {
        const range = fb?.byRow.get(row);
        if (!range) return;
        for (const b of rowBoxes(fb.boxes, range, view.t0, view.t1, cols)) boxes.push({ depth: d + 1, node: -1, fn: fb.boxes.func[b.k], x0: b.x0, x1: b.x1 });
      });
    } else boxes = lane.calls ? [] : laneBoxes(lane, sampleNode, tree, view.t0, view.t1, cols, lane.interval.ns); // (a tracer's lane of no thread: no rows)
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
    lanes.forEach((/** @type {any} */ lane, /** @type {number} */ li) => {
      let t;
      if (lane.calls) {
        // (a tracer's lane holds no samples: the sample's own time and thread lane, from the worker)
        if (!markedAt || markedAt.sample !== markedSample || markedAt.thread !== lane.thread) return;
        t = markedAt.time;
      } else {
        const k = lane.samples.indexOf(markedSample);
        if (k < 0) return;
        t = lane.times[k];
      }
      const x = xOf(t);
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
  // ticks on round values (1/2/5 x 10^n) from the one time zero (geo.zero), about one per 90 px
  const { step, ticks } = niceTicks(view.t0, view.t1, geo.zero, Math.max(2, Math.floor(size.w / 90)));
  const labels = [];
  for (const tk of ticks) {
    const x = xOf(tk.t);
    ctx.fillRect(x, RULER_H - 5, 1, 5);
    const label = geo.noTime ? `#${formatInt(Math.round(tk.value))}` : tickLabel(tk.value, step);
    labels.push(label);
    ctx.fillText(label, x + 3, RULER_H / 2);
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
  return { ticks: labels };
}

/**
 * The overview track: one row band per lane (several lanes share a pixel row when there are more
 * lanes than rows, the busiest of them drawn), darker = more samples; the view's window outlined.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{dpr: number, w: number, h: number, dark: boolean, activity: Float32Array[], geo: {t0: number, t1: number}, view: {t0: number, t1: number}}} s
 */
export function drawOverview(ctx, s) {
  const { dpr, w, h, dark, activity, geo, view } = s;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = dark ? '#1b1e23' : '#f6f7f9';
  ctx.fillRect(0, 0, w, h);
  const n = activity.length;
  if (!n) return;
  const cols = activity[0].length;
  let mx = 0;
  for (const a of activity) for (let c = 0; c < cols; c++) if (a[c] > mx) mx = a[c];
  if (!mx) return;
  const rowH = h / n;
  const colW = w / cols;
  for (let li = 0; li < n; li++) {
    const y0 = Math.floor(li * rowH);
    const y1 = Math.max(y0 + 1, Math.floor((li + 1) * rowH) - (rowH >= 3 ? 1 : 0));
    const a = activity[li];
    for (let c = 0; c < cols; c++) {
      if (!a[c]) continue;
      const v = Math.sqrt(a[c] / mx); // sqrt: quiet threads stay visible next to a busy one
      ctx.fillStyle = dark ? `rgba(255,140,60,${0.2 + 0.8 * v})` : `rgba(214,90,20,${0.2 + 0.8 * v})`;
      ctx.fillRect(c * colW, y0, Math.max(1, colW), y1 - y0);
    }
  }
  const span = geo.t1 - geo.t0;
  if (span > 0 && (view.t0 > geo.t0 || view.t1 < geo.t1)) {
    const a = ((view.t0 - geo.t0) / span) * w;
    const b = ((view.t1 - geo.t0) / span) * w;
    ctx.strokeStyle = dark ? '#7fd4ff' : '#0a58ca';
    ctx.lineWidth = 1.5;
    ctx.strokeRect(a + 0.75, 0.75, Math.max(2, b - a - 1.5), h - 1.5);
  }
}
