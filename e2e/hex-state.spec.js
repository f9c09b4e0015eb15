// Hex view inspector, follow-offset with back stack, field hover, the hex status naming the
// field of a clicked byte, and view state in the URL hash restored on reload.
import { test, expect } from '@playwright/test';
import { shot, waitDecoded, watchErrors } from './helpers.js';

test('inspector shows every integer width in both byte orders, floats and the string', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const hexView = page.getByRole('region', { name: 'Hex view' });
  // offset 0: "PERFILE2" magic
  await hexView.locator('.hb[data-off="0"]').click();
  const insp = page.getByTestId('hex-inspector');
  await expect(page.getByTestId('insp-string')).toContainText('PERFILE2');
  // 'P' = 0x50 = 80; LE u16 of "PE" = 0x4550 = 17744, BE = 0x5045 = 20549
  const le = insp.locator('[data-order="LE"]');
  const be = insp.locator('[data-order="BE"]');
  await expect(le.locator('[data-k="u8"] .insp-v')).toHaveText('80');
  await expect(le.locator('[data-k="u16"] .insp-v')).toHaveText('17744');
  await expect(be.locator('[data-k="u16"] .insp-v')).toHaveText('20549');
  await expect(le.locator('[data-k="hex64"] .insp-v')).toHaveText('0x32454c4946524550');
  await expect(be.locator('[data-k="hex64"] .insp-v')).toHaveText('0x50455246494c4532');
  for (const k of ['i8', 'i16', 'i32', 'i64', 'u32', 'u64', 'f32', 'f64']) await expect(le.locator(`[data-k="${k}"] .insp-v`)).not.toHaveText('–');
  await expect(le.locator('[data-k="i8"] .insp-v')).toHaveText('80');
  // pipe header: u64 at 8 is the header size (16)
  await hexView.locator('.hb[data-off="8"]').click();
  await expect(le.locator('[data-k="u64"] .insp-v')).toHaveText('16');
  // follow it like a link (to 0x10, the first record), then back
  await page.getByRole('button', { name: /Follow u64 → 0x10/ }).click();
  await expect(page.getByTestId('hex-selection')).toContainText('Selection 0x10');
  await expect(page.getByTestId('hex-selection')).toContainText('HEADER_ATTR');
  await shot(page, '22-inspector-follow');
  await page.getByRole('button', { name: '← Back' }).click();
  await expect(page.getByTestId('hex-selection')).toContainText('Selection 0x0');
  await expect(page.getByRole('button', { name: '← Back' })).toBeDisabled();
  errs.check();
});

test('a clicked byte names its field; hovering a decoded field lights up its bytes', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const hexView = page.getByRole('region', { name: 'Hex view' });
  await hexView.locator('.hb[data-off="9"]').click(); // inside the pipe header's size field
  await expect(page.getByTestId('hex-selection')).toContainText(/in field \w+/);
  // expand the header record and hover its second field
  const tree = page.getByRole('tree', { name: 'Record tree' });
  await tree.getByRole('treeitem').first().locator('.rt-twisty').click();
  const field = tree.locator('[role=treeitem][data-row="0"][data-path="1"]');
  await expect(field).toBeVisible();
  const off = parseInt(await field.locator('.rt-off').textContent(), 16);
  await field.hover();
  await expect(hexView.locator(`.hb[data-off="${off}"]`)).toHaveClass(/\bfhov\b/);
  await shot(page, '23-field-hover');
  errs.check();
});

test('view state in the URL hash comes back after a reload of the same file', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByRole('tab', { name: 'Call tree' }).click();
  await page.getByLabel('Invert', { exact: true }).check();
  await page.getByLabel('Search functions').fill('libc');
  await expect(page.getByTestId('search-count')).toBeVisible();
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toContain('"search":"libc"');
  const hash = await page.evaluate(() => location.hash);
  expect(decodeURIComponent(hash)).toContain('calltree.perf.data:42100:');
  await page.reload();
  await waitDecoded(page, 'calltree.perf.data');
  await expect(page.getByRole('tab', { name: 'Call tree' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Invert', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Search functions')).toHaveValue('libc');
  await expect(page.getByRole('treegrid', { name: /inverted/ })).toBeVisible();
  await shot(page, '24-url-state-restored');
  errs.check();
});

test('theme picker: dark and light override the system setting, and stay after a reload', async ({ page }) => {
  const errs = watchErrors(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await bg()).toBe('rgb(251, 251, 252)');
  await page.getByLabel('Theme').selectOption('dark');
  expect(await bg()).toBe('rgb(23, 25, 29)');
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await shot(page, '28-theme-dark-chosen');
  await page.reload();
  await waitDecoded(page, 'calltree.perf.data');
  expect(await bg()).toBe('rgb(23, 25, 29)');
  await page.getByLabel('Theme').selectOption('auto');
  expect(await bg()).toBe('rgb(251, 251, 252)');
  errs.check();
});
