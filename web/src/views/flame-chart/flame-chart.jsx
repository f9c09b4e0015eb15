// Flame chart (time order): one lane per thread, samples as stacks over time (the
// worker's call nodes of the filtered, transformed samples), a marker row per lane for the
// records that explain a profile (COMM, EXIT, MMAP, LOST, THROTTLE, SWITCH…), clickable
// through to their bytes. Wheel or + - 0 zoom, drag or arrows/WASD pan, drag on the ruler
// selects a time range (applied as a filter).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useDark } from '../../lib/theme.js';
import { fitCanvas, useElementSize } from '../../lib/element-size.js';
import { colorFor, shortName } from '../flame-graph/flame-draw.js';
import { ancestorAt, intervalAt, intervalBoxes, intervalRows, laneBoxes, lastAtOrBefore, sampleAt, sortMarkers, typicalGap } from './chart-model.js';
import { fallbackLabel } from '../../lib/records.js';
import { formatInt } from '../../lib/format.js';
import './flame-chart.css';

const RULER_H = 20;
const TITLE_H = 15; // lane title
const MARK_H = 18; // markers row
const HEAD_H = TITLE_H + MARK_H;
const ROW_H = 16;
const MARKER_COLORS = { 1: '#8a5cc8', 10: '#8a5cc8', 3: '#2f9e44', 4: '#c92a2a', 2: '#e8590c', 13: '#e8590c', 5: '#f08c00', 6: '#f08c00', 14: '#1971c2', 15: '#1971c2' };
// core markers: colour by kind name (perf record names, jitdump and XRay kinds)
const KIND_COLORS = {
  MMAP: '#8a5cc8', MMAP2: '#8a5cc8', COMM: '#2f9e44', FORK: '#37b24d', EXIT: '#c92a2a', LOST: '#e8590c', LOST_SAMPLES: '#e8590c',
  THROTTLE: '#f08c00', UNTHROTTLE: '#f08c00', SWITCH: '#1971c2', SWITCH_CPU_WIDE: '#1971c2', KSYMBOL: '#862e9c', BPF_EVENT: '#862e9c',
  'code load': '#0c8599', 'code move': '#66a80f', 'custom event': '#d6336c', 'typed event': '#ae3ec9', 'wall time': '#868e96',
};
const markerColor = (markers, k, types, rows) => (markers.kindNames ? KIND_COLORS[markers.kindNames[markers.kind[k]]] : MARKER_COLORS[types[rows[k]]]) || '#888';

