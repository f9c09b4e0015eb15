// The record table and the flame chart's lanes arrive after the rest of a decoded file (issue 16:
// the worker posts 'decoded' for the flame graph first, then 'tables': the record table, its index,
// composition; then 'timeline': the lanes and exact calls; then 'account': XRay's account). Here the page's
// 'tables', 'timeline' and 'account' messages are held back, so what a person sees in between is checked: the flame graph and the bytes are there, the record tree, composition and
// flame chart say what they wait for, a clicked byte says so too; once the tables are in, the same
// document gains its rows, shading, selection and lanes, and a shared link's selected record is
// applied then.
import { test, expect } from '@playwright/test';
import path from 'node:path';
import { num, REPO, shot, summaryField, watchErrors } from './helpers.js';

/**
 * Holds every message of the given types ('tables', 'timeline', 'account') from the decoding workers until
 * window.__releaseTables() (in their order).
 */
async function holdRecords(page, types = ['tables', 'timeline', 'account']) {
  await page.addInitScript((held_types) => {
    const held = [];
    let holding = true;
    const Orig = window.Worker;
    window.Worker = class extends Orig {
      set onmessage(fn) {
        super.onmessage = (e) => {
          if (holding && e.data && held_types.includes(e.data.type)) held.push(() => fn.call(this, e));
          else fn.call(this, e);
        };
      }
    };
    window.__tablesHeld = () => held.length;
    window.__releaseTables = () => {
      holding = false;
      for (const f of held.splice(0)) f();
    };
    window.__holdTables = () => {
      holding = true;
    };
  }, types);
}

/**
 * Opens the bundled sample, then the fdr_threads XRay log with its messages of the given types held (the
 * sample's are let through first: the worker's messages keep their order).
 */
async function openXRayHeld(page, types) {
  await holdRecords(page, types);
  await page.goto('./');
  await expect(page.getByTestId('file-name')).toContainText('calltree.perf.data');
  await expect.poll(() => page.evaluate(() => window.__tablesHeld())).toBe(types.length);
  await page.evaluate(() => window.__releaseTables());
  await page.evaluate(() => window.__holdTables());
  await page.getByTestId('file-input').setInputFiles([
    path.join(REPO, 'tests', 'data', 'xray', 'fdr_threads', 'xray.log'),
    path.join(REPO, 'tests', 'data', 'xray', 'fdr_threads', 'xray_threads'),
  ]);
  await expect(page.getByTestId('file-name')).toContainText('xray.log');
  await expect.poll(() => page.evaluate(() => window.__tablesHeld())).toBe(types.length);
}

