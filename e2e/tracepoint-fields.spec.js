// A tracepoint sample in the record tree: its raw data's fields by name (from the file's
// TRACING_DATA formats), each linked to its bytes, as perf script -F trace reads them.
import { test, expect } from '@playwright/test';
import { dataFile, openFile, shot, watchErrors } from './helpers.js';

test('a sched_switch sample shows prev_comm, prev_pid, next_comm… by name', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await openFile(page, dataFile('tracepoint_sched_g', 'perf.data'));
  const tree = page.getByRole('tree', { name: 'Record tree' });
  const sample = tree.getByRole('treeitem').filter({ hasText: 'SAMPLE' }).first();
  await sample.click();
  await page.keyboard.press('ArrowRight'); // expand the record: its fields
  // down the record's fields (the list scrolls with the selection) to its raw data
  const selected = tree.locator('[role=treeitem][aria-selected=true]');
  for (let k = 0; k < 40 && !/raw/.test((await selected.textContent()) ?? ''); k++) await page.keyboard.press('ArrowDown');
  await expect(selected).toContainText('sched:sched_switch, 68 bytes');
  await page.keyboard.press('ArrowRight'); // expand raw: the format's fields
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem').filter({ hasText: 'prev_comm' }).first()).toContainText('"ksys"');
  const pid = tree.getByRole('treeitem').filter({ hasText: 'prev_pid' }).first();
  await expect(pid).toContainText('8024');
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem').filter({ hasText: 'next_comm' }).first()).toContainText('"cc1plus"');
  // a field selects its bytes
  await pid.click();
  await expect(page.getByTestId('hex-selection')).toContainText('(4 bytes)');
  await shot(page, '48-tracepoint-fields');
  errs.check();
});
