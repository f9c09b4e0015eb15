// Browser figures (printed, not asserted) for a large perf.data opened through the page's file
// input in headless chromium: drop -> first hex paint (the hex view shows the file's first
// bytes), drop -> summary (decode finished, summary filled), drop -> flame graph painted, drop ->
// record tree shown (its 'tables' message follows 'decoded'), and the WASM heap after decoding
// (the worker's 'decoded' message carries heapBytes).
// Opt-in (not run by npm run test):
//   BENCH_BROWSER_MB=100 PROFSCOPE_BENCH_BROWSER=1 npx playwright test -c e2e/playwright.config.js e2e/bench-browser.spec.js
// The file is build/bench/browser-<MB>MB-s<SEED>.data, written by build/bench/perfgen (built from
// bench/gen/perfgen.cc when missing) unless BENCH_BROWSER_FILE names another file (or a perf record
// --threads folder, opened as its files).
// bench/browser/run.sh (BENCH_BROWSER=1 bash bench/run.sh) builds the site and runs this.
// The browser's memory: the proportional set size (PSS, /proc/PID/smaps_rollup) summed over
// chromium's processes (the test's own descendants), read every 250 ms (BENCH_BROWSER_PSS_MS) from
// just before the drop until the flame graph and the record tree are drawn: its peak and final growth over the value
// before the drop, and the growth 3 s later.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, summaryField, waitDecoded } from './helpers.js';

test.skip(!process.env.PROFSCOPE_BENCH_BROWSER, 'set PROFSCOPE_BENCH_BROWSER=1 to run the browser benchmark');

const MB = Number(process.env.BENCH_BROWSER_MB || 100);
const SEED = Number(process.env.BENCH_SEED || 42);
const TIMEOUT = Number(process.env.BENCH_BROWSER_TIMEOUT_S || 1800) * 1000;

// chromium's processes started by this test process (browser, zygotes, renderers, GPU, utilities).
function chromiumPids() {
  const parent = new Map();
  const comm = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    try {
      const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = st.lastIndexOf(')');
      parent.set(Number(d), Number(st.slice(close + 2).split(' ')[1]));
      comm.set(Number(d), st.slice(st.indexOf('(') + 1, close));
    } catch {
      /* gone */
    }
  }
  const mine = (pid) => {
    for (let p = parent.get(pid), n = 0; p && n < 64; p = parent.get(p), n++) if (p === process.pid) return true;
    return false;
  };
  return [...parent.keys()].filter((pid) => /chrom/i.test(comm.get(pid) || '') && mine(pid));
}

// PSS in bytes summed over chromium's processes (null when /proc does not say); the processes
// are looked for again every 10th call (a /proc walk costs more than the reads).
let pssPids = [];
let pssCalls = 0;
function browserPss() {
  if (pssCalls++ % 10 === 0) pssPids = chromiumPids();
  let total = 0;
  let any = false;
  for (const pid of pssPids) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) {
        total += Number(m[1]) * 1024;
        any = true;
      }
    } catch {
      /* gone */
    }
  }
  return any ? total : null;
}

/** PSS by chromium process kind (browser, renderer, gpu-process, utility...), for where the growth is. */
function pssByKind() {
  /** @type {Record<string, number>} */
  const out = {};
  for (const pid of chromiumPids()) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const kind = (/--type=([a-z-]+)/.exec(cmd) || [, 'browser'])[1] + (/--utility-sub-type=([\w.]+)/.exec(cmd)?.[1] ? `:${/--utility-sub-type=([\w.]+)/.exec(cmd)[1]}` : '');
      if (m) out[kind] = (out[kind] || 0) + Number(m[1]) * 1024;
    } catch {
      /* gone */
    }
  }
  return out;
}

