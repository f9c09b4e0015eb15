// Flame chart lanes that tell the truth (issue 14 item 5): every sample as wide as its sampling
// interval (a thread with one sample is seen), lanes busiest first with collapse / pin / hide, an
// overview track for files with many threads, one time zero for the ruler and the range chip,
// ruler ticks on round values.
import { test, expect } from '@playwright/test';
import path from 'node:path';
import { DATA, dataFile, openFile, shot, watchErrors } from './helpers.js';

const chart = (page) => page.getByTestId('flame-chart');
const scroller = (page) => chart(page).locator('.flame-scroll');

/** Coloured (not background) pixels of the canvas row at CSS y, over its whole width. */
async function inkOnRow(page, y) {
  return chart(page)
    .locator('canvas.flame-canvas')
    .evaluate((c, yy) => {
      const ctx = c.getContext('2d');
      const dpr = c.width / c.clientWidth;
      const row = ctx.getImageData(0, Math.round(yy * dpr), c.width, 1).data;
      let n = 0;
      for (let i = 0; i < row.length; i += 4) if (row[i + 3] > 0) n++;
      return n / dpr;
    }, y);
}

/** The lane names in the order they are drawn (the names of their controls), of the lanes in view. */
async function laneOrder(page) {
  return page.getByTestId('lane-controls').evaluateAll((els) => els.map((e) => e.getAttribute('data-lane')));
}

