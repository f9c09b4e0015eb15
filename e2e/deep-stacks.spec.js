// No input makes the page hang (issue 16): one thread recursing 100 000 deep (an XRay FDR log made from a
// real log's header by tests/node/hostile/make-hostile-formats.mjs deepXRay, as the CLI's hostile set has
// it) is decoded, drawn and browsed: flame graph, call tree, flame chart, and the views made from every
// stack's path (inverted tree, sandwich, transforms), in time linear in the stacks. A chain of 20 000
// distinct functions, each call a sample, has an inverted tree of 200 M nodes: the page shows its heaviest
// 1 M nodes and says so.
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

  // the inverted tree: #1's chain 100 000 deep, thread_7 below each call (walking each stack would be
  // 5e9 steps: minutes)
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  await page.getByLabel('Invert', { exact: true }).check();
  await expect(page.getByRole('treegrid', { name: /inverted/ })).toBeVisible({ timeout: 20_000 });
  const root = tree.locator('.ct-row[aria-level="1"]');
  await expect(root).toHaveCount(1);
  await expect(root.locator('.ct-name')).toHaveAttribute('title', '#1');
  await expect(page.getByTestId('view-error')).toHaveCount(0);
  await page.getByLabel('Invert', { exact: true }).uncheck();
  await expect(page.getByRole('treegrid', { name: /inverted/ })).toHaveCount(0);
  await expect(tree.locator('.ct-row[aria-level="1"] .ct-name')).toHaveAttribute('title', 'thread_7');
  // the sandwich of #1: its callers are thread_7 alone, its callees none (the recursion merges into it)
  const f1 = '.ct-name[title="#1"]';
  await tree.locator(`.ct-row:has(${f1})`).first().click();
  await page.getByRole('button', { name: 'Sandwich', exact: true }).click();
  await expect(page.getByTestId('sandwich-callers').locator('.ct-row .ct-name')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('sandwich-callers').locator('.ct-name[title="thread_7"]')).toHaveCount(1);
  await expect(page.getByTestId('sandwich-callees').locator('.ct-row .ct-name')).toHaveCount(1);
  await expect(page.getByTestId('sandwich-callees').locator(f1)).toHaveCount(1);
  await shot(page, '50b-deep-100k-sandwich');
  // collapse recursion: thread_7 > #1, one row each
  await page.getByRole('tab', { name: 'Call tree' }).click();
  await tree.locator(`.ct-row:has(${f1})`).first().click();
  await page.getByRole('button', { name: 'Collapse recursion', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Transforms' })).toContainText('Collapse recursion: #1');
  await expect(tree.locator(f1)).toHaveCount(1, { timeout: 20_000 });
  errs.check();
  fs.rmSync(file);
});

test('an inverted tree too large to build whole: the page shows its heaviest part and says so, and the sandwich draws both halves', async ({ page }) => {
  test.setTimeout(120_000);
  const errs = watchErrors(page);
  const file = path.join(REPO, 'test-results', 'chain_xray_20k.log');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, deepXRay(fs.readFileSync(path.join(REPO, 'tests', 'data', 'xray', 'fdr_threads', 'xray.log')), 20000, { distinct: true }));
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(file);
  await waitDecoded(page, 'chain_xray_20k.log');
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  // a transform first: it stays, with its undo history
  await tree.locator('.ct-row:has(.ct-name[title="#2"])').first().click();
  await page.getByRole('button', { name: 'Merge', exact: true }).click();
  const transforms = page.getByRole('list', { name: 'Transforms' }).locator('li');
  await expect(transforms).toHaveCount(1);
  await expect(tree.locator('.ct-name[title="#2"]')).toHaveCount(0);
  // inverted, the chain's 200 M nodes: its heaviest 1 M, said so; every function of the chain a root
  await page.getByLabel('Invert', { exact: true }).check();
  const notice = page.getByTestId('view-notice');
  await expect(notice).toContainText('This view is shown in part: the inverted tree of these stacks is too large to show whole: it shows 1.0 M nodes, the heaviest first', {
    timeout: 30_000,
  });
  await expect(notice).toContainText('without all their callers (each hiding a weight of at most');
  await expect(page.getByTestId('view-error')).toHaveCount(0);
  await expect(page.getByLabel('Invert', { exact: true })).toBeChecked();
  const inverted = page.getByRole('treegrid', { name: /inverted/ });
  await expect(inverted).toHaveCount(1);
  // its roots are the chain's functions (each call's own time), named
  await expect(inverted.locator('.ct-row .ct-name').first()).toHaveAttribute('title', /^#\d+$/, { timeout: 20_000 });
  await expect(transforms).toHaveCount(1);
  await shot(page, '51-inverted-in-part');
  // not inverted: the notice goes
  await page.getByLabel('Invert', { exact: true }).uncheck();
  await expect(notice).toHaveCount(0, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(transforms).toHaveCount(0);
  await expect(tree.locator('.ct-name[title="#2"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(transforms).toHaveCount(1);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(transforms).toHaveCount(0);
  // the sandwich of the outermost function (#1): callers thread_7, callees the whole chain
  await tree.locator('.ct-row:has(.ct-name[title="#1"])').first().click();
  await page.getByRole('button', { name: 'Sandwich', exact: true }).click();
  await expect(page.getByTestId('sandwich-callers').locator('.ct-row .ct-name')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('sandwich-callers').locator('.ct-name[title="thread_7"]')).toHaveCount(1);
  await expect(page.getByTestId('sandwich-callees').locator('.ct-name[title="#1"]')).toHaveCount(1);
  await expect(page.getByTestId('sandwich-callees').locator('.ct-name[title="#2"]')).toHaveCount(1);
  await shot(page, '51b-chain-sandwich');
  errs.check();
  fs.rmSync(file);
});
