// A tracer's flame chart lanes hold no entry per call (web/src/worker/tables.js: an XRay log's lanes are a
// summary per thread; its calls stay in the worker): the lanes' titles and order, a collapsed lane's activity
// strip and the overview track of a log of ten threads (an FDR log made from a real log's header by
// tests/node/xray-threads.mjs, one buffer a thread) are drawn from the worker's answers, and a selected call's entry record marks its lane.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, shot, waitDecoded, watchErrors } from './helpers.js';
import { threadsXRay } from '../tests/node/xray-threads.mjs';

const chart = (/** @type {import('@playwright/test').Page} */ page) => page.getByTestId('flame-chart');

/** Coloured (not background) CSS pixels of a canvas row at CSS y. */
async function inkOnRow(/** @type {import('@playwright/test').Locator} */ canvas, /** @type {number} */ y) {
  return canvas.evaluate((c, yy) => {
    const ctx = /** @type {HTMLCanvasElement} */ (c).getContext('2d');
    if (!ctx) return 0;
    const dpr = /** @type {HTMLCanvasElement} */ (c).width / c.clientWidth;
    const row = ctx.getImageData(0, Math.round(yy * dpr), /** @type {HTMLCanvasElement} */ (c).width, 1).data;
    let n = 0;
    for (let i = 0; i < row.length; i += 4) if (row[i] < 235 && row[i + 3] > 0) n++;
    return n / dpr;
  }, y);
}

test("an XRay log's lanes: titles, order, a collapsed lane's strip and the overview, from the worker", async ({ page }) => {
  test.setTimeout(60_000);
  const errs = watchErrors(page);
  const file = path.join(REPO, 'test-results', 'xray_10_threads.log');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, threadsXRay(fs.readFileSync(path.join(REPO, 'tests', 'data', 'xray', 'fdr_threads', 'xray.log')), 10));
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(file);
  await waitDecoded(page, 'xray_10_threads.log');
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  const status = page.getByTestId('chart-status');
  await expect(status).toContainText('10 lanes ·');
  await expect(status).toContainText('each call drawn from its exact enter and exit times');
  // busiest first: thread 109's 160 calls (80 of function 1, each with one of function 2) on top
  const names = await page.getByTestId('lane-controls').evaluateAll((els) => els.map((e) => e.getAttribute('data-lane')));
  expect(names[0]).toMatch(/ 4242\/109$/);
  expect(names[1]).toMatch(/ 4242\/108$/);
  // a lane's calls, counted by the worker (the hidden lanes list names them)
  await page.getByRole('button', { name: `Hide lane ${names[0]}` }).click();
  await page.getByTestId('hidden-lanes').locator('summary').click();
  await expect(page.getByTestId('hidden-lanes')).toContainText('160 calls');
  await page.getByRole('button', { name: 'Show all' }).click();
  await expect(status).toContainText('10 lanes ·');

  // the overview track: a row per lane, drawn once the worker counted every lane's calls
  const overview = page.getByTestId('lane-overview');
  await expect(overview).toHaveAttribute('aria-label', /Activity overview, 10 rows/);
  await expect.poll(() => inkOnRow(overview, 1)).toBeGreaterThan(10);

  // collapse the busiest lane: its strip (below the 20 px ruler, 15 px title and 18 px markers) is the worker's
  const canvas = chart(page).locator('canvas.flame-canvas');
  const stripY = 20 + 15 + 18 + 1 + 4;
  await page.getByRole('button', { name: `Collapse lane ${names[0]}` }).click();
  await expect(page.getByRole('button', { name: `Expand lane ${names[0]}` })).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(() => inkOnRow(canvas, stripY)).toBeGreaterThan(10);
  await shot(page, 'xray-lanes-01-collapsed-overview');
  // zoomed in, the strip is asked for again, for the new view
  await page.getByTitle('Zoom in (+)').click();
  await page.getByTitle('Zoom in (+)').click();
  await expect.poll(() => inkOnRow(canvas, stripY)).toBeGreaterThan(10);
  await page.getByTitle('Whole profile (0)').click();
  await page.getByRole('button', { name: `Expand lane ${names[0]}` }).click();

  // a click on a call selects its entry record; its sample is marked in its lane (from the worker's time)
  await expect(chart(page)).not.toHaveAttribute('data-boxes-view', '');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas');
  // the busiest lane's first row of calls (ruler 20, title 15, markers 18, then 16 px rows): the first column
  // right of the middle whose call the tooltip names
  const row = 20 + 33 + 8;
  let picked = false;
  for (let x = Math.floor(box.width * 0.5); x < box.width - 2 && !picked; x += 3) {
    await page.mouse.move(box.x + x, box.y + row);
    if (await chart(page).getByRole('tooltip').isVisible()) {
      await page.mouse.click(box.x + x, box.y + row);
      picked = true;
    }
  }
  expect(picked).toBe(true);
  await expect.poll(async () => Number(await chart(page).getAttribute('data-marked-sample'))).toBeGreaterThanOrEqual(0);
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await shot(page, 'xray-lanes-02-marked-call');
  errs.check();
  fs.rmSync(file);
});