function benchFile() {
  if (process.env.BENCH_BROWSER_FILE) return process.env.BENCH_BROWSER_FILE;
  const dir = path.join(REPO, 'build', 'bench');
  const file = path.join(dir, `browser-${MB}MB-s${SEED}.data`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const gen = path.join(dir, 'perfgen');
  if (!fs.existsSync(gen)) execFileSync('g++', ['-O2', '-std=c++20', path.join(REPO, 'bench', 'gen', 'perfgen.cc'), '-o', gen]);
  execFileSync(gen, [file, String(MB), String(SEED)], { stdio: ['ignore', 'inherit', 'inherit'] });
  return file;
}

test(`open a ${MB} MB perf.data: hex paint, summary, flame graph, WASM heap`, async ({ page, browser }) => {
  test.setTimeout(TIMEOUT + 120_000);
  const file = benchFile();
  // a folder (a perf record --threads recording: data and its data.N files) is opened as its files
  const files = fs.statSync(file).isDirectory() ? fs.readdirSync(file).sort().map((f) => path.join(file, f)) : [file];
  const name = files.length > 1 ? path.basename(files[0]) : path.basename(file);
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);

  // Before the app's scripts: see the worker's messages (the 'decoded' one carries heapBytes)
  // and time everything from the file input's change event, polling once per animation frame.
  await page.addInitScript((fileName) => {
    const b = (window.__bench = { t: {}, heapBytes: null, error: null, longTasks: [] });
    // the page's main thread busy for 50 ms or more at a time (the page does not answer meanwhile)
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) b.longTasks.push({ at: Math.round(e.startTime - (b.t0 ?? 0)), ms: Math.round(e.duration) });
      }).observe({ type: 'longtask', buffered: true });
    } catch {
      b.longTasks = null;
    }
    const Orig = window.Worker;
    window.Worker = class extends Orig {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          const d = e.data;
          if (!d || b.t0 == null) return;
          const now = performance.now() - b.t0;
          if (d.type === 'progress' && b.t.firstProgress == null) b.t.firstProgress = now;
          if (d.type === 'progress' && d.total > 0 && d.done >= d.total) b.t.decodeDone = now; // the worker's last progress: decode() returned
          if (d.type === 'decoded') {
            b.t.decodedMessage = now;
            b.heapBytes = d.heapBytes ?? null;
            b.worker = d.benchTimes ?? null;
            b.samples = d.sampleRows ?? null;
            // a request the moment the flame graph's data is in (as a click would send): answered between
            // the steps that make the tables, or only after all of them
            this.postMessage({ type: 'labels', id: -7, rows: [0] });
          }
          if (d.type === 'labels' && d.id === -7) b.t.probeAnswer = now;
          if (d.type === 'tables') {
            // the record table, sent after 'decoded' (the flame graph is drawn meanwhile)
            b.t.tablesMessage = now;
            b.records = d.records?.offsets?.length ?? null;
            b.tablesWorker = d.benchTimes ?? null;
          }
          if (d.type === 'timeline') {
            // the flame chart's lanes and calls, sent after 'tables'
            b.t.timelineMessage = now;
            b.timelineWorker = d.benchTimes ?? null;
          }
          if (d.type === 'account') {
            // XRay's account, sent after 'timeline'
            b.t.accountMessage = now;
            b.accountWorker = d.benchTimes ?? null;
          }
          if (d.type === 'error') b.error = String(d.message);
        });
        this.addEventListener('error', (e) => (b.error = `worker error: ${e.message || e}`));
      }
    };
    document.addEventListener(
      'change',
      (e) => {
        if (e.target?.dataset?.testid !== 'file-input') return;
        b.t0 = performance.now();
        const shown = () => (document.querySelector('[data-testid="file-name"]')?.textContent || '').includes(fileName);
        const tick = () => {
          const now = performance.now() - b.t0;
          const busy = document.querySelector('[role="status"][aria-label="Decoding progress"]');
          // the page swaps to the new file's bytes in the same render that shows its name
          if (b.t.hex == null && shown()) {
            const cell = document.querySelector('.hex-pane .hb[data-off="0"]');
            if (cell && /^[0-9a-f]{2}$/i.test(cell.textContent.trim())) b.t.hex = now;
          }
          if (b.t.summary == null && shown() && !busy) {
            const dd = document.querySelector('.sum-item[data-field="records"] dd');
            if (dd && dd.textContent.trim() !== '–') b.t.summary = now;
          }
          if (b.t.flame == null && b.t.summary != null) {
            const c = document.querySelector('canvas.flame-canvas');
            const label = c?.getAttribute('aria-label') || '';
            // a file with errors opens on its diagnostics (an XRay log stopped by the memory budget): that is its first view
            const tab = document.querySelector('[role="tab"][aria-selected="true"]')?.textContent || '';
            if (tab.startsWith('Diagnostics') && document.querySelector('.diagnostics .diag-counts')) {
              b.t.flame = now;
              b.firstView = 'diagnostics';
            }
            if (c && label !== b.oldFlame && /: ([1-9][0-9,.\u00a0\u202f ]* samples|.+ by \w+)$/.test(label)) b.t.flame = now; // (counts have digit group separators; XRay: "… by time")
          }
          // the record tree shows the new file's rows (its record table arrived after the flame graph's data)
          if (b.t.recordTree == null && b.t.tablesMessage != null && !document.querySelector('[data-testid="records-pending"]') && document.querySelector('.rt-row')) b.t.recordTree = now;
          const alert = document.querySelector('[role="alert"]');
          if (alert && !b.error) b.error = alert.textContent;
          if (b.t.hex == null || b.t.summary == null || b.t.flame == null || b.t.recordTree == null) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      },
      true,
    );
  }, name);

  let crashed = false;
  page.on('crash', () => (crashed = true));
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByRole('tab', { name: 'Flame graph' }).click();

  // the sample's flame graph label: the new file's graph is the first canvas with another one
  const oldFlame = await page.locator('canvas.flame-canvas').getAttribute('aria-label');
  await page.evaluate((l) => (window.__bench.oldFlame = l), oldFlame);
  // the browser's memory before the drop (after a moment to settle), then every 250 ms
  await page.waitForTimeout(500);
  pssCalls = 0;
  const pss0 = browserPss();
  const kinds0 = pssByKind();
  let pssPeak = pss0;
  const every = Number(process.env.BENCH_BROWSER_PSS_MS ?? 250); // 0: only before and after (reading /proc costs the page some speed)
  const sampler = setInterval(() => {
    if (!every) return;
    const v = browserPss();
    if (v != null && (pssPeak == null || v > pssPeak)) pssPeak = v;
  }, every || 1000);
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const wall0 = Date.now();
  await page.getByTestId('file-input').setInputFiles(files);
  let outcome = 'ok';
  try {
    await page.waitForFunction(
      () => {
        const b = window.__bench;
        return b.error || (b.t.hex != null && b.t.summary != null && b.t.flame != null && b.t.recordTree != null && b.t.timelineMessage != null && b.t.accountMessage != null);
      },
      null,
      { timeout: TIMEOUT, polling: 500 },
    );
  } catch (e) {
    outcome = crashed ? 'page crashed (renderer gone, e.g. out of memory)' : `not finished: ${String(e.message).split('\n')[0]}`;
  }
  const wall = Date.now() - wall0;
  clearInterval(sampler);
  const pssEnd = browserPss();
  if (pssEnd != null && (pssPeak == null || pssEnd > pssPeak)) pssPeak = pssEnd;
  // and 3 s later, once what the open left behind may have been collected
  if (!crashed) await page.waitForTimeout(3000).catch(() => {});
  const pssSettled = crashed ? null : browserPss();
  const kinds1 = pssByKind();
  /** @type {Record<string, number>} growth by process kind, MB */
  const growthByKind = {};
  for (const k of new Set([...Object.keys(kinds0), ...Object.keys(kinds1)])) growthByKind[k] = Math.round(((kinds1[k] || 0) - (kinds0[k] || 0)) / 1048576);
  const browserMemory =
    pss0 == null || pssEnd == null
      ? null
      : { before: pss0, peak: pssPeak, end: pssEnd, peakGrowth: pssPeak - pss0, endGrowth: pssEnd - pss0, settledGrowth: pssSettled == null ? null : pssSettled - pss0 };
  const b = crashed ? null : await page.evaluate(() => window.__bench).catch(() => null);
  if (b?.error) outcome = `error shown: ${b.error}`;
  let mem = null;
  if (!crashed) {
    try {
      const cdp = await page.context().newCDPSession(page);
      const m = await cdp.send('Performance.enable').then(() => cdp.send('Performance.getMetrics'));
      mem = Object.fromEntries(m.metrics.filter((x) => /JSHeap/.test(x.name)).map((x) => [x.name, x.value]));
    } catch {
      mem = null;
    }
  }
  const heaps = crashed ? null : await heapsByTarget(page).catch(() => null);
  // (heapsByTarget collected every heap's garbage: what the growth was without it)
  const pssCollected = crashed ? null : browserPss();
  // the flame chart: its first draw once shown, and its redraws while the wheel zooms in on its middle (the
  // draw's own time, canvas data-draw-ms: the lanes' boxes of every call or sample in view)
  let chartDraws = null;
  if (!crashed && outcome === 'ok') {
    try {
      const clickedAt = await page.evaluate(() => performance.now() - (window.__bench.t0 ?? 0));
      await page.getByRole('tab', { name: 'Flame chart' }).click();
      const canvas = page.locator('[data-testid="flame-chart"] canvas[data-draw-ms]').first();
      await expect(canvas).toBeVisible({ timeout: 60000 });
      const drawMs = async () => Number(await canvas.getAttribute('data-draw-ms'));
      const first = await drawMs();
      const box = await canvas.boundingBox();
      const zooms = [];
      const answers = []; // exact calls (XRay): ms from the wheel to the worker's boxes of the new view drawn
      const attr = (/** @type {string} */ name) => page.evaluate((n) => document.querySelector('[data-testid="flame-chart"]')?.getAttribute(n) ?? '', name);
      for (let i = 0; i < 6 && box; i++) {
        const before = await attr('data-view');
        await page.mouse.move(box.x + box.width / 2, box.y + Math.min(80, box.height / 2));
        const t0 = Date.now();
        await page.mouse.wheel(0, i < 3 ? -100 : 100);
        await expect.poll(() => attr('data-view')).not.toBe(before);
        if ((await attr('data-boxes-view')) !== '') {
          const now = await attr('data-view');
          await expect.poll(() => attr('data-boxes-view'), { intervals: [5, 10, 20] }).toBe(now);
          answers.push({ seen: Date.now() - t0, asked: Number(await attr('data-boxes-ms')) });
        }
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
        zooms.push(await drawMs());
      }
      // the main thread's long tasks from the tab's click on (laying the lanes out, the draws)
      const busy = await page.evaluate((at) => (window.__bench.longTasks || []).filter((x) => x.at >= at), clickedAt);
      chartDraws = { first, zooms, answers, busy };
    } catch (e) {
      chartDraws = { error: String(e.message).split('\n')[0] };
    }
  }
  const ms = (v) => (v == null ? '–' : `${Math.round(v)} ms`);
  const mbOf = (v) => (v == null ? '–' : `${(v / 1048576).toFixed(0)} MB`);
  console.log(
    [
      '',
      `== browser benchmark: ${name} (${(bytes / 1048576).toFixed(0)} MB perf.data, headless chromium ${browser.version()}) ==`,
      `outcome: ${outcome}`,
      `drop -> first progress message from the worker: ${ms(b?.t.firstProgress)}`,
      `drop -> first hex paint (file's first bytes shown): ${ms(b?.t.hex)}`,
      `drop -> decode done in the worker (its last progress message): ${ms(b?.t.decodeDone)}`,
      `drop -> 'decoded' message at the page: ${ms(b?.t.decodedMessage)} (the worker's work after decode: ${ms(b?.t.decodedMessage - b?.t.decodeDone)})`,
      `in the worker: decode ${ms(b?.worker?.decodeMs)} (its reads: ${ms(b?.worker?.readMs)}, ${b?.worker?.reads ?? '–'} reads of ${mbOf(b?.worker?.readBytes)}, ` +
        `${mbOf(b?.worker?.fromChunks)} from the read-ahead in ${b?.worker?.chunks ?? '–'} chunks, ${b?.worker?.freshChunks ?? '–'} of them in buffers made for them; waiting for it: ${ms(b?.worker?.waitMs)} in ${b?.worker?.pauses ?? '–'} pauses), ` +
        `then ${ms(b?.worker?.afterMs)} reading the session and laying out what the page shows ${JSON.stringify(b?.worker?.laps ?? {})}`,
      `drop -> summary filled (decode finished): ${ms(b?.t.summary)}`,
      `drop -> flame graph painted: ${ms(b?.t.flame)}${b?.firstView ? ` (the page opened on its ${b.firstView})` : ''}`,
      `drop -> 'tables' message (the record table, its index, composition) at the page: ${ms(b?.t.tablesMessage)} (made in ${ms(b?.tablesWorker?.tablesMs)}: ${JSON.stringify(b?.tablesWorker?.laps ?? {})}); record tree shown: ${ms(b?.t.recordTree)}`,
      `drop -> 'timeline' message (the flame chart's lanes and calls) at the page: ${ms(b?.t.timelineMessage)} (made in ${ms(b?.timelineWorker?.tablesMs)}: ${JSON.stringify(b?.timelineWorker?.laps ?? {})})`,
      `drop -> 'account' message (XRay's account: its Functions view) at the page: ${ms(b?.t.accountMessage)} (made in ${ms(b?.accountWorker?.tablesMs)})`,
      `flame chart draw (once the timeline is in; canvas data-draw-ms): ${chartDraws?.error ?? (chartDraws ? `first ${chartDraws.first.toFixed(1)} ms, while zooming in and out ${chartDraws.zooms.map((v) => v.toFixed(1)).join(', ')} ms${chartDraws.answers.length ? `; the worker's boxes of each new view answered in ${chartDraws.answers.map((a) => a.asked.toFixed(0)).join(', ')} ms (from the chart's question; as the test sees them, from the wheel: ${chartDraws.answers.map((a) => a.seen).join(', ')} ms)` : ''}; the main thread busy 50 ms or more at a time from the tab's click on: ${chartDraws.busy.map((x) => `${x.ms} ms`).join(', ') || 'never'}` : '–')}`,
      `the page's main thread busy 50 ms or more at a time, from the drop until the views were drawn: ${b?.longTasks ? (() => { const lt = b.longTasks.filter((x) => x.at >= 0); return `${lt.length} times, ${lt.reduce((n, x) => n + x.ms, 0)} ms in all, the longest ${lt.reduce((m, x) => Math.max(m, x.ms), 0)} ms (${[...lt].sort((x, y) => y.ms - x.ms).slice(0, 4).map((x) => `${x.ms} ms at ${x.at} ms`).join(', ')})`; })() : '–'}`,
      `a request sent on 'decoded' (a record label) answered at ${ms(b?.t.probeAnswer)} (its wait: ${ms(b?.t.probeAnswer != null && b?.t.decodedMessage != null ? b.t.probeAnswer - b.t.decodedMessage : null)})`,
      `typed arrays the page holds: ${mbOf(b?.worker?.postedBytes)} from 'decoded', ${mbOf(b?.tablesWorker?.postedBytes)} from 'tables', ${mbOf(b?.timelineWorker?.postedBytes)} from 'timeline'`,
      `records ${b?.records ?? '–'}, samples ${b?.samples ?? '–'}; WASM heap after decoding ${mbOf(b?.heapBytes)}; page JS heap ${mem ? mbOf(mem.JSHeapUsedSize) + ' used / ' + mbOf(mem.JSHeapTotalSize) + ' total' : '–'}`,
      `browser memory (PSS of chromium's processes): ${browserMemory ? `${mbOf(browserMemory.before)} before the drop, peak +${mbOf(browserMemory.peakGrowth)} (${(browserMemory.peakGrowth / bytes).toFixed(2)}x the file), +${mbOf(browserMemory.endGrowth)} once drawn (${(browserMemory.endGrowth / bytes).toFixed(2)}x), +${mbOf(browserMemory.settledGrowth)} 3 s later (${((browserMemory.settledGrowth ?? 0) / bytes).toFixed(2)}x)` : '–'}`,
      `browser memory growth by process kind, 3 s later (MB): ${JSON.stringify(growthByKind)}`,
      `browser memory once every V8 heap was collected: +${mbOf(pssCollected == null || pss0 == null ? null : pssCollected - pss0)}${pssCollected == null || pss0 == null ? '' : ` (${((pssCollected - pss0) / bytes).toFixed(2)}x)`}`,
      `V8 heaps 3 s later, by target (MB: JS used / ArrayBuffers and WASM memories): ${heaps ? heaps.map((h) => `${h.what} ${mbOf(h.used)} / ${mbOf(h.backing)}`).join(', ') : '–'}`,
      `(test wall from setInputFiles: ${wall} ms; load average ${load})`,
      `BENCH_JSON ${JSON.stringify({ file: name, bytes, outcome, load, t: b?.t ?? null, worker: b?.worker ?? null, tablesWorker: b?.tablesWorker ?? null, timelineWorker: b?.timelineWorker ?? null, accountWorker: b?.accountWorker ?? null, chartDraws, heapBytes: b?.heapBytes ?? null, records: b?.records ?? null, samples: b?.samples ?? null, jsHeap: mem, heaps, browserMemory })}`,
    ].join('\n'),
  );
  expect(outcome, 'the browser benchmark did not finish (see the printed outcome)').toBe('ok');
  await expect(summaryField(page, 'records')).not.toHaveText('–');
});