test.describe('flame chart lanes', () => {
  test('a thread with one sample draws a box as wide as its sampling interval', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    // simpleperf perf_with_meta_info: one thread, one sample of cpu-cycles recorded at 4000 Hz
    await openFile(page, path.join(DATA, '..', 'simpleperf', 'perf_with_meta_info', 'perf.data'));
    await page.getByRole('tab', { name: 'Flame chart' }).click();
    await expect(page.getByTestId('chart-status')).toContainText('1 lane ·');
    await expect(page.getByTestId('chart-status')).toContainText('a sample is drawn 250.0 µs wide (1 / the sampling frequency)');
    await expect(chart(page).getByRole('img')).toHaveAttribute('aria-label', 'Flame chart: 1 thread, 1 sample');
    // its stack rows (ruler 20 + lane title 15 + markers 18, then 16 px rows) have ink, as wide as 250 µs
    const [v0, v1] = (await chart(page).getAttribute('data-view')).split(',').map(Number);
    const width = await chart(page).locator('canvas.flame-canvas').evaluate((c) => c.clientWidth);
    const expected = (250e3 / (v1 - v0)) * width;
    const ink = await inkOnRow(page, 20 + 33 + 8);
    expect(ink).toBeGreaterThanOrEqual(1);
    expect(ink).toBeLessThanOrEqual(Math.max(1, expected) + 2);
    await shot(page, 'lanes-01-one-sample');
    // hovering it names the sample and its time from the start of the file
    const box = await chart(page).locator('canvas.flame-canvas').boundingBox();
    await page.mouse.move(box.x + 1, box.y + 20 + 33 + 8);
    await expect(chart(page).getByRole('tooltip')).toContainText(/sample #0 at 0 ns · 1 sample in this call node/);
    errs.check();
  });

  test('lanes busiest first; collapse, pin and hide them; the overview track', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    // quipper_i686_perf3.4: 206 threads, 11 with samples (perf 418, swapper 255, sleep 8, powerd 5, ...)
    await openFile(page, dataFile('quipper_i686_perf3.4', 'perf.data'));
    // The "what is missing" panel (kallsyms, libc, ... were not dropped) takes the height the lanes need.
    await page.getByTestId('missing-panel').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('missing-panel')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Flame chart' }).click();
    await expect(page.getByTestId('chart-status')).toContainText('11 lanes ·');
    // cycles at -F 1000: a sample lasts 1 ms
    await expect(page.getByTestId('chart-status')).toContainText('a sample is drawn 1.00 ms wide (1 / the sampling frequency)');
    // pid 0 is perf's swapper (the idle task), named as perf script names it
    expect((await laneOrder(page)).slice(0, 4)).toEqual(['perf 15499/15499', 'swapper 0/0', 'sleep 15500/15500', 'powerd 939/939']);

    // hide: gone from the lanes, listed to be shown again
    await page.getByRole('button', { name: 'Hide lane sleep 15500/15500' }).click();
    await expect(page.getByTestId('chart-status')).toContainText('10 lanes (1 hidden)');
    expect((await laneOrder(page)).slice(0, 3)).toEqual(['perf 15499/15499', 'swapper 0/0', 'powerd 939/939']);
    await page.getByTestId('hidden-lanes').locator('summary').click();
    await expect(page.getByRole('button', { name: 'Show lane sleep 15500/15500' })).toContainText('8 samples');
    await shot(page, 'lanes-02-hidden-list');
    await page.getByRole('button', { name: 'Show lane sleep 15500/15500' }).click();
    await expect(page.getByTestId('chart-status')).toContainText('11 lanes ·');
    await expect(page.getByTestId('hidden-lanes')).toHaveCount(0);

    // pin: on top, whatever its samples
    await page.getByRole('button', { name: 'Pin lane powerd 939/939' }).click();
    expect((await laneOrder(page)).slice(0, 3)).toEqual(['powerd 939/939', 'perf 15499/15499', 'swapper 0/0']);
    await expect(page.getByRole('button', { name: 'Unpin lane powerd 939/939' })).toHaveAttribute('aria-pressed', 'true');

    // collapse: the lane keeps its title and one activity strip; the lanes below move up
    const topOf = (name) => page.locator(`[data-testid="lane-controls"][data-lane="${name}"]`).evaluate((e) => e.offsetTop);
    const before = await topOf('swapper 0/0');
    await page.getByRole('button', { name: 'Collapse lane perf 15499/15499' }).click();
    await expect(page.getByRole('button', { name: 'Expand lane perf 15499/15499' })).toHaveAttribute('aria-expanded', 'false');
    expect(await topOf('swapper 0/0')).toBeLessThan(before);
    await shot(page, 'lanes-03-pinned-collapsed');
    await page.getByRole('button', { name: 'Expand lane perf 15499/15499' }).click();
    expect(await topOf('swapper 0/0')).toBe(before);

    // the overview track: a row per lane; a click on the last row scrolls to the last lane
    const overview = page.getByTestId('lane-overview');
    await expect(overview).toHaveAttribute('aria-label', /Activity overview, 11 rows/);
    const ob = await overview.boundingBox();
    await page.mouse.click(ob.x + ob.width / 2, ob.y + ob.height - 1);
    await expect.poll(() => scroller(page).evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await shot(page, 'lanes-04-overview-scrolled');
    errs.check();
  });

  test('one time zero: the ruler and the range chip agree; ticks on round values', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await openFile(page, dataFile('quipper_i686_perf3.4', 'perf.data'));
    await page.getByRole('tab', { name: 'Flame chart' }).click();
    const canvas = chart(page).locator('canvas.flame-canvas');
    // ticks: 0 s, then multiples of a 1/2/5 x 10^n step, in one unit
    const ticks = (await canvas.getAttribute('data-ticks')).split('|');
    expect(ticks[0]).toMatch(/^0(\.0+)? (s|ms)$/);
    const vals = ticks.map((t) => parseFloat(t));
    const step = Number((vals[1] - vals[0]).toPrecision(6));
    expect(String(step)).toMatch(/^(1|2|5)(0*|\.0*)$|^0\.0*(1|2|5)$/);
    vals.forEach((v, i) => expect(v).toBeCloseTo(vals[0] + i * step, 6));
    // a range dragged on the ruler from the left edge to the tick at 1.0 s starts at 0 and ends there
    const box = await canvas.boundingBox();
    const [v0, v1] = (await chart(page).getAttribute('data-view')).split(',').map(Number);
    const zero = Number(await chart(page).getAttribute('data-zero'));
    expect(zero).toBe(v0); // the whole profile starts at the time zero
    const xAt = (tFromZero) => box.x + ((zero + tFromZero - v0) / (v1 - v0)) * box.width;
    await page.mouse.move(box.x + 0.5, box.y + 8);
    await page.mouse.down();
    await page.mouse.move(xAt(1e9), box.y + 8, { steps: 5 });
    await page.mouse.up();
    const chip = page.getByTestId('range-filter');
    await expect(chip).toContainText(/Range \d+(\.\d+)? (ns|µs|ms) – (1\.00\d s|99\d\.\d\d ms)/);
    const startText = (await chip.textContent()).match(/Range ([\d.]+) (ns|µs|ms)/);
    const startNs = Number(startText[1]) * { ns: 1, µs: 1e3, ms: 1e6 }[startText[2]];
    expect(startNs).toBeLessThan(((v1 - v0) / box.width) * 1.5); // within a pixel of 0, not 67 ms off
    await shot(page, 'lanes-05-range-from-zero');
    errs.check();
  });
});