test('the flame graph is shown before the record table and lanes, which then complete the same view', async ({ page }) => {
  const errs = watchErrors(page);
  await holdRecords(page);
  await page.goto('./');
  await expect(page.getByTestId('file-name')).toContainText('calltree.perf.data');
  await expect.poll(() => page.evaluate(() => window.__tablesHeld())).toBe(3);

  // decoded: summary, flame graph and bytes are shown; what needs the record table says it is coming
  await expect(summaryField(page, 'records')).toHaveText('339');
  await expect(page.locator('canvas.flame-canvas')).toHaveAttribute('aria-label', /: 305 samples$/);
  const pending = page.getByTestId('records-pending');
  await expect(pending).toHaveText('Indexing 339 records…');
  const hexView = page.getByRole('region', { name: 'Hex view' });
  await expect(hexView.locator('.hb[data-off="0"]')).toHaveText(/^[0-9a-f]{2}$/);
  await expect(hexView.locator('.hb.rs')).toHaveCount(0); // no record shading yet
  await hexView.locator('.hb[data-off="20"]').click();
  await expect(page.getByTestId('hex-selection')).toContainText('the record table is still being indexed');
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await expect(page.getByTestId('lanes-pending')).toHaveText('Laying out 305 samples by thread…');
  await page.getByRole('tab', { name: 'Composition' }).click();
  await expect(page.getByTestId('records-pending')).toHaveCount(2);
  await shot(page, '08c-tables-pending');

  // the record table arrives: rows, composition, shading; the flame graph and tab stay as they were
  await page.evaluate(() => window.__releaseTables());
  await expect(pending).toHaveCount(0);
  const tree = page.getByRole('tree', { name: 'Record tree' });
  await expect(tree.getByRole('treeitem').first()).toBeVisible();
  await expect(page.getByTestId('composition')).toContainText('rows in the record table');
  await expect(page.getByTestId('composition')).toContainText('SAMPLE');
  await expect(page.getByRole('tab', { name: 'Composition' })).toHaveAttribute('aria-selected', 'true');
  await expect(hexView.locator('.hb.rs').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await expect(page.getByTestId('lanes-pending')).toHaveCount(0);
  await expect(page.getByTestId('flame-chart').getByRole('img')).toHaveAttribute('aria-label', 'Flame chart: 1 thread, 305 samples');
  // the byte clicked while it was indexing now selects the record over it, without another click
  await expect(tree.locator('[role=treeitem][aria-selected=true] .rt-off')).toHaveText('0x10'); // the record after the 16-byte pipe header
  await expect(page.getByTestId('hex-selection')).not.toContainText('still being indexed');
  errs.check();
});

/**
 * A link to the bundled sample with record 5 selected, as this page writes it, and what the hex view's
 * status says for that selection.
 */
async function linkToRecord5(page) {
  await page.goto('./');
  await expect(summaryField(page, 'records')).toHaveText('339');
  await expect(page.getByTestId('records-pending')).toHaveCount(0);
  await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
  for (let i = 0; i < 6; i++) await page.keyboard.press('j');
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toContain('"row":5');
  return { url: page.url(), selected: await page.getByTestId('hex-selection').textContent() };
}

test('the record tree is shown while the flame chart still lays out its lanes', async ({ page }) => {
  const errs = watchErrors(page);
  await holdRecords(page, ['timeline']);
  await page.goto('./');
  await expect(page.getByTestId('file-name')).toContainText('calltree.perf.data');
  await expect.poll(() => page.evaluate(() => window.__tablesHeld())).toBe(1);
  // the record table is in: rows, shading, composition
  await expect(page.getByTestId('records-pending')).toHaveCount(0);
  const tree = page.getByRole('tree', { name: 'Record tree' });
  await expect(tree.getByRole('treeitem').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Hex view' }).locator('.hb.rs').first()).toBeVisible();
  // the flame chart says what it waits for
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await expect(page.getByTestId('lanes-pending')).toHaveText('Laying out 305 samples by thread…');
  await page.evaluate(() => window.__releaseTables());
  await expect(page.getByTestId('lanes-pending')).toHaveCount(0);
  await expect(page.getByTestId('flame-chart').getByRole('img')).toHaveAttribute('aria-label', 'Flame chart: 1 thread, 305 samples');
  // the record tree kept its rows
  await expect(tree.getByRole('treeitem').first()).toBeVisible();
  errs.check();
});

test("a shared link's selected record is applied when the record table arrives", async ({ page }) => {
  const errs = watchErrors(page);
  const { url, selected } = await linkToRecord5(page);
  const fresh = await page.context().newPage();
  await holdRecords(fresh);
  await fresh.goto(url);
  await expect(fresh.locator('canvas.flame-canvas')).toHaveAttribute('aria-label', /: 305 samples$/);
  await expect.poll(() => fresh.evaluate(() => window.__tablesHeld())).toBe(3);
  await expect(fresh.getByTestId('records-pending')).toHaveText('Indexing 339 records…');
  // the link's record waits for the table (and stays in the hash meanwhile)
  expect(await fresh.evaluate(() => decodeURIComponent(location.hash))).toContain('"row":5');
  await fresh.evaluate(() => window.__releaseTables());
  await expect(fresh.getByTestId('hex-selection')).toHaveText(selected);
  await expect(fresh.getByRole('tree', { name: 'Record tree' }).locator('[role=treeitem][aria-selected=true]')).toHaveCount(1);
  await expect.poll(() => fresh.evaluate(() => decodeURIComponent(location.hash))).toContain('"row":5');
  errs.check();
});

test("a selection made before the record table arrives wins over a shared link's record", async ({ page }) => {
  const errs = watchErrors(page);
  const { url, selected: linked } = await linkToRecord5(page);
  const fresh = await page.context().newPage();
  await holdRecords(fresh);
  await fresh.goto(url);
  await expect(fresh.getByTestId('records-pending')).toHaveText('Indexing 339 records…');
  // the person clicks a byte of the second record while it indexes
  await fresh.getByRole('region', { name: 'Hex view' }).locator('.hb[data-off="20"]').click();
  await fresh.evaluate(() => window.__releaseTables());
  const tree = fresh.getByRole('tree', { name: 'Record tree' });
  await expect(tree.locator('[role=treeitem][aria-selected=true] .rt-off')).toHaveText('0x10');
  await expect(fresh.getByTestId('hex-selection')).not.toHaveText(linked);
  await expect.poll(() => fresh.evaluate(() => decodeURIComponent(location.hash))).toContain('"row":1');
  errs.check();
});

test("an XRay log's flame chart is drawn while its account is still being made", async ({ page }) => {
  const errs = watchErrors(page);
  await openXRayHeld(page, ['account']);
  // the timeline is in, the account is not: the flame chart draws its calls, Functions says what it waits for
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await expect(page.getByTestId('lanes-pending')).toHaveCount(0);
  await expect(page.getByTestId('flame-chart').getByRole('img')).toHaveAttribute('aria-label', /^Flame chart: \d+ threads?, /);
  await expect(page.getByTestId('flame-chart')).not.toHaveAttribute('data-boxes-view', '');
  await page.getByRole('tab', { name: 'Functions' }).click();
  await expect(page.getByTestId('account-pending')).toBeVisible();
  await page.evaluate(() => window.__releaseTables());
  await expect(page.getByTestId('account-pending')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Function accounting' })).toContainText('worker(int)');
  errs.check();
});

test("an XRay log's Functions view (llvm-xray account) says it is coming until the tables arrive", async ({ page }) => {
  const errs = watchErrors(page);
  await openXRayHeld(page, ['tables', 'timeline', 'account']);
  await page.getByRole('tab', { name: 'Functions' }).click();
  const calls = num(await summaryField(page, 'samples').textContent());
  await expect(page.getByTestId('account-pending')).toHaveText(`Accounting ${calls.toLocaleString('en-US')} calls per function…`);
  await shot(page, '08d-account-pending');
  await page.evaluate(() => window.__releaseTables());
  await expect(page.getByTestId('account-pending')).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Function accounting' });
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table).toContainText('worker(int)');
  errs.check();
});
