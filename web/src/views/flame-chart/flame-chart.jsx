// Flame chart (time order): one lane per thread, samples as stacks over time (the
// worker's call nodes of the filtered, transformed samples; each sample as wide as its
// sampling interval), a marker row per lane for the records that explain a profile (COMM,
// EXIT, MMAP, LOST, THROTTLE, SWITCH…), clickable through to their bytes. Lanes busiest
// first; each can be collapsed, pinned (on top) or hidden (listed to show again); many lanes
// get an overview track. Times are from the file's one time zero (doc.timing.zero).
// Wheel or + - 0 zoom, drag or arrows/WASD pan, drag on the ruler selects a time range.
import { inlinedText } from '../../lib/inlined-tag.jsx';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useDark } from '../../lib/theme.js';
import { fitCanvas, useElementSize } from '../../lib/element-size.js';
import { ancestorAt, boxAt, boxesByRow, callLaneInterval, firstLaneOfPid, laneActivity, laneExtent, laneInterval, laneSamples, lastAtOrBefore, orderLanes, sampleInColumn, sortMarkers, threadRows, typicalGap } from './chart-model.js';
import { drawChart, drawOverview, fmtTime, HEAD_H, laneName, RULER_H, ROW_H, STRIP_H, TITLE_H } from './chart-draw.js';
import { plural, sampleWord } from '../../lib/format.js';
import { askInTurn } from '../../lib/ask-in-turn.js';
import { offsetText } from '../../lib/records.js';
import { stringOf } from '../../lib/strings.js';
import { formatInt } from '../../lib/format.js';
import { LanesPending } from '../../lib/tables-pending.jsx';
import './flame-chart.css';

/**
 * @param {{doc:any, analysis:any, matches?:Uint8Array|null, markedSample?:number, selectedNode?:number,
 *   onSelectNode?:(node:number, sample:number)=>void, onSelectRecord?:(row:number)=>void,
 *   onRange?:(t0:number,t1:number)=>void, range?:{t0:number,t1:number}|null, benchRef?:any,
 *   loadCpuLanes?:() => Promise<any[]>, loadFlameBoxes?:(q: {rows: Int32Array, t0: number, t1: number, cols: number}) => Promise<any>,
 *   loadCallActivity?:(q: {lanes: Int32Array, t0: number, t1: number, cols: number}) => Promise<Float32Array>,
 *   markedAt?: {sample: number, time: number, thread: number} | null}} props
 *   loadCpuLanes: the lanes per CPU, asked of the worker when first shown; loadFlameBoxes: the boxes of exact calls
 *   (XRay) in a view, asked of the worker as the view changes (it holds the calls); loadCallActivity: the calls
 *   started per column of a tracer's lanes (worker/derive.js CallLane: they hold no calls), for collapsed lanes'
 *   strips and the overview; markedAt: the marked sample's time and thread lane (a tracer's lanes mark it so)
 */
export function FlameChart(/** @type {any} */ props) {
  // the lanes arrive after the rest of the file ('tables'): LanesPending until then
  return props.doc.lanes ? <FlameChartOf {...props} /> : <LanesPending doc={props.doc} />;
}

