// Room for the analysis (issue 14, item 1): the splitter between the records/hex panes and
// the analysis pane (dragged, keyboard, remembered across reloads), and "Maximize view"
// (button and key f) giving the flame graph at least 80 % of a 1440x900 window, and back.
import { test, expect } from '@playwright/test';
import { shot, waitDecoded, watchErrors } from './helpers.js';

test.use({ viewport: { width: 1440, height: 900 } });

const height = async (loc) => (await loc.boundingBox())?.height ?? 0;

test.describe('layout', () => {
  test('"Maximize view" gives the flame graph >= 80 % of the window, f and Esc toggle it', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    const panel = page.getByRole('tabpanel', { name: 'Flame graph' });
    const flame = panel.getByRole('img');
    const before = await height(flame);
    expect(before).toBeLessThan(0.8 * 900);
    const btn = page.getByRole('button', { name: 'Maximize view', exact: true });
    await expect(btn).toHaveAttribute('aria-pressed', 'false');
    await btn.click();
    await expect(btn).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('region', { name: 'Records' })).toBeHidden();
    await expect(page.getByRole('region', { name: 'Hex view' })).toBeHidden();
    await expect.poll(() => height(flame)).toBeGreaterThanOrEqual(0.8 * 900);
    await expect.poll(() => height(panel)).toBeGreaterThanOrEqual(0.8 * 900);
    await shot(page, '40-maximized-flame-graph');
    // the same button restores the panes
    await btn.click();
    await expect(page.getByRole('region', { name: 'Hex view' })).toBeVisible();
    await expect.poll(() => height(flame)).toBeLessThan(0.8 * 900);
    // key f, on another view; Esc restores
    await page.keyboard.press('3');
    await page.keyboard.press('f');
    const tree = page.getByRole('tabpanel', { name: 'Call tree' });
    await expect.poll(() => height(tree)).toBeGreaterThanOrEqual(0.8 * 900);
    await page.keyboard.press('f');
    await expect(page.getByRole('region', { name: 'Records' })).toBeVisible();
    await page.keyboard.press('f');
    await expect(page.getByRole('region', { name: 'Records' })).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('region', { name: 'Records' })).toBeVisible();
    errs.check();
  });

  test('the splitter resizes the panes by drag and keys, and the split is remembered', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    const bottomPanel = page.getByRole('tabpanel', { name: 'Flame graph' });
    const hex = page.getByRole('region', { name: 'Hex view' });
    const splitter = page.getByRole('separator', { name: 'Resize the analysis pane' });
    const h0 = await height(bottomPanel);
    const hex0 = await height(hex);
    // drag the splitter 250 px up: the analysis pane grows, the hex pane shrinks by as much
    const box = await splitter.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y - 100, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2, box.y - 250, { steps: 4 });
    await page.mouse.up();
    const h1 = await height(bottomPanel);
    expect(h1).toBeGreaterThan(h0 + 200);
    expect(await height(hex)).toBeLessThan(hex0 - 200);
    const now = Number(await splitter.getAttribute('aria-valuenow'));
    expect(now).toBeGreaterThan(50);
    await shot(page, '41-splitter-dragged');
    // remembered across a reload
    await page.reload();
    await waitDecoded(page, 'calltree.perf.data');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(now));
    expect(Math.abs((await height(bottomPanel)) - h1)).toBeLessThan(4);
    // keys: ArrowDown gives the panes back, a little at a time; never below the minimum
    await splitter.focus();
    await page.keyboard.press('ArrowDown');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(now - 3));
    await page.keyboard.press('End');
    await expect(splitter).toHaveAttribute('aria-valuenow', '15');
    expect(await height(bottomPanel)).toBeGreaterThan(60);
    // double-click: back to the default half
    await splitter.dblclick();
    await expect(splitter).toHaveAttribute('aria-valuenow', '50');
    errs.check();
  });
});
