// Benchmark (printed, not asserted) of the flame chart with 1,000,000 samples: frame time
// while panning and zooming, and the time to re-aggregate after a range selection.
// Runs only with PROFSCOPE_BENCH=1 (it decodes a 126 MB synthetic file):
//   node e2e/bench/make-big-pipe.mjs && PROFSCOPE_BENCH=1 npx playwright test -c e2e/playwright.config.js e2e/bench.spec.js
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, shot, waitDecoded } from './helpers.js';

const BIG = path.join(REPO, 'build', 'bench', 'big.pipe.data');
test.skip(!process.env.PROFSCOPE_BENCH, 'set PROFSCOPE_BENCH=1 to run the benchmark');

test('flame chart with 1M samples: pan/zoom frame time, re-aggregation after a range', async ({ page }) => {
  test.setTimeout(600_000);
  if (!fs.existsSync(BIG)) throw new Error(`run: node e2e/bench/make-big-pipe.mjs  (missing ${BIG})`);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const t0 = Date.now();
  await page.getByTestId('file-input').setInputFiles(BIG);
  await expect(page.getByTestId('file-name')).toContainText('big.pipe.data', { timeout: 300_000 });
  await expect(page.getByRole('status', { name: 'Decoding progress' })).toHaveCount(0, { timeout: 300_000 });
  const openMs = Date.now() - t0;
  await expect(page.getByTestId('analysis-samples')).toContainText('1,000,000');
  const firstAgg = await page.getByTestId('analysis-samples').getAttribute('data-ms');
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  const canvas = page.getByRole('tabpanel', { name: 'Flame chart' }).getByRole('img');
  await expect(canvas).toHaveAttribute('aria-label', /1,000,000 samples/);

  // frame time: a key press -> the next two animation frames (state update + layout-effect draw + paint)
  const frames = await page.evaluate(async () => {
    const c = document.querySelector('.flame-chart canvas');
    c.focus();
    const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
    const out = { zoom: [], pan: [], drawZoom: [], drawPan: [] };
    const press = async (key, list, draws) => {
      const t = performance.now();
      c.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      await raf();
      await raf();
      list.push(performance.now() - t);
      draws.push(Number(c.dataset.drawMs));
    };
    for (let i = 0; i < 15; i++) await press('+', out.zoom, out.drawZoom);
    for (let i = 0; i < 30; i++) await press(i % 2 ? 'ArrowRight' : 'd', out.pan, out.drawPan);
    for (let i = 0; i < 15; i++) await press('-', out.zoom, out.drawZoom);
    return out;
  });
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return `median ${s[s.length >> 1].toFixed(1)} ms, p90 ${s[Math.floor(s.length * 0.9)].toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms (n=${s.length})`;
  };
  await page.keyboard.press('0');

  // range on the ruler: the worker re-aggregates
  const box = await canvas.boundingBox();
  const tr = Date.now();
  await page.mouse.move(box.x + box.width * 0.3, box.y + 8);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + 8, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('range-filter')).toBeVisible();
  await expect(page.getByTestId('analysis-samples')).not.toContainText('1,000,000', { timeout: 120_000 });
  await expect(page.getByTestId('analysis-samples')).not.toContainText('aggregating', { timeout: 120_000 });
  const rangeWall = Date.now() - tr;
  const rangeAgg = await page.getByTestId('analysis-samples').getAttribute('data-ms');
  const inRange = await page.getByTestId('analysis-samples').textContent();
  await shot(page, '90-bench-1M-range');
  console.log(
    [
      '',
      '== flame chart benchmark, 1,000,000 samples (synthetic pipe-mode perf.data, 126 MB) ==',
      `open (read + decode + index + first aggregation): ${openMs} ms; first aggregation in the worker ${firstAgg} ms`,
      `zoom (+/-): canvas draw ${stats(frames.drawZoom)}; key -> second animation frame ${stats(frames.zoom)}`,
      `pan (arrows/WASD): canvas draw ${stats(frames.drawPan)}; key -> second animation frame ${stats(frames.pan)}`,
      `range selection -> re-aggregated view: ${rangeWall} ms wall (worker aggregation ${rangeAgg} ms); ${inRange}`,
    ].join('\n'),
  );
});
