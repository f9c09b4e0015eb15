// End-to-end tests of the profscope page (web/dist) with the real WASM decoder.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, cancelDecode, dataFile, num, openFile, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const hex = (n) => '0x' + Number(n).toString(16);

test.describe('profscope', () => {
  test('opens the bundled sample on load (pipe mode, 339 records, 305 samples)', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    await expect(summaryField(page, 'format')).toContainText(/perf/i);
    await expect(summaryField(page, 'mode')).toContainText(/pipe/i);
    expect(num(await summaryField(page, 'records').textContent())).toBe(339);
    expect(num(await summaryField(page, 'samples').textContent())).toBe(305);

    // the views are filled
    const tree = page.getByRole('tree', { name: 'Record tree' });
    await expect(tree.getByRole('treeitem').first()).toBeVisible();
    const hexView = page.getByRole('region', { name: 'Hex view' });
    await expect(hexView).toContainText('PERFILE2');
    await page.getByRole('tab', { name: /Flame graph/ }).click();
    const flame = page.getByRole('tabpanel', { name: 'Flame graph' });
    await expect(flame.getByRole('img')).toHaveAttribute('aria-label', /305 samples/);
    await shot(page, '01-sample-loaded');
    errs.check();
  });

  test('opens a file-mode perf.data through "Open file…"', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    await openFile(page, dataFile('default_event', 'perf.data'));
    await expect(summaryField(page, 'mode')).toContainText(/file/i);
    expect(num(await summaryField(page, 'records').textContent())).toBe(1249);
    expect(num(await summaryField(page, 'samples').textContent())).toBe(1235);
    await expect(summaryField(page, 'events')).toContainText('cpu-clock');
    await expect(page.getByRole('region', { name: 'Hex view' })).toContainText('PERFILE2');
    await shot(page, '02-file-mode-opened');
    errs.check();
  });

  test('opens a file dropped on the page', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    const bytes = [...fs.readFileSync(dataFile('default_event', 'perf.data'))];
    const dt = await page.evaluateHandle((arr) => {
      const d = new DataTransfer();
      d.items.add(new File([new Uint8Array(arr)], 'dropped.perf.data'));
      return d;
    }, bytes);
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
    await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
    await waitDecoded(page, 'dropped.perf.data');
    expect(num(await summaryField(page, 'samples').textContent())).toBe(1235);
    errs.check();
  });

  test('record tree and hex view select each other', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    await openFile(page, dataFile('default_event', 'perf.data'));
    const tree = page.getByRole('tree', { name: 'Record tree' });
    const hexView = page.getByRole('region', { name: 'Hex view' });
    const status = page.getByTestId('hex-selection');

    // 1. a record selected in the tree: the hex view selects exactly its bytes
    const item = tree.getByRole('treeitem').filter({ hasText: 'SAMPLE' }).nth(3);
    const off = parseInt(await item.locator('.rt-off').textContent(), 16);
    const size = num(await item.locator('.rt-size').textContent());
    await item.click();
    await expect(item).toHaveAttribute('aria-selected', 'true');
    await expect(status).toContainText(`${hex(off)}–${hex(off + size - 1)}`);
    await expect(status).toContainText(`(${size} bytes)`);
    await expect(hexView.locator(`.hb[data-off="${off}"]`)).toHaveClass(/\bsel\b/);
    await expect(hexView.locator(`.hb[data-off="${off + size - 1}"]`)).toHaveClass(/\bsel\b/);
    await expect(hexView.locator(`.hb[data-off="${off + size}"]`)).not.toHaveClass(/\bsel\b/);
    await expect(hexView.locator(`.hb[data-off="${off - 1}"]`)).not.toHaveClass(/\bsel\b/);
    await expect(hexView.locator('.hb.sel')).toHaveCount(size);
    await shot(page, '03-tree-selects-bytes');

    // 2. a byte clicked in the hex view: the tree selects the record containing it
    const next = off + size + 5; // inside the next record
    await hexView.locator(`.hb[data-off="${next}"]`).click();
    const selected = tree.locator('[role=treeitem][aria-selected=true]');
    await expect(selected).toHaveCount(1);
    await expect(selected.locator('.rt-off')).toHaveText(hex(off + size));
    await expect(hexView.locator(`.hb[data-off="${next}"]`)).toHaveClass(/\bsel\b/);
    await expect(page.getByTestId('hex-inspector')).toContainText(hex(next));

    // 3. a byte of the file header (top-level row) selects the header row
    await tree.focus();
    await page.keyboard.press('Home');
    const first = tree.locator('[role=treeitem][aria-selected=true]');
    await expect(first.locator('.rt-off')).toHaveText('0x0');
    await expect(status).toContainText('Selection 0x0');
    await hexView.locator('.hb[data-off="20"]').click();
    await expect(tree.locator('[role=treeitem][aria-selected=true] .rt-off')).toHaveText('0x0');

    // 4. keyboard: down moves, right expands into decoded fields, a field selects its bytes
    await tree.focus();
    await page.keyboard.press('ArrowRight');
    await expect(tree.getByRole('treeitem').first()).toHaveAttribute('aria-expanded', 'true');
    await expect(tree.locator('[role=treeitem][data-row="0"][data-path="0"]')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    const field = tree.locator('[role=treeitem][aria-selected=true]');
    await expect(field).toHaveAttribute('data-path', '0');
    const fOff = parseInt(await field.locator('.rt-off').textContent(), 16);
    const fSize = num(await field.locator('.rt-size').textContent());
    await expect(status).toContainText(`${hex(fOff)}–${hex(fOff + Math.max(1, fSize) - 1)}`);
    await expect(hexView.locator('.hb.sel')).toHaveCount(Math.max(1, fSize));
    await shot(page, '04-field-selects-bytes');
    errs.check();
  });

  test('flame graph: hover tooltip, click to zoom, Escape to reset', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    await page.getByRole('tab', { name: /Flame graph/ }).click();
    const panel = page.getByRole('tabpanel', { name: 'Flame graph' });
    const canvas = panel.locator('canvas');
    const zoom = page.getByTestId('flame-zoom');
    const tip = panel.getByRole('tooltip');
    await expect(zoom).toContainText('305 samples');
    const box = await canvas.boundingBox();

    // find a frame below the root (rows are 18 px high)
    let hit = null;
    for (const depth of [2, 3, 1, 4]) {
      for (const fx of [0.5, 0.3, 0.7, 0.1, 0.9]) {
        const x = box.x + box.width * fx;
        const y = box.y + depth * 18 + 9;
        await page.mouse.move(x, y);
        if (await tip.isVisible()) {
          hit = { x, y };
          break;
        }
      }
      if (hit) break;
    }
    expect(hit, 'some frame under the root').not.toBeNull();
    await expect(tip).toContainText(/\d+ samples \(\d+(\.\d+)?%\)/);
    const name = (await tip.locator('.ft-name').textContent()).trim();
    expect(name.length).toBeGreaterThan(0);
    const samples = num((await tip.locator('.ft-samples').textContent()).split(' samples')[0]);
    await shot(page, '05-flame-hover');

    await page.mouse.click(hit.x, hit.y);
    await expect(zoom).toContainText(`Zoomed to ${name}`);
    await expect(zoom).toContainText(`${samples.toLocaleString('en-US')} samples`);
    await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeEnabled();
    await shot(page, '06-flame-zoomed');

    await canvas.focus();
    await page.keyboard.press('Escape');
    await expect(zoom).not.toContainText('Zoomed');
    await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeDisabled();

    // zoom again, then the reset button
    await page.mouse.click(hit.x, hit.y);
    await expect(zoom).toContainText('Zoomed to');
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await expect(zoom).not.toContainText('Zoomed');
    errs.check();
  });

  test('diagnostics of a damaged file jump to their bytes', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    const file = dataFile('truncated', 'perf.data');
    const size = fs.statSync(file).size;
    await openFile(page, file);
    await page.getByRole('tab', { name: /Diagnostics/ }).click();
    const panel = page.getByRole('tabpanel', { name: 'Diagnostics' });
    const rows = panel.locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);

    // the diagnostic with the largest offset inside the file (the truncated record)
    let pick = -1;
    let off = -1;
    for (let i = 0; i < count; i++) {
      const t = (await rows.nth(i).locator('td').nth(2).textContent()).trim();
      const o = t ? parseInt(t, 16) : -1;
      if (o >= 0 && o < size && o > off) {
        pick = i;
        off = o;
      }
    }
    expect(off).toBeGreaterThan(0x1000); // far from the top: the hex view has to scroll
    expect(pick, 'a diagnostic with an offset inside the file').toBeGreaterThanOrEqual(0);
    // the hex view starts at the top of the file
    const hexView = page.getByRole('region', { name: 'Hex view' });
    await expect(hexView.locator('.hb[data-off="0"]')).toBeVisible();
    await rows.nth(pick).click();
    await expect(rows.nth(pick)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('hex-selection')).toContainText(`Selection ${hex(off)}`);
    const cell = hexView.locator(`.hb[data-off="${off}"]`);
    await expect(cell).toBeVisible();
    await expect(cell).toHaveClass(/\bsel\b/);
    await expect(cell).toBeInViewport();
    await shot(page, '07-diagnostic-jump');
    errs.check();
  });
});