function fmtTime(ns) {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${(ns / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (a >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${Math.round(ns)} ns`;
}

/**
 * @param {{doc:any, analysis:any, matches?:Uint8Array|null, markedSample?:number, selectedNode?:number,
 *   onSelectNode?:(node:number, sample:number)=>void, onSelectRecord?:(row:number)=>void,
 *   onRange?:(t0:number,t1:number)=>void, range?:{t0:number,t1:number}|null, benchRef?:any}} props
 */
export function FlameChart({ doc, analysis, matches, markedSample = -1, selectedNode = -1, onSelectNode, onSelectRecord, onRange, range, benchRef, apiRef, hoverNode = -1, onHoverNode }) {
  const threads = doc.threads || [];
  const markers = doc.markers || { rows: new Int32Array(0), time: new Float64Array(0), thread: new Int32Array(0) };
  const [byCpu, setByCpu] = useState(false);
  const cpuLanes = doc.cpuLanes || [];
  const lanes = byCpu && cpuLanes.length ? cpuLanes : doc.lanes || [];
  const tree = analysis.tree;
  const sampleNode = analysis.sampleNode;

  // time extent; files without times (all 0) are drawn in sample order
  const geo = useMemo(() => {
    let lo = Infinity;
    let hi = -Infinity;
    // a file without samples (a jit dump alone: its code loads) gets a lane per thread of its markers
    let all = lanes;
    if (!byCpu && markers.rows.length && lanes.length === 0) {
      const have = new Set(lanes.map((l) => l.thread));
      const extra = new Set();
      for (let k = 0; k < markers.thread.length; k++) {
        const th = markers.thread[k];
        if (!have.has(th)) extra.add(th);
      }
      if (extra.size) {
        all = lanes.concat([...extra].sort((a, b) => a - b).map((thread) => ({ thread, samples: new Int32Array(0), times: new Float64Array(0) })));
      }
    }
    if (!byCpu) {
      for (let k = 0; k < markers.time.length; k++) {
        const t = markers.time[k];
        if (t > 0) {
          if (t < lo) lo = t;
          if (t > hi) hi = t;
        }
      }
    }
    for (const l of all) {
      if (l.times.length) {
        lo = Math.min(lo, l.times[0]);
        hi = Math.max(hi, l.times[l.times.length - 1]);
      }
    }
    const iv = doc.intervals;
    if (iv && !byCpu) {
      for (let i = 0; i < iv.start.length; i++) {
        if (iv.start[i] < lo) lo = iv.start[i];
        if (iv.end[i] > hi) hi = iv.end[i];
      }
    }
    const noTime = !(hi > lo);
    const ls = all.map((l) => {
      const times = noTime ? Float64Array.from(l.samples) : l.times;
      return { ...l, times, gap: typicalGap(times) };
    });
    if (noTime) {
      lo = 0;
      hi = Math.max(1, ...all.map((l) => (l.samples.length ? l.samples[l.samples.length - 1] + 1 : 1)));
    }
    const maxGap = Math.max(...ls.map((l) => l.gap), 1e-9);
    return { lanes: ls, t0: lo, t1: hi + (all.some((l) => l.samples.length) ? maxGap : (hi - lo) * 0.01 || 1), noTime };
  }, [doc, lanes, byCpu, markers]);

  // exact calls per lane and depth (XRay); sample lanes draw the analysis' call nodes instead
  const laneRows = useMemo(
    () => geo.lanes.map((l) => (doc.intervals && !byCpu && l.thread >= 0 ? intervalRows(doc.intervals, l.thread) : null)),
    [geo, doc, byCpu],
  );

  // per-lane depth (of the current analysis)
  const laneDepth = useMemo(() => {
    return geo.lanes.map((l, li) => {
      if (laneRows[li] && laneRows[li].length) return laneRows[li].length;
      if (!l.samples.length) return 3; // marker-only lane: a cumulative count of its markers
      let d = 0;
      for (let k = 0; k < l.samples.length; k++) {
        const n = sampleNode[l.samples[k]];
        if (n >= 0 && tree.depth[n] > d) d = tree.depth[n];
      }
      return d;
    });
  }, [geo, analysis, laneRows]);

  const laneTop = useMemo(() => {
    const tops = [];
    let y = RULER_H;
    geo.lanes.forEach((l, i) => {
      tops.push(y);
      y += HEAD_H + Math.max(1, laneDepth[i]) * ROW_H + 6;
    });
    tops.push(y);
    return tops;
  }, [geo, laneDepth]);

  const markersByLane = useMemo(() => {
    if (byCpu) return geo.lanes.map(() => ({ idx: new Int32Array(0), times: new Float64Array(0) })); // markers carry a thread: shown in the thread lanes
    const byThread = new Map();
    const byPid = new Map();
    geo.lanes.forEach((l, i) => {
      byThread.set(l.thread, i);
      const pid = l.thread >= 0 ? threads[l.thread]?.pid : undefined;
      if (pid != null && !byPid.has(pid)) byPid.set(pid, i);
    });
    const out = geo.lanes.map(() => []);
    for (let k = 0; k < markers.rows.length; k++) {
      const th = markers.thread[k];
      let li = byThread.get(th);
      // a thread without samples: the first lane of its process, else the first lane
      if (li === undefined) li = (th >= 0 ? byPid.get(threads[th]?.pid) : undefined) ?? 0;
      if (out[li]) out[li].push(k);
    }
    // sorted by time (no time: drawn at the start) so a draw visits only the markers in view
    const eff = Float64Array.from(markers.time, (t) => (Number.isNaN(t) || t === 0 ? geo.t0 : t));
    return out.map((list) => sortMarkers(list, eff));
  }, [geo, markers, byCpu]);

  const [view, setView] = useState({ t0: geo.t0, t1: geo.t1 });
  useEffect(() => setView({ t0: geo.t0, t1: geo.t1 }), [geo]);
  const scrollRef = useRef(null);
  const canvasRef = useRef(null);
  const tipRef = useRef(null);
  const size = useElementSize(scrollRef);
  const [scrollTop, setScrollTop] = useState(0);
  const dark = useDark();
  const [drag, setDrag] = useState(null); // {kind:'pan'|'range', x0, t0, t1}
  const [hover, setHover] = useState(null);


  const xOf = (t) => ((t - view.t0) / (view.t1 - view.t0)) * size.w;
  const tOf = (x) => view.t0 + (x / size.w) * (view.t1 - view.t0);
  const name = (n) => String(analysis.names[tree.func[n]] ?? '[unknown]');

  const draw = useCallback(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const t0p = performance.now();
    const fit = fitCanvas(canvas, size);
    if (!fit) return;
    const { ctx, dpr, cs } = fit;
    const fg = cs.color || '#000';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size.w, size.h);
    ctx.font = `11px ${cs.fontFamily || 'sans-serif'}`;
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
        ctx.fillStyle = markerColor(markers, k, doc.records.types, markers.rows);
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
        const iv = doc.intervals;
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
          col = colorFor(String(analysis.names[fn] ?? '[unknown]'), dark, false);
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
          const nm = String(analysis.names[fn] ?? '[unknown]');
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
    const r = drag && drag.kind === 'range' ? { t0: Math.min(drag.t0, drag.t1), t1: Math.max(drag.t0, drag.t1) } : range;
    if (r) {
      ctx.fillStyle = dark ? 'rgba(91,147,240,0.18)' : 'rgba(47,111,223,0.14)';
      const a = xOf(r.t0);
      const b = xOf(r.t1);
      ctx.fillRect(a, 0, Math.max(1, b - a), size.h);
      ctx.fillStyle = dark ? '#5b93f0' : '#2f6fdf';
      ctx.fillRect(a, 0, 1, size.h);
      ctx.fillRect(b, 0, 1, size.h);
    }
    const ms = performance.now() - t0p;
    canvas.dataset.drawMs = ms.toFixed(2); // read by the benchmark (e2e/bench.spec.js)
    if (benchRef) benchRef.current = ms;
  }, [geo, laneTop, laneDepth, laneRows, view, size, scrollTop, dark, analysis, matches, markedSample, selectedNode, drag, range, markersByLane, hoverNode]);

  useLayoutEffect(() => draw(), [draw]);

  const zoomBy = (f, atX = size.w / 2) => {
    const t = tOf(atX);
    const span = Math.max((view.t1 - view.t0) * f, 1e-6 * (geo.t1 - geo.t0) || 1e-9);
    const full = geo.t1 - geo.t0;
    const s = Math.min(span, full);
    let a = t - ((atX / size.w) * s);
    a = Math.max(geo.t0, Math.min(a, geo.t1 - s));
    setView({ t0: a, t1: a + s });
  };
  const panBy = (frac) => {
    const s = view.t1 - view.t0;
    let a = view.t0 + s * frac;
    a = Math.max(geo.t0, Math.min(a, geo.t1 - s));
    setView({ t0: a, t1: a + s });
  };
  const reset = () => setView({ t0: geo.t0, t1: geo.t1 });

  const hitAt = (e) => {
    const el = scrollRef.current;
    const rect = el.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const yv = e.clientY - rect.top;
    if (yv < RULER_H) return { kind: 'ruler', x };
    const y = yv + scrollTop;
    const li = laneTop.findIndex((top, i) => i < geo.lanes.length && y >= top && y < laneTop[i + 1]);
    if (li < 0) return { kind: 'none', x };
    const lane = geo.lanes[li];
    const rel = y - laneTop[li];
    if (rel < TITLE_H) return { kind: 'none', x };
    if (rel < HEAD_H) {
      let best = -1;
      let bd = 6;
      const ml = markersByLane[li];
      const pad = ((view.t1 - view.t0) / Math.max(1, size.w)) * 6;
      for (let j = geo.noTime ? 0 : Math.max(0, lastAtOrBefore(ml.times, tOf(x) - pad)); j < ml.idx.length; j++) {
        const mx = geo.noTime ? 2 : xOf(ml.times[j]);
        if (mx > x + 6) break;
        const d = Math.abs(mx - x);
        if (d < bd) {
          bd = d;
          best = ml.idx[j];
        }
      }
      return best >= 0 ? { kind: 'marker', k: best, x } : { kind: 'none', x };
    }
    const depth = Math.floor((rel - HEAD_H) / ROW_H) + 1;
    if (laneRows[li]) {
      const i = intervalAt(laneRows[li][depth - 1], tOf(x));
      return i >= 0 ? { kind: 'interval', i, x } : { kind: 'none', x };
    }
    const k = sampleAt(lane, tOf(x), lane.gap);
    if (k < 0) return { kind: 'none', x };
    const s = lane.samples[k];
    const n = sampleNode[s];
    if (n < 0) return { kind: 'none', x };
    const a = ancestorAt(tree, n, depth);
    return a > 0 ? { kind: 'frame', node: a, sample: s, x } : { kind: 'none', x };
  };

  const showTip = (h, e) => {
    const tip = tipRef.current;
    if (!tip) return;
    if (!h || (h.kind !== 'frame' && h.kind !== 'marker' && h.kind !== 'interval')) {
      tip.hidden = true;
      return;
    }
    if (h.kind === 'interval') {
      const iv = doc.intervals;
      const fn = iv.func[h.i];
      const src = doc.funcSources?.[fn];
      tip.querySelector('.fc-name').textContent = String(analysis.names[fn] ?? '[unknown]') + (src ? `  (${src})` : '');
      tip.querySelector('.fc-sub').textContent = `${fmtTime(iv.end[h.i] - iv.start[h.i])} from ${fmtTime(iv.start[h.i] - geo.t0)} · depth ${iv.depth[h.i]} · click for its entry record's bytes`;
    } else if (h.kind === 'frame') {
      const src = doc.funcSources?.[tree.func[h.node]];
      tip.querySelector('.fc-name').textContent = name(h.node) + (src ? `  (${src})` : '');
      const t = doc.profile.sampleTimes[h.sample];
      tip.querySelector('.fc-sub').textContent = `sample #${h.sample}${geo.noTime ? '' : ` at ${fmtTime(t - geo.t0)}`} · ${formatInt(tree.total[h.node])} samples in this call node`;
    } else {
      const row = markers.rows[h.k];
      const t = markers.time[h.k];
      const kindName = markers.kindNames ? markers.kindNames[markers.kind[h.k]] : '';
      const label = markers.kindNames ? String(doc.strings?.[markers.label[h.k]] ?? '') : '';
      tip.querySelector('.fc-name').textContent = markers.kindNames
        ? `${kindName}${label ? ': ' + label : ''}`
        : doc.labels.get(row) ?? fallbackLabel(doc.records.kinds[row], doc.records.types[row]);
      const when = Number.isNaN(t) || t === 0 ? ' · no time (shown at the start)' : ` · ${fmtTime(t - geo.t0)}`;
      // a marker from a side file (a jit dump's code load on a perf timeline) has no row in this file
      tip.querySelector('.fc-sub').textContent =
        row >= 0 ? `record ${row} at 0x${doc.records.offsets[row].toString(16)}${when} · click for its bytes` : `from a side file${when}`;
    }
    tip.hidden = false;
    const host = scrollRef.current.parentElement.getBoundingClientRect();
    let x = e.clientX - host.left + 14;
    let y = e.clientY - host.top + 14;
    if (x + tip.offsetWidth > host.width - 4) x = Math.max(4, e.clientX - host.left - tip.offsetWidth - 10);
    if (y + tip.offsetHeight > host.height - 4) y = Math.max(4, e.clientY - host.top - tip.offsetHeight - 10);
    tip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  };

  const onDown = (e) => {
    const h = hitAt(e);
    if (h.kind === 'ruler') setDrag({ kind: 'range', x0: h.x, t0: tOf(h.x), t1: tOf(h.x), moved: false });
    else setDrag({ kind: 'pan', x0: h.x, v: view, moved: false, hit: h });
  };
  const onMove = (e) => {
    if (drag) {
      const rect = scrollRef.current.getBoundingClientRect();
      const x = e.clientX - rect.left;
      if (drag.kind === 'range') setDrag({ ...drag, t1: tOf(x), moved: true });
      else if (Math.abs(x - drag.x0) > 3) {
        const s = drag.v.t1 - drag.v.t0;
        let a = drag.v.t0 - ((x - drag.x0) / size.w) * s;
        a = Math.max(geo.t0, Math.min(a, geo.t1 - s));
        setView({ t0: a, t1: a + s });
        if (!drag.moved) setDrag({ ...drag, moved: true });
      }
      return;
    }
    const h = hitAt(e);
    setHover(h);
    const hn = h.kind === 'frame' ? h.node : -1;
    if (onHoverNode && hn !== hoverNode) onHoverNode(hn);
    canvasRef.current.style.cursor = h.kind === 'frame' || h.kind === 'marker' || h.kind === 'interval' ? 'pointer' : h.kind === 'ruler' ? 'col-resize' : 'grab';
    showTip(h, e);
  };
  const onUp = () => {
    if (!drag) return;
    const d = drag;
    setDrag(null);
    if (d.kind === 'range') {
      const a = Math.min(d.t0, d.t1);
      const b = Math.max(d.t0, d.t1);
      if (d.moved && xOf(b) - xOf(a) > 3 && onRange) onRange(a, b);
      return;
    }
    if (!d.moved) {
      const h = d.hit;
      if (h.kind === 'frame') onSelectNode?.(h.node, h.sample);
      else if (h.kind === 'marker' && markers.rows[h.k] >= 0) onSelectRecord?.(markers.rows[h.k]);
      else if (h.kind === 'interval' && doc.intervals.record[h.i] >= 0) onSelectRecord?.(doc.intervals.record[h.i]);
    }
  };
  const onWheel = (e) => {
    e.preventDefault();
    const rect = scrollRef.current.getBoundingClientRect();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) panBy((e.deltaX || e.deltaY) / 1000);
    else if (e.ctrlKey || e.metaKey || true) zoomBy(e.deltaY > 0 ? 1.25 : 0.8, e.clientX - rect.left);
  };
  const onKeyDown = (e) => {
    const k = e.key;
    if (k === '+' || k === '=') zoomBy(0.8);
    else if (k === '-' || k === '_') zoomBy(1.25);
    else if (k === '0') reset();
    else if (k === 'ArrowLeft' || k === 'a' || k === 'A') panBy(-0.1);
    else if (k === 'ArrowRight' || k === 'd' || k === 'D') panBy(0.1);
    else if (k === 'ArrowUp' || k === 'w' || k === 'W') scrollRef.current.scrollTop -= 40;
    else if (k === 'ArrowDown' || k === 's' || k === 'S') scrollRef.current.scrollTop += 40;
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  if (apiRef) apiRef.current = { key: (k) => onKeyDown({ key: k, preventDefault() {}, stopPropagation() {} }), zoomBy, panBy, reset, view, draw };
  // wheel must be non-passive to preventDefault
  useEffect(() => {
    const c = canvasRef.current;
    if (!c) return undefined;
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  });

  const contentH = laneTop[laneTop.length - 1] + 4;
  const span = view.t1 - view.t0;
  const full = geo.t1 - geo.t0;
  return (
    <div class="flame-chart" data-testid="flame-chart" data-view={`${view.t0},${view.t1}`} data-marked-sample={String(markedSample)} data-selected-node={String(selectedNode)}>
      <div class="flame-toolbar">
        <button type="button" onClick={() => zoomBy(0.8)} title="Zoom in (+)">+</button>
        <button type="button" onClick={() => zoomBy(1.25)} title="Zoom out (-)">−</button>
        <button type="button" onClick={reset} title="Whole profile (0)">0</button>
        {cpuLanes.length ? (
          <label>
            Lanes{' '}
            <select aria-label="Lanes" value={byCpu ? 'cpu' : 'thread'} onChange={(e) => setByCpu(e.currentTarget.value === 'cpu')}>
              <option value="thread">per thread</option>
              <option value="cpu">per CPU ({cpuLanes.length})</option>
            </select>
          </label>
        ) : null}
        <span class="muted" data-testid="chart-status">
          {geo.lanes.length} lane{geo.lanes.length === 1 ? '' : 's'} · {formatInt(markers.rows.length)} markers{markers.more ? ` (+${markers.more} not shown)` : ''} ·{' '}
          {geo.noTime ? 'no sample times: sample order' : `showing ${fmtTime(span)} of ${fmtTime(full)}`} · wheel/+/− zoom, drag pan, drag the ruler to select a range
        </span>
      </div>
      <div class="flame-body">
        <div class="flame-scroll" ref={scrollRef} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
          <div class="flame-spacer" style={{ height: `${Math.max(contentH, size.h)}px` }}>
            <canvas
              ref={canvasRef}
              class="flame-canvas"
              style={{ width: `${size.w}px`, height: `${size.h}px` }}
              tabIndex={0}
              role="img"
              aria-label={`Flame chart: ${geo.lanes.length} ${byCpu ? 'CPUs' : 'threads'}, ${formatInt(analysis.samples)} samples`}
              onMouseDown={onDown}
              onMouseMove={onMove}
              onMouseUp={onUp}
              onMouseLeave={() => {
                setDrag(null);
                setHover(null);
                showTip(null);
              }}
              onKeyDown={onKeyDown}
            />
          </div>
        </div>
        <div class="flame-tip" ref={tipRef} role="tooltip" hidden>
          <div class="fc-name ft-name" />
          <div class="fc-sub muted" />
        </div>
      </div>
    </div>
  );
}
