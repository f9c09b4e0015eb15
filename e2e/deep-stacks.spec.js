// No input makes the page hang (issue 16): one thread recursing 100 000 deep (an XRay FDR log made from a
// real log's header by tests/node/hostile/make-hostile-formats.mjs deepXRay, as the CLI's hostile set has
// it) is decoded, drawn and browsed: flame graph, call tree, flame chart.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { deepXRay } from '../tests/node/hostile/make-hostile-formats.mjs';
import { num, REPO, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

test('one thread recursing 100 000 deep: the flame graph, call tree and flame chart draw it', async ({ page }) => {
  test.setTimeout(120_000);
  const errs = watchErrors(page);
  const file = path.join(REPO, 'test-results', 'deep_xray_100k.log');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, deepXRay(fs.readFileSync(path.join(REPO, 'tests', 'data', 'xray', 'fdr_threads', 'xray.log')), 100000));
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(file);
  await waitDecoded(page, 'deep_xray_100k.log');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(100000);
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  await expect(page.locator('canvas.flame-canvas')).toHaveAttribute('aria-label', 'Flame graph of calls: 200.0 µs by time');
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const rows = page.getByRole('tabpanel', { name: 'Call tree' }).getByRole('row');
  await expect(rows.filter({ hasText: 'thread_7' })).toHaveCount(1);
  expect(await rows.filter({ hasText: '#1' }).count()).toBeGreaterThan(3);
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await expect(page.getByTestId('flame-chart').getByRole('img')).toHaveAttribute('aria-label', /^Flame chart: 1 thread, 100,000 /);
  await shot(page, '50-deep-100k');
  // (not here: the inverted call tree, the sandwich and the transforms walk every stack's whole path, so on
  // this recursion they take minutes; see issue 16's notes)
  errs.check();
  fs.rmSync(file);
});
