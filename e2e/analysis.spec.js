// Analysis views on real perf files: flame chart, call tree, sandwich, linked selection,
// narrowing (filters, range, search, transforms), keyboard map.
import { test, expect } from '@playwright/test';
import { dataFile, num, openFile, shot, waitDecoded, watchErrors } from './helpers.js';

async function openPipe(page) {
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
}
const samplesShown = async (page) => num(await page.getByTestId('analysis-samples').textContent());

test.describe('analysis views', () => {
  test('the Functions view counts the same self and total with the call tree inverted', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await page.getByRole('tab', { name: 'Functions' }).click();
    const fns = page.getByTestId('functions');
    await expect(fns.locator('tbody tr').first()).toBeVisible();
    const rows = async () => (await fns.locator('tbody tr').allInnerTexts()).slice(0, 12).join('\n');
    const before = await rows();
    expect(before).toMatch(/\d/);
    await page.getByRole('tab', { name: 'Call tree' }).click();
    await page.getByLabel('Invert', { exact: true }).check();
    await expect(page.getByRole('treegrid', { name: /inverted/ })).toHaveCount(1);
    await page.getByRole('tab', { name: 'Functions' }).click();
    // (an inverted tree's self sits at each path's outermost caller: main would have it all)
    await expect.poll(rows).toBe(before);
    errs.check();
  });

  test('flame chart: one lane per thread, markers click through to their bytes', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await page.keyboard.press('2'); // number keys switch views
    const panel = page.getByRole('tabpanel', { name: 'Flame chart' });
    const canvas = panel.getByRole('img');
    await expect(canvas).toHaveAttribute('aria-label', /1 thread, 305 samples/);
    // pipe.data: COMM×2, MMAP2×7 (incl. kernel MMAP), EXIT... per `perf script --show-*-events`
    await expect(page.getByTestId('chart-status')).toContainText(/1 lane · \d+ markers/);
    const box = await canvas.boundingBox();
    // the marker row of the lane (under the 20 px ruler); time-0 markers sit at the left edge
    await page.mouse.move(box.x + 1, box.y + 20 + 15 + 9); // ruler, lane title, middle of the marker row
    await expect(panel.getByRole('tooltip')).toContainText(/record \d+ at 0x/);
    await page.mouse.down();
    await page.mouse.up();
    await expect(page.getByTestId('hex-selection')).toContainText(/COMM|MMAP|EXIT/);
    // zoom with the keyboard, back with 0
    const view0 = await panel.getByTestId('flame-chart').getAttribute('data-view');
    await canvas.focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await expect(panel.getByTestId('flame-chart')).not.toHaveAttribute('data-view', view0);
    await page.keyboard.press('ArrowRight');
    await shot(page, '10-flame-chart-zoomed');
    await page.keyboard.press('0');
    await expect(panel.getByTestId('flame-chart')).toHaveAttribute('data-view', view0);
    errs.check();
  });

  test('call tree: top-down, sortable, expandable, inverted; sandwich', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await page.getByRole('tab', { name: 'Call tree' }).click();
    const tree = page.getByTestId('call-tree');
    const rows = tree.getByRole('row');
    // the top-level rows add up to every sample (305, perf report's total): libc 304 + [unknown] 1
    await expect(rows.first().locator('.ct-total')).toContainText('304');
    const top = await tree.locator('.ct-row[aria-level="1"] .ct-total').allTextContents();
    expect(top.reduce((a, t) => a + num(t.split(' ')[0]), 0)).toBe(305);
    const expandedBefore = await rows.count();
    expect(expandedBefore).toBeGreaterThan(3); // the heaviest path is expanded
    // collapse the first row
    await rows.first().locator('.ct-twisty').click();
    await expect(rows).toHaveCount(top.length);
    await rows.first().locator('.ct-twisty').click();
    await expect(rows).toHaveCount(expandedBefore);
    // sort by self
    await tree.locator('.ct-head th.ct-self').click();
    await expect(tree.locator('.ct-head th.ct-self')).toHaveAttribute('aria-sort', 'descending');
    await tree.locator('.ct-head th.ct-self').click();
    await expect(tree.locator('.ct-head th.ct-self')).toHaveAttribute('aria-sort', 'ascending');
    // ascending self: the [unknown] row (self 0, total 1) and libc (self 0, total 304) tie on self; totals break ties
    await tree.locator('.ct-head th.ct-total').click();
    await shot(page, '11-call-tree');
    // inverted: roots are the leaf functions; their totals (self counts) add up to 305
    await page.getByLabel('Invert', { exact: true }).check();
    await expect(page.getByRole('treegrid', { name: /inverted/ })).toBeVisible();
    const roots = tree.locator('.ct-row[aria-level="1"]');
    await expect(roots.first()).toBeVisible();
    // collapse everything so only roots remain
    for (let i = 0; i < 3; i++) {
      const open = tree.locator('.ct-row[aria-level="1"][aria-expanded="true"] .ct-twisty');
      if (await open.count()) await open.first().click();
    }
    const totals = await roots.locator('.ct-total').allTextContents();
    expect(totals.reduce((a, t) => a + num(t.split(' ')[0]), 0)).toBe(305);
    await shot(page, '12-call-tree-inverted');
    // sandwich of the first root
    await roots.first().click();
    await page.getByRole('button', { name: 'Sandwich', exact: true }).click();
    await expect(page.getByTestId('sandwich-callers').getByRole('row').first()).toBeVisible();
    await expect(page.getByTestId('sandwich-callees').getByRole('row').first()).toBeVisible();
    await shot(page, '13-sandwich');
    errs.check();
  });

  test('linked selection: a frame lists its samples and the hex view jumps to its callchain slot', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await page.getByRole('tab', { name: 'Call tree' }).click();
    const tree = page.getByTestId('call-tree');
    // a frame two levels down the heaviest path
    const row = tree.locator('.ct-row[aria-level="3"]').first();
    const total = num((await row.locator('.ct-total').textContent()).split(' ')[0]);
    await row.click();
    const strip = page.getByTestId('frame-samples');
    await expect(strip).toContainText(`${total.toLocaleString('en-US')} sample`);
    await expect(page.getByTestId('frame-sample-pos')).toHaveText(`1 / ${total.toLocaleString('en-US')}`);
    await expect(page.getByTestId('frame-slot')).toContainText(/callchain\[\d+\] at 0x/);
    // the sample's time, from the start of the file, comes with its slot
    await expect(strip).toContainText(/sample #\d+ · at \d[\d.]* (ns|µs|ms|s) · record \d+/);
    const slot = (await page.getByTestId('frame-slot').textContent()).match(/at (0x[0-9a-f]+)/)[1];
    const hexSel = page.getByTestId('hex-selection');
    await expect(hexSel).toContainText(`Selection ${slot}`);
    await expect(hexSel).toContainText('(8 bytes)');
    await expect(hexSel).toContainText('callchain[');
    await expect(page.locator(`.hex-view .hb[data-off="${parseInt(slot, 16)}"]`)).toHaveClass(/\bsel\b/);
    // the record tree reveals the callchain entry, selected
    const treeSel = page.getByRole('tree', { name: 'Record tree' }).locator('[role=treeitem][aria-selected=true]');
    await expect(treeSel).toHaveCount(1);
    await expect(treeSel.locator('.rt-off')).toHaveText(slot);
    await shot(page, '14-frame-to-callchain-slot');
    // next sample: another record, another slot
    await page.getByRole('button', { name: 'Next sample' }).click();
    await expect(page.getByTestId('frame-sample-pos')).toHaveText(`2 / ${total.toLocaleString('en-US')}`);
    await expect(page.getByTestId('frame-slot')).toContainText(/callchain\[\d+\] at 0x/);
    await expect(page.getByTestId('frame-slot')).not.toContainText(`at ${slot}`);
    await page.getByRole('button', { name: 'Previous sample' }).click();
    await expect(page.getByTestId('frame-slot')).toContainText(`at ${slot}`);
    errs.check();
  });

  test('linked selection: a record marks its sample in the flame chart and its stack in the flame graph', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    // g: the inline Go to offset field; 0xf6c is a SAMPLE record of pipe.data (its bytes select the record)
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('g');
    await expect(page.getByLabel('Go to offset')).toBeFocused();
    await page.keyboard.type('0xf6c');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('hex-selection')).toContainText('SAMPLE');
    await page.getByRole('tab', { name: 'Flame graph' }).click();
    await expect(page.locator('.flame-graph')).not.toHaveAttribute('data-marked', '0');
    await shot(page, '15-record-marks-flame-graph');
    await page.getByRole('tab', { name: 'Flame chart' }).click();
    await expect(page.getByTestId('flame-chart')).not.toHaveAttribute('data-marked-sample', '-1');
    await shot(page, '16-record-marks-flame-chart');
    // a byte of another sample
    errs.check();
  });

  test('narrowing: time range, thread filter, search, transforms with undo', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await page.getByRole('tab', { name: 'Flame chart' }).click();
    const canvas = page.getByRole('tabpanel', { name: 'Flame chart' }).getByRole('img');
    const box = await canvas.boundingBox();
    expect(await samplesShown(page)).toBe(305);
    // drag on the ruler: a range
    await page.mouse.move(box.x + box.width * 0.25, box.y + 8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + 8, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('range-filter')).toBeVisible();
    await expect.poll(() => samplesShown(page)).toBeLessThan(305);
    const inRange = await samplesShown(page);
    expect(inRange).toBeGreaterThan(40); // a quarter of a ~1 kHz, 304 ms profile
    expect(inRange).toBeLessThan(110);
    await shot(page, '17-range-selected');
    await page.getByRole('button', { name: 'Clear the time range' }).click();
    await expect.poll(() => samplesShown(page)).toBe(305);

    // search: substring and regex
    await page.keyboard.press('/');
    await expect(page.getByLabel('Search functions')).toBeFocused();
    await page.keyboard.type('libc');
    await expect(page.getByTestId('search-count')).toContainText(/[1-9]\d* functions match/);
    // 3: not the count of the previous search ('libc': 2), so it is the regex's own answer; the
    // names are the path+offset ones the functions had before the binary named them
    await page.getByLabel('Search functions').fill('/calltree\\+0x12(67|4b|7a)$/');
    await expect(page.getByTestId('search-count')).toHaveText('3 functions match');
    await page.getByRole('tab', { name: 'Flame graph' }).click();
    await shot(page, '18-search-regex');
    await page.getByLabel('Search functions').fill('');
    await expect(page.getByTestId('search-count')).toHaveCount(0);
    await page.waitForTimeout(400); // the debounced search re-aggregation (which clears the selection)

    // transforms: drop a function, then merge another; undo both
    await page.getByRole('tab', { name: 'Call tree' }).click();
    const tree = page.getByTestId('call-tree');
    const row = tree.locator('.ct-row[aria-level="3"]').first();
    const total = num((await row.locator('.ct-total').textContent()).split(' ')[0]);
    await row.click();
    await page.getByRole('button', { name: 'Drop', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Transforms' })).toContainText('Drop:');
    await expect.poll(() => samplesShown(page)).toBeLessThanOrEqual(305 - total);
    await tree.locator('.ct-row[aria-level="2"]').first().click();
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Transforms' }).locator('li')).toHaveCount(2);
    await shot(page, '19-transforms');
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => samplesShown(page)).toBe(305);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect(page.getByRole('list', { name: 'Transforms' }).locator('li')).toHaveCount(1);
    errs.check();
  });

  test('record tree narrows to one record kind or a label search; composition dashboard', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    const kind = page.getByLabel('Record kind');
    // groups with their counts: the bundled pipe file has 305 SAMPLE records
    await expect(kind.locator('option', { hasText: 'SAMPLE (305)' })).toHaveCount(1);
    await kind.selectOption({ label: 'SAMPLE (305)' });
    await expect(page.getByTestId('record-count')).toHaveText(/^305 of 340 rows$/);
    const tree = page.getByRole('tree', { name: 'Record tree' });
    await expect(tree.getByRole('treeitem').first()).toContainText('SAMPLE');
    await tree.getByRole('treeitem').first().click();
    await expect(page.getByTestId('hex-selection')).toContainText('SAMPLE');
    // label search (in the worker), combined with the kind: none of the SAMPLE rows is a COMM
    await page.getByLabel('Search records').fill('comm');
    await expect(page.getByTestId('record-count')).toHaveText(/^0 of 340 rows$/);
    await kind.selectOption('all');
    await expect.poll(async () => num((await page.getByTestId('record-count').textContent()).split(' of ')[0])).toBeGreaterThan(0);
    await expect(tree.getByRole('treeitem').first()).toContainText(/COMM/i);
    await shot(page, '22-record-search');
    await page.getByLabel('Search records').fill('');
    await expect(page.getByTestId('record-count')).toHaveText(/^340 rows$/);
    // composition: bytes per record kind, clickable through to the first record of the kind
    await page.getByLabel('Search records').press('Escape'); // leaves the box: number keys switch views again
    await page.keyboard.press('6');
    const recs = page.getByTestId('cmp-records');
    await expect(recs).toContainText('SAMPLE');
    await expect(page.getByTestId('cmp-events')).toContainText(/\d/);
    await recs.locator('li', { hasText: 'SAMPLE' }).first().click();
    await expect(page.getByTestId('hex-selection')).toContainText('SAMPLE');
    await shot(page, '23-composition');
    errs.check();
  });

  test('keyboard map and number keys', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('3');
    await expect(page.getByRole('tab', { name: 'Call tree' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('7');
    await expect(page.getByRole('tab', { name: /Diagnostics/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('1');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await shot(page, '20-keyboard-map');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
    // j / k step through records
    await page.keyboard.press('j');
    await expect(page.getByRole('tree', { name: 'Record tree' }).locator('[aria-selected="true"]')).toContainText('pipe header');
    await page.keyboard.press('j');
    await expect(page.getByRole('tree', { name: 'Record tree' }).locator('[aria-selected="true"]')).toContainText('HEADER_ATTR');
    await page.keyboard.press('k');
    await expect(page.getByRole('tree', { name: 'Record tree' }).locator('[aria-selected="true"]')).toContainText('pipe header');
    errs.check();
  });

  test('several threads and CPUs (quipper i686, 11 threads, 4 CPUs): lanes, thread/CPU filters, per-CPU lanes', async ({ page }) => {
    const errs = watchErrors(page);
    await openPipe(page);
    await openFile(page, dataFile('quipper_i686_perf3.4', 'perf.data'));
    await page.getByRole('tab', { name: 'Flame chart' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Flame chart' });
    await expect(page.getByTestId('chart-status')).toContainText('11 lanes');
    const all = await samplesShown(page);
    // thread filter: fewer samples
    const threadSel = page.getByLabel('Thread filter');
    await expect(threadSel.locator('option')).toHaveCount(12); // all + the 11 threads with samples
    await threadSel.selectOption({ index: 1 });
    await expect.poll(() => samplesShown(page)).toBeLessThan(all);
    await threadSel.selectOption('');
    await expect.poll(() => samplesShown(page)).toBe(all);
    // CPU filter: the per-CPU counts add up to the whole
    const cpuSel = page.getByLabel('CPU filter');
    await expect(cpuSel.locator('option')).toHaveCount(5); // all + CPUs 0..3
    let sum = 0;
    for (const cpu of ['0', '1', '2', '3']) {
      await cpuSel.selectOption(cpu);
      await expect(page.getByTestId('analysis-samples')).not.toContainText('aggregating');
      await expect.poll(() => samplesShown(page)).toBeLessThan(all);
      sum += await samplesShown(page);
    }
    expect(sum).toBe(all);
    await cpuSel.selectOption('');
    // lanes per CPU
    await panel.getByLabel('Lanes').selectOption('cpu');
    await expect(page.getByTestId('chart-status')).toContainText('4 lanes');
    await expect(panel.getByRole('img')).toHaveAttribute('aria-label', /4 CPUs/);
    await shot(page, '21-cpu-lanes');
    errs.check();
  });
});