/** @param {any} props (FlameChart's) */
function FlameChartOf({ doc, analysis, matches, markedSample = -1, markedAt = null, selectedNode = -1, onSelectNode, onSelectRecord, onRange, range, benchRef, apiRef, hoverNode = -1, onHoverNode, loadCpuLanes, loadFlameBoxes, loadCallActivity }) {
  const threads = doc.threads || [];
  const markers = doc.markers || { rows: new Int32Array(0), time: new Float64Array(0), thread: new Int32Array(0) };
  const [wantCpu, setWantCpu] = useState(false); // the lanes select says per CPU
  // lanes per CPU: made by the worker when first shown (doc.cpuLaneCount of them)
  const [cpuLanesOf, setCpuLanesOf] = useState(/** @type {{doc: any, lanes: any[]} | null} */ (null));
  const cpuLanes = cpuLanesOf && cpuLanesOf.doc === doc ? cpuLanesOf.lanes : null;
  const cpuLaneCount = doc.cpuLaneCount || 0;
  useEffect(() => {
    if (!wantCpu || cpuLanes || !loadCpuLanes) return;
    let live = true;
    loadCpuLanes().then(
      (l) => live && setCpuLanesOf({ doc, lanes: l || [] }),
      () => live && setWantCpu(false),
    );
    return () => {
      live = false;
    };
  }, [wantCpu, cpuLanes, doc, loadCpuLanes]);
  // per CPU once its lanes are here (the thread lanes until then)
  const byCpu = wantCpu && !!cpuLanes && cpuLanes.length > 0;
  const lanes = byCpu && cpuLanes ? cpuLanes : doc.lanes || [];
  const tree = analysis.tree;
  // sample -> call node: null when no lane draws samples (a tracer's lanes are summaries of its calls)
  const sampleNode = analysis.sampleNode || NO_NODES;
  // lane choices, by lane key ('t' + thread row or 'c' + CPU): pinned in pin order, hidden, collapsed
  const [pinned, setPinned] = useState(/** @type {string[]} */ ([]));
  const [hidden, setHidden] = useState(() => new Set());
  const [collapsed, setCollapsed] = useState(() => new Set());
  useEffect(() => {
    setPinned([]);
    setHidden(new Set());
    setCollapsed(new Set());
  }, [doc]);

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
      const ext = laneExtent(l); // (a tracer's lane: its calls' first and last start)
      if (ext) {
        lo = Math.min(lo, ext[0]);
        hi = Math.max(hi, ext[1]);
      }
    }
    const iv = doc.intervals; // (the exact calls' span)
    if (iv && !byCpu) {
      lo = Math.min(lo, iv.lo);
      hi = Math.max(hi, iv.hi);
    }
    const noTime = !(hi > 0 && hi >= lo); // one time (a one-sample file) is a time too
    // one time zero for the ruler, the range chip and every tooltip: the session's (its earliest time)
    const zero = noTime ? 0 : Math.min(lo, doc.timing && doc.timing.zero > 0 ? doc.timing.zero : lo);
    if (!noTime) lo = zero;
    // the file's median gap: the interval of a one-sample lane whose event does not say (made only for
    // such a lane: it sorts a copy of every sample's time, 4 M of them in a 1 GB perf.data)
    /** @type {number | null} */
    let gap = null;
    const fileGap = () => (gap ??= noTime ? 0 : typicalGap(allTimes(doc.lanes || [])));
    const event = (doc.events || [])[doc.defaultEvent ?? 0];
    let maxInterval = 0;
    const ls = all.map((l) => {
      const key = (byCpu ? 'c' : 't') + l.thread;
      const count = l.count ?? l.samples.length;
      if (noTime && l.calls) return { ...l, key, count, interval: { ns: 1, from: 'order' } }; // (calls at time 0: no width to give)
      if (noTime) {
        // no times: the samples in file order, each as wide as the samples it stands for (gperftools counts)
        const times = new Float64Array(l.samples.length);
        let acc = 0;
        for (let k = 0; k < l.samples.length; k++) {
          times[k] = l.weights ? acc : l.samples[k];
          acc += l.weights ? l.weights[k] : 1;
        }
        return { ...l, key, count, times, interval: { ns: l.weights ? Infinity : 1, from: 'order' } };
      }
      // (a tracer's lane: the worker made its gap, laneInterval's of its calls' starts)
      const interval = l.calls ? callLaneInterval(l, event, hi - lo) : laneInterval(l.times, event, fileGap, hi - lo);
      if (laneSamples(l) && interval.ns > maxInterval) maxInterval = interval.ns;
      return { ...l, key, count, interval };
    });
    if (noTime) {
      lo = 0;
      hi = Math.max(1, ...all.map((l) => (l.weights || l.calls ? l.count : l.samples.length ? l.samples[l.samples.length - 1] + 1 : 1)));
      return { lanes: ls, t0: lo, t1: hi, noTime, zero: 0 };
    }
    const t1 = hi + (all.some((l) => laneSamples(l)) ? maxInterval : (hi - lo) * 0.01 || 1);
    return { lanes: ls, t0: lo, t1: t1 > lo ? t1 : lo + 1, noTime, zero };
  }, [doc, lanes, byCpu, markers]);

  // lanes in display order (pinned, then busiest first), hidden ones apart
  const order = useMemo(() => orderLanes(geo.lanes, pinned, hidden), [geo, pinned, hidden]);
  const shown = order.shown;

  // the rows of exact calls per lane and depth (XRay); sample lanes draw the analysis' call nodes instead
  const laneRows = useMemo(
    () => shown.map((l) => (doc.intervals && !byCpu && l.thread >= 0 ? threadRows(doc.intervals, l.thread) : null)),
    [shown, doc, byCpu],
  );

  // per-lane depth (of the current analysis)
  const laneDepth = useMemo(() => {
    return shown.map((l, li) => {
      if (laneRows[li] && laneRows[li].length) return laneRows[li].length;
      if (l.calls) return 1; // (a tracer's calls of no thread: in no row)
      if (!l.samples.length) return 3; // marker-only lane: a cumulative count of its markers
      let d = 0;
      for (let k = 0; k < l.samples.length; k++) {
        const n = sampleNode[l.samples[k]] ?? -1;
        if (n >= 0 && tree.depth[n] > d) d = tree.depth[n];
      }
      return d;
    });
  }, [shown, analysis, laneRows]);

  const laneTop = useMemo(() => {
    const tops = [];
    let y = RULER_H;
    shown.forEach((l, i) => {
      tops.push(y);
      y += collapsed.has(l.key) ? HEAD_H + STRIP_H + 4 : HEAD_H + Math.max(1, laneDepth[i]) * ROW_H + 6;
    });
    tops.push(y);
    return tops;
  }, [shown, laneDepth, collapsed]);

  const markersByLane = useMemo(() => {
    if (byCpu) return shown.map(() => ({ idx: new Int32Array(0), times: new Float64Array(0) })); // markers carry a thread: shown in the thread lanes
    const byThread = new Map();
    shown.forEach((l, i) => byThread.set(l.thread, i));
    const laneOfPid = firstLaneOfPid(shown, threads);
    const inLane = new Set(geo.lanes.map((l) => l.thread)); // (thread rows: not the file's numbers)
    const out = shown.map(() => []);
    for (let k = 0; k < markers.rows.length; k++) {
      const th = markers.thread[k];
      let li = byThread.get(th);
      // a thread without samples: the first lane of its process, else the first lane
      // (a hidden lane's markers are hidden with it)
      if (li === undefined && inLane.has(th)) continue;
      if (li === undefined) li = (th >= 0 ? laneOfPid(threads[th]?.pid) : undefined) ?? 0;
      if (out[li]) out[li].push(k);
    }
    // sorted by time (no time: drawn at the start) so a draw visits only the markers in view
    const eff = Float64Array.from(markers.time, (t) => (Number.isNaN(t) || t === 0 ? geo.t0 : t));
    return out.map((list) => sortMarkers(list, eff));
  }, [geo, shown, markers, byCpu]);

  const [view, setView] = useState({ t0: geo.t0, t1: geo.t1 });
  useEffect(() => setView({ t0: geo.t0, t1: geo.t1 }), [geo]);
  const scrollRef = useRef(null);
  const canvasRef = useRef(null);
  const tipRef = useRef(null);
  const size = useElementSize(scrollRef);
  const [scrollTop, setScrollTop] = useState(0);

  // The boxes of exact calls (XRay) of the rows in view, asked of the worker, which holds the calls (the page
  // holds none: 24 bytes a call): one question at a time, the latest view next; the last answer is drawn in
  // the current view until the next one comes.
  const [boxAnswer, setBoxAnswer] = useState(/** @type {{doc: any, q: any, boxes: any, byRow: Map<number, [number, number]>, ms: number} | null} */ (null));
  const flameBoxes = boxAnswer && boxAnswer.doc === doc ? boxAnswer : null;
  const boxQuery = useMemo(() => {
    if (!doc.intervals || byCpu || !loadFlameBoxes || !(size.w > 0)) return null;
    /** @type {number[]} */
    const rows = [];
    shown.forEach((l, li) => {
      const lr = laneRows[li];
      if (!lr || collapsed.has(l.key)) return;
      lr.forEach((row, d) => {
        const y = laneTop[li] + HEAD_H + d * ROW_H - scrollTop;
        if (y + ROW_H >= RULER_H && y <= size.h) rows.push(row);
      });
    });
    return { rows: Int32Array.from(rows), t0: view.t0, t1: view.t1, cols: Math.max(1, Math.floor(size.w)) };
  }, [doc, byCpu, size, shown, laneRows, collapsed, laneTop, scrollTop, view]);
  const boxFetch = useRef(/** @type {{busy: boolean, next: {q: any, doc: any} | null}} */ ({ busy: false, next: null }));
  useEffect(() => {
    if (!boxQuery || !loadFlameBoxes) return;
    const f = boxFetch.current;
    f.next = { q: boxQuery, doc };
    askInTurn(f, (job) => {
      const asked = performance.now();
      // (no answer, as when the worker opened another file: the next view asks again)
      return loadFlameBoxes(job.q).then((/** @type {any} */ boxes) => {
        // (ms: the question's time to its answer, read by the benchmark)
        if (boxes) setBoxAnswer({ doc: job.doc, q: job.q, boxes, byRow: boxesByRow(boxes), ms: performance.now() - asked });
      });
    });
  }, [boxQuery]);

  // A tracer's collapsed lanes (worker/derive.js CallLane: they hold no calls): their strips' activity (calls
  // started per column) is asked of the worker for the view: one question at a time, the latest view next, a
  // lane asked once a view (a redraw, a hover, another lane collapsed ask nothing again); a lane's last answer
  // is drawn, placed in the current view, until the next one comes.
  const stripQuery = useMemo(() => {
    if (byCpu || !loadCallActivity || !(size.w > 0)) return null;
    const threads = shown.filter((l) => l.calls && collapsed.has(l.key)).map((l) => l.thread);
    return threads.length ? { threads, t0: view.t0, t1: view.t1, cols: Math.max(1, Math.floor(size.w)) } : null;
  }, [byCpu, size.w, shown, collapsed, view]);
  const stripFetch = useRef(
    /** @type {{doc: any, busy: boolean, next: any, view: string, asked: Set<number>, last: Map<number, {q: {t0: number, t1: number}, act: Float32Array}>}} */ ({
      doc: null, busy: false, next: null, view: '', asked: new Set(), last: new Map(),
    }),
  );
  const [stripsIn, setStripsIn] = useState(0); // (answers so far: the chart redraws with each)
  useEffect(() => {
    const f = stripFetch.current;
    if (f.doc !== doc) Object.assign(f, { doc, next: null, view: '', asked: new Set(), last: new Map() });
    if (!stripQuery || !loadCallActivity) return;
    const { t0, t1, cols } = stripQuery;
    const key = `${t0},${t1},${cols}`;
    if (key !== f.view) {
      f.view = key;
      f.asked = new Set();
    }
    const missing = stripQuery.threads.filter((th) => !f.asked.has(th));
    if (!missing.length) return;
    missing.forEach((th) => f.asked.add(th));
    const before = f.next && f.next.key === key && f.next.doc === doc ? Array.from(f.next.q.lanes) : [];
    f.next = { doc, key, q: { lanes: Int32Array.from([...before, ...missing]), t0, t1, cols } };
    askInTurn(f, (/** @type {any} */ job) =>
      loadCallActivity(job.q).then(
        (/** @type {Float32Array} */ act) => {
          if (job.doc !== f.doc) return;
          const n = job.q.cols;
          job.q.lanes.forEach((/** @type {number} */ th, /** @type {number} */ i) => f.last.set(th, { q: { t0: job.q.t0, t1: job.q.t1 }, act: act.subarray(i * n, (i + 1) * n) }));
          setStripsIn((k) => k + 1);
        },
        () => {
          // (no answer, as when the worker opened another file: asked again in the next view)
          if (job.doc === f.doc && f.view === job.key) job.q.lanes.forEach((/** @type {number} */ th) => f.asked.delete(th));
        },
      ),
    );
  }, [stripQuery, doc]);
  const strips = useCallback(
    (/** @type {{thread: number}} */ lane) => (stripFetch.current.doc === doc ? stripFetch.current.last.get(lane.thread) : undefined),
    [doc, stripsIn],
  );

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
    const drawn = drawChart(ctx, {
      dpr,
      fg: cs.color || '#000',
      font: `11px ${cs.fontFamily || 'sans-serif'}`,
      size,
      dark,
      geo,
      lanes: shown,
      collapsed,
      view,
      scrollTop,
      laneTop,
      laneRows,
      markersByLane,
      byCpu,
      threads,
      markers,
      flameBoxes,
      strips,
      tree,
      sampleNode,
      names: analysis.names,
      matches,
      hoverNode,
      selectedNode,
      markedSample,
      markedAt,
      range: drag && drag.kind === 'range' ? { t0: Math.min(drag.t0, drag.t1), t1: Math.max(drag.t0, drag.t1) } : range,
    });
    const ms = performance.now() - t0p;
    canvas.dataset.drawMs = ms.toFixed(2); // read by the benchmark (e2e/bench.spec.js)
    canvas.dataset.ticks = drawn.ticks.join('|'); // the ruler's labels, as drawn
    if (benchRef) benchRef.current = ms;
  }, [geo, shown, collapsed, laneTop, laneDepth, laneRows, view, size, scrollTop, dark, analysis, matches, markedSample, markedAt, selectedNode, drag, range, markersByLane, hoverNode, flameBoxes, strips]);

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
    const li = laneTop.findIndex((top, i) => i < shown.length && y >= top && y < laneTop[i + 1]);
    if (li < 0) return { kind: 'none', x };
    const lane = shown[li];
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
    if (collapsed.has(lane.key)) return { kind: 'none', x };
    const depth = Math.floor((rel - HEAD_H) / ROW_H) + 1;
    if (laneRows[li]) {
      const row = laneRows[li][depth - 1];
      const k = flameBoxes && row != null ? boxAt(flameBoxes.boxes, flameBoxes.byRow.get(row), tOf(x), (view.t1 - view.t0) / Math.max(1, Math.floor(size.w))) : -1;
      return k >= 0 ? { kind: 'interval', k, boxes: flameBoxes?.boxes, depth: depth - 1, x } : { kind: 'none', x };
    }
    if (lane.calls) return { kind: 'none', x }; // (a tracer's lane holds no samples)
    const k = sampleInColumn(lane, tOf(Math.floor(x)), tOf(Math.floor(x) + 1), lane.interval.ns);
    if (k < 0) return { kind: 'none', x };
    const s = lane.samples[k];
    const n = sampleNode[s] ?? -1;
    if (n < 0) return { kind: 'none', x };
    const a = ancestorAt(tree, n, depth);
    return a > 0 ? { kind: 'frame', node: a, sample: s, time: lane.times[k], x } : { kind: 'none', x };
  };

  const showTip = (h, e) => {
    const tip = tipRef.current;
    if (!tip) return;
    if (!h || (h.kind !== 'frame' && h.kind !== 'marker' && h.kind !== 'interval')) {
      tip.hidden = true;
      return;
    }
    if (h.kind === 'interval') {
      const b = h.boxes;
      const fn = b.func[h.k];
      const src = doc.funcSources?.[fn];
      tip.querySelector('.fc-name').textContent = String(analysis.names[fn] ?? '[unknown]') + (src ? `  (${src})` : '');
      tip.querySelector('.fc-sub').textContent = `${fmtTime(b.end[h.k] - b.start[h.k])} from ${fmtTime(b.start[h.k] - geo.zero)} · depth ${h.depth} · click for its entry record's bytes`;
    } else if (h.kind === 'frame') {
      const src = [doc.funcSources?.[tree.func[h.node]], inlinedText(doc.funcInlined?.[tree.func[h.node]])].filter(Boolean).join(' · ');
      tip.querySelector('.fc-name').textContent = name(h.node) + (src ? `  (${src})` : '');
      const t = h.time;
      tip.querySelector('.fc-sub').textContent = `sample #${h.sample}${geo.noTime ? '' : ` at ${fmtTime(t - geo.zero)}`} · ${plural(tree.total[h.node], 'sample')} in this call node`;
    } else {
      const row = markers.rows[h.k];
      const t = markers.time[h.k];
      const label = stringOf(doc.strings, markers.label[h.k]);
      tip.querySelector('.fc-name').textContent = `${markers.kindNames[markers.kind[h.k]]}${label ? ': ' + label : ''}`;
      const when = Number.isNaN(t) || t === 0 ? ' · no time (shown at the start)' : ` · ${fmtTime(t - geo.zero)}`;
      // a marker from a side file (a jit dump's code load on a perf timeline) has no row in this file
      tip.querySelector('.fc-sub').textContent =
        row >= 0 ? `record ${row} at ${offsetText(doc, row)}${when} · click for its bytes` : `from a side file${when}`;
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
    lastPointer.current = e;
    const h = hitAt(e);
    setHover(h);
    const hn = h.kind === 'frame' ? h.node : -1;
    if (onHoverNode && hn !== hoverNode) onHoverNode(hn);
    canvasRef.current.style.cursor = h.kind === 'frame' || h.kind === 'marker' || h.kind === 'interval' ? 'pointer' : h.kind === 'ruler' ? 'col-resize' : 'grab';
    showTip(h, e);
  };
  // the pointer's last place over the chart: what it is over is found again when the boxes in view arrive
  const lastPointer = useRef(/** @type {MouseEvent | null} */ (null));
  useEffect(() => {
    const e = lastPointer.current;
    if (!e || drag || !flameBoxes) return;
    const h = hitAt(e);
    setHover(h);
    showTip(h, e);
  }, [flameBoxes]);
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
      else if (h.kind === 'interval' && h.boxes.record[h.k] >= 0) onSelectRecord?.(h.boxes.record[h.k]);
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
  // (gone with this chart: keys must not reach it while the next file's lanes are laid out)
  useEffect(
    () => () => {
      if (apiRef) apiRef.current = null;
    },
    [],
  );
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
  const nameOf = (/** @type {any} */ l) => laneName(l, byCpu, threads);
  const toggle = (/** @type {Set<string>} */ set, /** @type {string} */ key) => {
    const next = new Set(set);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    return next;
  };
  const togglePin = (/** @type {string} */ key) => setPinned((p) => (p.includes(key) ? p.filter((k) => k !== key) : p.concat([key])));
  // what a sample's width is (the busiest lane's interval: lanes of one event share it unless it is each lane's gap);
  // a tracer's calls have their own
  const firstTimed = shown.find((l) => laneSamples(l)) || geo.lanes.find((l) => laneSamples(l));
  const intervalText = geo.noTime
    ? geo.lanes.some((l) => l.weights)
      ? 'records not in time order (the file has no times): stacks in file order, each as wide as its sample count'
      : 'no sample times: sample order'
    : doc.intervals && !byCpu
      ? 'each call drawn from its exact enter and exit times' // (a tracer's lanes: no sampling interval)
      : firstTimed
      ? `a sample is drawn ${fmtTime(firstTimed.interval.ns)} wide (${INTERVAL_FROM[firstTimed.interval.from] || firstTimed.interval.from})`
      : '';
  // lane controls over the lanes in view (HTML, so they can be reached by keyboard and named)
  const visibleControls = [];
  for (let i = 0; i < shown.length; i++) {
    const top = laneTop[i];
    if (top + TITLE_H < scrollTop + RULER_H) continue;
    if (top > scrollTop + size.h) break;
    visibleControls.push(i);
  }
  const showOverview = geo.lanes.length >= OVERVIEW_MIN_LANES && !geo.noTime;
  return (
    <div class="flame-chart" data-testid="flame-chart" data-view={`${view.t0},${view.t1}`} data-boxes-view={flameBoxes ? `${flameBoxes.q.t0},${flameBoxes.q.t1}` : ''} data-boxes-ms={flameBoxes ? flameBoxes.ms.toFixed(1) : ''} data-zero={String(geo.zero)} data-marked-sample={String(markedSample)} data-selected-node={String(selectedNode)}>
      <div class="flame-toolbar">
        <button type="button" onClick={() => zoomBy(0.8)} title="Zoom in (+)">+</button>
        <button type="button" onClick={() => zoomBy(1.25)} title="Zoom out (-)">−</button>
        <button type="button" onClick={reset} title="Whole profile (0)">0</button>
        {cpuLaneCount ? (
          <label>
            Lanes{' '}
            <select aria-label="Lanes" value={wantCpu ? 'cpu' : 'thread'} onChange={(e) => setWantCpu(e.currentTarget.value === 'cpu')}>
              <option value="thread">per thread</option>
              <option value="cpu">per CPU ({cpuLaneCount})</option>
            </select>
          </label>
        ) : null}
        {order.hidden.length ? (
          <details class="lane-hidden" data-testid="hidden-lanes">
            <summary>Hidden lanes ({order.hidden.length})</summary>
            <div class="lane-hidden-list">
              <button type="button" onClick={() => setHidden(new Set())}>Show all</button>
              {order.hidden.map((l) => (
                <button type="button" key={l.key} aria-label={`Show lane ${nameOf(l)}`} onClick={() => setHidden((h) => toggle(h, l.key))}>
                  {nameOf(l)} · {plural(l.count, sampleWord(doc))}
                </button>
              ))}
            </div>
          </details>
        ) : null}
        <span class="muted" data-testid="chart-status">
          {plural(shown.length, 'lane')}
          {order.hidden.length ? ` (${order.hidden.length} hidden)` : ''} · {plural(markers.rows.length, 'marker')} ·{' '}
          {geo.noTime ? '' : `showing ${fmtTime(span)} of ${fmtTime(full)} · `}
          {intervalText ? `${intervalText} · ` : ''}wheel/+/− zoom, drag pan, drag the ruler to select a range
        </span>
      </div>
      {showOverview ? (
        <LaneOverview
          lanes={shown}
          geo={geo}
          loadCallActivity={loadCallActivity}
          view={view}
          dark={dark}
          nameOf={nameOf}
          onPick={(li, t) => {
            const el = scrollRef.current;
            if (el) el.scrollTop = laneTop[li] - RULER_H;
            const s = view.t1 - view.t0;
            if (s < full) {
              const a = Math.max(geo.t0, Math.min(t - s / 2, geo.t1 - s));
              setView({ t0: a, t1: a + s });
            }
          }}
        />
      ) : null}
      <div class="flame-body">
        <div class="flame-scroll" ref={scrollRef} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
          <div class="flame-spacer" style={{ height: `${Math.max(contentH, size.h)}px` }}>
            <canvas
              ref={canvasRef}
              class="flame-canvas"
              style={{ width: `${size.w}px`, height: `${size.h}px` }}
              tabIndex={0}
              role="img"
              aria-label={`Flame chart: ${plural(shown.length, byCpu ? 'CPU' : 'thread')}, ${plural(analysis.samples, sampleWord(doc))}`}
              onMouseDown={onDown}
              onMouseMove={onMove}
              onMouseUp={onUp}
              onMouseLeave={() => {
                lastPointer.current = null;
                setDrag(null);
                setHover(null);
                showTip(null);
              }}
              onKeyDown={onKeyDown}
            />
            {visibleControls.map((i) => {
              const l = shown[i];
              const nm = nameOf(l);
              const isPinned = pinned.includes(l.key);
              const isCollapsed = collapsed.has(l.key);
              return (
                <div class="lane-controls" key={l.key} style={{ top: `${laneTop[i]}px` }} data-lane={nm} data-testid="lane-controls">
                  <button type="button" aria-label={`${isCollapsed ? 'Expand' : 'Collapse'} lane ${nm}`} aria-expanded={!isCollapsed} onClick={() => setCollapsed((c) => toggle(c, l.key))}>
                    {isCollapsed ? '▸' : '▾'}
                  </button>
                  <button type="button" aria-label={`${isPinned ? 'Unpin' : 'Pin'} lane ${nm}`} aria-pressed={isPinned} class={isPinned ? 'on' : ''} onClick={() => togglePin(l.key)}>
                    {isPinned ? 'pinned' : 'pin'}
                  </button>
                  <button type="button" aria-label={`Hide lane ${nm}`} onClick={() => setHidden((h) => toggle(h, l.key))}>
                    hide
                  </button>
                </div>
              );
            })}
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

/** The sample -> node of an analysis whose lanes draw no samples (a tracer's): every sample in none. */
const NO_NODES = new Int32Array(0);

// where a sample's width comes from (chart-model.js laneInterval)
const INTERVAL_FROM = {
  period: "the event's period",
  frequency: '1 / the sampling frequency',
  gap: "each thread's median gap between samples",
  'file gap': "the file's median gap between samples",
  span: '1/1000 of the profile',
};

// files with this many lanes get the overview track
const OVERVIEW_MIN_LANES = 8;
const OVERVIEW_COLS = 600;

/**
 * The overview track (as in Perfetto's and the Firefox Profiler's track lists): one thin row of
 * activity per lane over the whole profile, in lane order, the view's window outlined; several lanes
 * share a pixel row when there are more lanes than rows. A click scrolls to that lane (and time).
 * A tracer's lanes (CallLane) hold no calls: their activity is asked of the worker, once for every lane
 * (hidden ones too: pinning or hiding asks nothing again).
 * @param {{lanes: any[], geo: any, view: {t0:number,t1:number}, dark: boolean, nameOf: (l:any)=>string, onPick: (li:number, t:number)=>void,
 *   loadCallActivity?: (q: {lanes: Int32Array, t0: number, t1: number, cols: number}) => Promise<Float32Array>}} props
 */
function LaneOverview({ lanes, geo, view, dark, nameOf, onPick, loadCallActivity }) {
  const ref = useRef(null);
  const size = useElementSize(ref);
  const h = Math.min(OVERVIEW_MAX_H, Math.max(24, lanes.length * 3));
  const calls = geo.lanes.some((/** @type {any} */ l) => l.calls);
  const [answer, setAnswer] = useState(/** @type {{geo: any, byThread: Map<number, Float32Array>} | null} */ (null));
  const asked = useRef(/** @type {any} */ (null)); // the geo asked for (a new loader each render asks nothing again)
  useEffect(() => {
    if (!calls || !loadCallActivity || asked.current === geo) return;
    asked.current = geo;
    const threads = Int32Array.from(geo.lanes.filter((/** @type {any} */ l) => l.calls), (/** @type {any} */ l) => l.thread);
    loadCallActivity({ lanes: threads, t0: geo.t0, t1: geo.t1, cols: OVERVIEW_COLS }).then(
      (act) => {
        if (asked.current !== geo) return;
        const byThread = new Map();
        threads.forEach((th, i) => byThread.set(th, act.subarray(i * OVERVIEW_COLS, (i + 1) * OVERVIEW_COLS)));
        setAnswer({ geo, byThread });
      },
      () => {
        if (asked.current === geo) asked.current = null;
      },
    );
  }, [calls, geo]);
  const activity = useMemo(
    () =>
      lanes.map((l) =>
        l.calls
          ? (answer && answer.geo === geo && answer.byThread.get(l.thread)) || new Float32Array(OVERVIEW_COLS)
          : laneActivity(l, geo.t0, geo.t1, OVERVIEW_COLS, null),
      ),
    [lanes, geo, answer],
  );
  useLayoutEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const fit = fitCanvas(canvas, { w: size.w, h });
    if (!fit) return;
    drawOverview(fit.ctx, { dpr: fit.dpr, w: size.w, h, dark, activity, geo, view });
  }, [activity, size.w, h, dark, view, geo]);
  const pick = (/** @type {MouseEvent} */ e) => {
    const r = /** @type {HTMLElement} */ (e.currentTarget).getBoundingClientRect();
    const li = Math.min(lanes.length - 1, Math.floor(((e.clientY - r.top) / h) * lanes.length));
    const t = geo.t0 + ((e.clientX - r.left) / Math.max(1, r.width)) * (geo.t1 - geo.t0);
    return { li, t };
  };
  return (
    <div class="lane-overview-wrap">
      <canvas
        ref={ref}
        class="lane-overview"
        data-testid="lane-overview"
        style={{ height: `${h}px` }}
        role="img"
        aria-label={`Activity overview, ${plural(lanes.length, 'row')} (one per track) over the whole profile; click a row to scroll to it`}
        onClick={(e) => {
          const p = pick(e);
          if (p.li >= 0) onPick(p.li, p.t);
        }}
        onMouseMove={(e) => {
          const p = pick(e);
          /** @type {HTMLElement} */ (e.currentTarget).title = p.li >= 0 ? `${nameOf(lanes[p.li])} · ${plural(lanes[p.li].count, 'sample')}` : '';
        }}
      />
    </div>
  );
}
const OVERVIEW_MAX_H = 96;

/**
 * Every sample's time, sorted (the lanes by thread hold each sample once; a tracer's lanes hold none: the
 * worker gives their gaps).
 * @param {{times?: Float64Array}[]} lanes
 */
function allTimes(lanes) {
  const out = new Float64Array(lanes.reduce((n, l) => n + (l.times ? l.times.length : 0), 0));
  let at = 0;
  for (const l of lanes) {
    if (!l.times) continue;
    out.set(l.times, at);
    at += l.times.length;
  }
  return out.sort();
}
