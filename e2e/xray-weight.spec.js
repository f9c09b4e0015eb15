// XRay by time (issue 14, item 4): XRay graphs are weighted by each call's duration by
// default, with a switch to calls, in every view; perf offers samples / period.
import { test, expect } from '@playwright/test';
import path from 'node:path';
import { REPO, shot, waitDecoded, watchErrors } from './helpers.js';

const CASE = path.join(REPO, 'tests', 'data', 'xray', 'fdr_calltree');

/** The call tree's "run(int, char**)" row: its share of the whole, in percent. */
async function runShare(page) {
  const row = page.getByTestId('call-tree').locator('.ct-row', { hasText: 'run(int, char**)' }).first();
  const total = await row.locator('.ct-total').textContent();
  return Number(/([\d.]+)%/.exec(total)[1]);
}

test('an XRay log is weighted by time by default; "Calls" counts calls', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(CASE, 'xray.log'), path.join(CASE, 'xray_calltree')]);
  await waitDecoded(page, 'xray.log');
  const weight = page.getByRole('radiogroup', { name: 'Weight' });
  await expect(weight.getByLabel('Time')).toBeChecked();
  const flame = page.getByRole('tabpanel', { name: 'Flame graph' }).getByRole('img');
  await expect(flame).toHaveAttribute('aria-label', /by time/);
  await expect(page.getByTestId('flame-zoom')).toContainText(/\d(\.\d)? (ns|µs|ms|s) · click/);
  await shot(page, '43-xray-flame-by-time');
  // by time, run()'s own row holds its whole duration once (llvm-xray stack: 101692 ticks)
  // and its self time is what its callees do not take; by calls, run is 1 call of 56
  await page.getByRole('tab', { name: 'Call tree' }).click();
  await expect.poll(() => runShare(page)).toBe(100);
  const runRow = page.getByTestId('call-tree').locator('.ct-row', { hasText: 'run(int, char**)' }).first();
  // in time units (101,692 TSC ticks at the file's cycle frequency), not raw ticks (issue 14 item 7)
  await expect(runRow.locator('.ct-total')).toContainText(/^[\d.]+ (ns|µs|ms|s) 100/);
  await expect(runRow.locator('.ct-total')).not.toContainText('101,692');
  await weight.getByLabel('Calls').check();
  await expect(runRow.locator('.ct-total')).toContainText('56'); // every call is under run (stack_flame_count.txt sums to 56)
  await expect(runRow.locator('.ct-self')).toHaveText(/^1\b/);
  // run's calls (every call is under it) and their records come from the worker, which keeps each call's
  // node (the page holds no array of them for a tracer's log); the first one's record is selected
  await runRow.click();
  const strip = page.getByTestId('frame-samples');
  await expect(strip).toContainText('56 calls');
  await expect(page.getByTestId('frame-sample-pos')).toHaveText('1 / 56');
  await expect(strip).toContainText(/call #\d+ .* · record \d+ at 0x/);
  await page.getByRole('button', { name: 'Next call' }).click();
  await expect(page.getByTestId('frame-sample-pos')).toHaveText('2 / 56');
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  await expect(flame).toHaveAttribute('aria-label', /calls by count/);
  // the selected record's call is marked: its stack, also from the worker (the root, the thread, run and the
  // call's own frames: a node answered wrong, the root's or none, marks 1 or 0)
  await expect.poll(async () => Number(await page.locator('.flame-graph').getAttribute('data-marked'))).toBeGreaterThanOrEqual(3);
  await shot(page, '44-xray-flame-by-calls');
  // back to time: the choice is part of the view state (the URL)
  await weight.getByLabel('Time').check();
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toContain('"weight":"time"');
  errs.check();
});

test('perf offers samples (default) or period', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const weight = page.getByRole('radiogroup', { name: 'Weight' });
  await expect(weight.getByLabel('Samples')).toBeChecked();
  const flame = page.getByRole('tabpanel', { name: 'Flame graph' }).getByRole('img');
  await expect(flame).toHaveAttribute('aria-label', /305 samples/);
  await weight.getByLabel('Period').check();
  // cpu-clock's period is the sampling interval in ns: 305 samples of 250 µs each (4000 Hz)
  await expect(flame).toHaveAttribute('aria-label', /cpu-clock:ppp: 305,000,000 period by period/);
  errs.check();
});
