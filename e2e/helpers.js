// Shared helpers of the e2e specs.
import { expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const DATA = path.join(REPO, 'tests', 'data', 'perf');
export const SHOTS = path.join(REPO, 'e2e', 'screenshots');
fs.mkdirSync(SHOTS, { recursive: true });

export function dataFile(...parts) {
  return path.join(DATA, ...parts);
}

/** Summary value by its data-field (format, mode, records, samples, ...). */
/** A case's folded stacks from perf (folded_sym.txt: "a;b;c COUNT"), root first, heaviest first. */
export function perfFoldedStacks(dir, file = 'folded_sym.txt') {
  return fs
    .readFileSync(path.join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const sp = l.lastIndexOf(' ');
      return { frames: l.slice(0, sp).split(';'), count: Number(l.slice(sp + 1)) };
    })
    .sort((a, b) => b.count - a.count);
}

export function summaryField(page, field) {
  return page.getByLabel('Summary', { exact: true }).locator(`.sum-item[data-field="${field}"] dd`);
}

/** Waits until a decoded file named `name` is shown, with its record table. */
export async function waitDecoded(page, name) {
  await expect(page.getByTestId('file-name')).toContainText(name);
  await expect(page.getByRole('status', { name: 'Decoding progress' })).toHaveCount(0);
  await expect(summaryField(page, 'records')).not.toHaveText('–');
  // the record table follows the rest of the file ('tables' after 'decoded')
  await expect(page.getByTestId('records-pending')).toHaveCount(0);
}

/** Opens a local file through the "Open file…" input. */
export async function openFile(page, file) {
  await page.getByTestId('file-input').setInputFiles(file);
  await waitDecoded(page, path.basename(file));
}

export function num(text) {
  return Number(String(text).replace(/[^0-9]/g, ''));
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Collects uncaught page errors and console errors; call check() at the end. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { errors, check: () => expect(errors, errors.join('\n')).toEqual([]) };
}

/**
 * Clicks the progress line's Cancel while a file of `size` bytes decodes, and returns the byte the decode
 * stopped at, as the banner says it ("Decoding was cancelled at byte N of SIZE"): inside the file.
 */
export async function cancelDecode(page, size) {
  const progress = page.getByRole('status', { name: 'Decoding progress' });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveCount(0);
  const banner = page.getByTestId('decode-stopped');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(`of ${size.toLocaleString('en-US')}`);
  const at = num((await banner.textContent()).match(/cancelled at byte ([\d,]+)/)[1]);
  expect(at).toBeGreaterThan(0);
  expect(at).toBeLessThan(size);
  return at;
}