/**
 * The V8 heap of the page and of each of its workers (CDP Runtime.getHeapUsage: JS objects used, and the
 * backing stores of ArrayBuffers, WASM memories among them), for where the renderer's growth is.
 * @param {import('@playwright/test').Page} page
 * @returns {Promise<{what: string, used: number, backing: number | null}[]>}
 */
async function heapsByTarget(page) {
  const cdp = await page.context().newCDPSession(page);
  const own = await cdp.send('Runtime.getHeapUsage');
  const out = [{ what: 'page', used: own.usedSize, backing: own.backingStorageSize ?? null }];
  /** @type {Map<number, (r: any) => void>} */
  const due = new Map();
  /** @type {{sessionId: string, url: string}[]} */
  const workers = [];
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message);
    due.get(m.id)?.(m.result);
  });
  cdp.on('Target.attachedToTarget', (e) => workers.push({ sessionId: e.sessionId, url: e.targetInfo.url }));
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await new Promise((r) => setTimeout(r, 300));
  let id = 1;
  for (const w of workers) {
    /** @param {string} method */
    const ask = (method) =>
      Promise.race([
        new Promise((resolve) => {
          const n = id++;
          due.set(n, resolve);
          cdp.send('Target.sendMessageToTarget', { sessionId: w.sessionId, message: JSON.stringify({ id: n, method }) }).catch(() => resolve(null));
        }),
        new Promise((r2) => setTimeout(() => r2(null), 5000)),
      ]);
    const r = /** @type {any} */ (await ask('Runtime.getHeapUsage'));
    const what = path.basename(String(w.url)).replace(/\?.*$/, '') || 'worker';
    if (r) out.push({ what, used: r.usedSize, backing: r.backingStorageSize ?? null });
    // and once collected: what of it was garbage
    await ask('HeapProfiler.collectGarbage');
    const g = /** @type {any} */ (await ask('Runtime.getHeapUsage'));
    if (g) out.push({ what: `${what} (collected)`, used: g.usedSize, backing: g.backingStorageSize ?? null });
  }
  await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
  const g = await cdp.send('Runtime.getHeapUsage');
  out.push({ what: 'page (collected)', used: g.usedSize, backing: g.backingStorageSize ?? null });
  await cdp.detach().catch(() => {});
  return out;
}
