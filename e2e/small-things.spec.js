// Smaller things people hit (issue 14 item 7): go to offset inline with a transient message for a
// bad one; times from the start of the file; the gperftools flame chart's order and counts; an
// unrecognised file names the formats tried; singular/plural; XRay call tree times in time units.
import { test, expect } from '@playwright/test';
import path from 'node:path';
import { REPO, dataFile, openFile, shot, waitDecoded, watchErrors } from './helpers.js';

test('go to offset: an inline field; a bad offset is a message that goes away', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    d.dismiss();
  });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('g');
  const field = page.getByLabel('Go to offset');
  await expect(field).toBeFocused();
  await field.fill('0x7fffffff');
  await field.press('Enter');
  const msg = page.getByTestId('goto-message');
  await expect(msg).toContainText('0x7fffffff is past the end of the file');
  await shot(page, 'small-01-goto-bad-offset');
  await expect(page.getByRole('alert')).toHaveCount(0); // no "Could not open" banner
  await expect(msg).toHaveCount(0, { timeout: 6000 }); // it goes away by itself
  await field.fill('64');
  await field.press('Enter');
  await expect(page.getByTestId('hex-selection')).toContainText('Selection');
  expect(dialogs).toBe(0); // no window.prompt
  errs.check();
});

test('gperftools: the flame chart says its records are not in time order; its lane counts the samples', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await openFile(page, path.join(REPO, 'tests', 'data', 'gperf', 'pprof_cppbench_cpu', 'cpu.prof'));
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  const status = page.getByTestId('chart-status');
  await expect(status).toContainText('records not in time order (the file has no times): stacks in file order, each as wide as its sample count');
  // 712 samples (the summary's total) in its one lane, not its number of stack records
  await expect(page.getByTestId('flame-chart').getByRole('img')).toHaveAttribute('aria-label', 'Flame chart: 1 thread, 712 samples');
  await expect(page.locator('.sum-item[data-field="samples"] dd')).toHaveText('712');
  const lane = page.getByTestId('lane-controls').first();
  await expect(lane.getByRole('button', { name: /^Hide lane / })).toBeVisible();
  await lane.getByRole('button', { name: /^Hide lane / }).click();
  await page.getByTestId('hidden-lanes').locator('summary').click();
  await expect(page.getByTestId('hidden-lanes')).toContainText('712 samples');
  await shot(page, 'small-02-gperf-chart');
  errs.check();
});

test('an unrecognised file says which formats were tried', async ({ page }) => {
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(dataFile('quipper_singleprocess_perf3.8', 'header.txt'));
  await expect(page.getByTestId('file-name')).toContainText('header.txt');
  await page.getByRole('tab', { name: /Diagnostics/ }).click();
  const diag = page.getByRole('tabpanel', { name: /Diagnostics/ });
  await expect(diag).toContainText('the formats tried');
  await expect(diag).toContainText('Linux perf.data and Android simpleperf');
  await expect(diag).toContainText('LLVM XRay');
  await expect(diag).toContainText('gperftools CPU profile');
  await expect(diag).toContainText('jit dump');
  await shot(page, 'small-03-unknown-format');
});

test('one of a thing is singular: 1 sample, 1 thread, 1 function matches', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await openFile(page, path.join(REPO, 'tests', 'data', 'simpleperf', 'perf_with_meta_info', 'perf.data'));
  await expect(page.getByTestId('analysis-samples')).toHaveText('1 sample');
  await page.getByRole('tab', { name: 'Functions' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Functions' })).toContainText(/\b\d+ functions ·|^1 function ·/);
  await page.getByLabel('Search functions').fill('/libaudioclient\\.so\\[\\+81dec\\]$/');
  await expect(page.getByTestId('search-count')).toHaveText('1 function matches');
  errs.check();
});