test.describe('profscope, long decodes', () => {
  /** A large pipe-mode stream: the sample's kernel records repeated `times` times. */
  function bigPipe(times) {
    const d = fs.readFileSync(dataFile('pipe_mode', 'pipe.data'));
    let off = 16;
    let first = -1;
    while (off + 8 <= d.length) {
      const type = d.readUInt32LE(off);
      const size = d.readUInt16LE(off + 6);
      if (type < 64 && first < 0) first = off;
      off += size;
    }
    const head = d.subarray(0, first);
    const tail = d.subarray(first);
    return Buffer.concat([head, ...Array.from({ length: times }, () => tail)]);
  }

  test('shows progress, can be cancelled keeping what was decoded, and opens the next file', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    // ~350 MB, several seconds to decode, so the Cancel comes well before the end however fast the machine
    // (Playwright takes buffers up to 50 MB: written to a file)
    const copies = 9000;
    const big = path.join(REPO, 'test-results', 'big.perf.data');
    fs.mkdirSync(path.dirname(big), { recursive: true });
    fs.writeFileSync(big, bigPipe(copies));
    await page.getByTestId('file-input').setInputFiles(big);
    const progress = page.getByRole('status', { name: 'Decoding progress' });
    await expect(progress).toBeVisible();
    await expect(progress.locator('progress')).toHaveAttribute('value', /[1-9]/);
    // the bytes are on screen while the file is still decoding (a pipe-mode file starts with PERFILE2)
    const hexPane = page.getByRole('region', { name: 'Hex view' });
    await expect(hexPane.locator('.hex-row').first()).toContainText('PERFILE2');
    await expect(progress).toBeVisible();
    // and the samples decoded so far (no more than the file then shows: checked after the Cancel)
    await expect(progress).toContainText(/Decoding… [\d.]+ ?% · [\d,]+ samples/);
    const first = num((await progress.textContent()).match(/· ([\d,]+) samples/)?.[1] ?? '0');
    expect(first).toBeGreaterThan(0);
    await shot(page, '08-decoding-progress');
    // the decode stopped where it was: what it read is shown, and the page says where it stopped
    const at = await cancelDecode(page, fs.statSync(big).size);
    const samples = num(await summaryField(page, 'samples').textContent());
    expect(samples).toBeGreaterThan(0);
    // each repetition of the sample's records holds its 305 samples: fewer than all of them were read
    expect(samples).toBeLessThan(305 * copies);
    expect(samples).toBeGreaterThanOrEqual(first);
    await page.getByRole('tab', { name: /Diagnostics/ }).click();
    const diag = page.getByRole('tabpanel', { name: 'Diagnostics' }).locator('tbody tr').filter({ hasText: 'decoding was stopped at byte offset' });
    await expect(diag).toHaveCount(1);
    await expect(diag).toContainText(hex(at));
    await shot(page, '08b-decoding-cancelled');

    await openFile(page, dataFile('default_event', 'perf.data'));
    expect(num(await summaryField(page, 'samples').textContent())).toBe(1235);
    errs.check();
  });
});

