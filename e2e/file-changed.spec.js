// A file changed on disk after it was opened (cut by a recording that goes on, rewritten, removed): the page
// keeps what it decoded; the hex view says that some bytes can no longer be read, rather than show dots
// forever (and its inspector says "cannot be read", not "loading…").
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, dataFile, openFile, shot, watchErrors } from './helpers.js';

test('a file cut after it was opened: the hex view says its bytes can no longer be read; what was decoded stays', async ({ page }) => {
  const errs = watchErrors(page);
  const dir = path.join(REPO, 'test-results', 'file-changed');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'changed.perf.data');
  const bytes = fs.readFileSync(dataFile('leader_group_u', 'perf.data'));
  expect(bytes.length).toBeGreaterThan(140000);
  fs.writeFileSync(file, bytes);
  await page.goto('./');
  await openFile(page, file);
  const hexView = page.getByRole('region', { name: 'Hex view' });
  await expect(hexView.locator('.hb[data-off="0"]')).toHaveText('50'); // "PERFILE2"
  await expect(page.getByTestId('hex-error')).toHaveCount(0);

  // the recording is cut to its first 4 KiB on disk
  fs.truncateSync(file, 4096);

  // the last SAMPLE (0x23868, in a part of the file the hex view has not read yet)
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('g');
  await page.keyboard.type('0x23868');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('hex-selection')).toContainText('SAMPLE');
  await expect(page.getByTestId('hex-error')).toBeVisible();
  await expect(page.getByTestId('hex-error')).toContainText(/Some bytes can no longer be read \(from 0x[0-9a-f]+: NotReadableError\)/);
  await expect(page.getByTestId('hex-error')).toContainText('the file was changed or removed since it was opened');
  await expect(hexView.locator('.hb[data-off="145512"]')).toHaveText('··');

  await expect(page.getByTestId('hex-inspector')).toContainText('cannot be read');
  // its fields: the worker still holds the bytes it read ahead (a record past them, in a file larger than
  // the read-ahead, says where the file ended: tests/node/file-changed.test.mjs)
  const tree = page.getByRole('tree', { name: 'Record tree' });
  const rec = tree.locator('.rt-row.selected[role=treeitem]').first();
  await expect(rec).toContainText('SAMPLE');
  const row = await rec.getAttribute('data-row');
  await rec.locator('.rt-twisty').click();
  await expect(tree.locator(`[role=treeitem][data-row="${row}"][data-path="0"]`)).toContainText('SAMPLE, misc');
  await shot(page, '70-file-changed');
  // what was decoded is still shown
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  await expect(page.locator('.flame-graph')).toBeVisible();
  errs.check();
});