test.describe('profscope, a file read ahead', () => {
  test('a 100 MB file, read ahead through the same few buffers while it decodes, decodes whole', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    // the sample's records 2600 times: past the 64 MiB a file is read at once, so a read-ahead worker
    // streams it (read-ahead-worker.js); any byte out of place would break a record
    const d = fs.readFileSync(dataFile('pipe_mode', 'pipe.data'));
    let off = 16;
    let first = -1;
    while (off + 8 <= d.length) {
      if (d.readUInt32LE(off) < 64 && first < 0) first = off;
      off += d.readUInt16LE(off + 6);
    }
    const copies = 2600;
    const big = path.join(REPO, 'test-results', 'ahead.perf.data');
    fs.mkdirSync(path.dirname(big), { recursive: true });
    fs.writeFileSync(big, Buffer.concat([d.subarray(0, first), ...Array.from({ length: copies }, () => d.subarray(first))]));
    expect(fs.statSync(big).size).toBeGreaterThan(96 << 20);
    await page.getByTestId('file-input').setInputFiles(big);
    await waitDecoded(page, 'ahead.perf.data');
    expect(num(await summaryField(page, 'samples').textContent())).toBe(305 * copies);
    await expect(page.getByRole('tab', { name: /Diagnostics/ })).not.toContainText(/error/i);
    errs.check();
  });
});

test.describe('profscope, dark theme', () => {
  test.use({ colorScheme: 'dark' });
  test('renders in the dark theme', async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(251, 251, 252)');
    const tree = page.getByRole('tree', { name: 'Record tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'HEADER_ATTR' }).first().click();
    await page.getByRole('tab', { name: /Flame graph/ }).click();
    await shot(page, '09-dark-theme');
    errs.check();
  });
});

test('a file of an unknown format shows its bytes and a fatal diagnostic', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const buffer = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37 + 11) & 0xff));
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.bin', mimeType: 'application/octet-stream', buffer });
  await expect(page.getByTestId('file-name')).toContainText('notes.bin');
  await expect(summaryField(page, 'records')).toHaveText('0');
  await expect(page.getByRole('tree', { name: 'Record tree' })).toContainText('No records');
  await expect(page.locator('.hex-view .hb[data-off="0"]')).toHaveText('0b');
  const panel = page.getByRole('tabpanel', { name: 'Diagnostics' });
  await expect(panel.locator('tbody tr')).not.toHaveCount(0);
  await expect(panel).toContainText(/fatal|error/i);
  errs.check();
});
