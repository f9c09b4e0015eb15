// Several files at once: a perf record --threads directory (data + data.N) and a side file.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { num, REPO, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const DIR = path.join(REPO, 'tests', 'data', 'perf_dir', 'threads_dir');

/**
 * Opens a large --threads recording made of threads_dir's: its data file, and data.0's records repeated
 * `times` times as data.0 and as data.1 (data.N files are plain record streams). Returns data.0's bytes.
 * @param {import('@playwright/test').Page} page
 * @param {string} name folder under test-results
 * @param {number} times
 */
async function openBigThreads(page, name, times) {
  const dir = path.join(REPO, 'test-results', name, 'perf.data');
  fs.mkdirSync(dir, { recursive: true });
  const big = Buffer.concat(Array.from({ length: times }, () => fs.readFileSync(path.join(DIR, 'perf.data', 'data.0'))));
  fs.copyFileSync(path.join(DIR, 'perf.data', 'data'), path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data.0'), big);
  fs.writeFileSync(path.join(dir, 'data.1'), big);
  await page.getByTestId('file-input').setInputFiles(['data', 'data.0', 'data.1'].map((n) => path.join(dir, n)));
  return big;
}

test('a perf --threads directory chosen as several files: data + data.N decode together', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  // `data` alone holds no samples (they are in data.0): the reference is `perf report -D` of the directory
  const ref = (fs.readFileSync(path.join(DIR, 'report_D.txt'), 'utf8').match(/PERF_RECORD_SAMPLE/g) || []).length;
  expect(ref).toBe(287);
  await page.getByTestId('file-input').setInputFiles([
    path.join(DIR, 'perf.data', 'data.1'),
    path.join(DIR, 'perf.data', 'data'),
    path.join(DIR, 'perf.data', 'data.0'),
    path.join(DIR, 'calltree'), // the program binary: a side file
  ]);
  await waitDecoded(page, 'data (+3 files)');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(287);
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Flame chart' }).getByRole('img')).toHaveAttribute('aria-label', /287 samples/);
  await shot(page, '27-threads-dir');
  errs.check();
});

test('a --threads recording of named threads whose samples are in both data files: every thread and frame is named as perf script names them', async ({ page }) => {
  const errs = watchErrors(page);
  const named = path.join(REPO, 'tests', 'data', 'perf_dir', 'threads_named');
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  // perf script's threads and their sample counts
  const script = fs.readFileSync(path.join(named, 'script_default.txt'), 'utf8');
  /** @type {Map<string, number>} */
  const want = new Map();
  for (const m of script.matchAll(/^(\S+) +(\d+) /gm)) want.set(`${m[1]} ${m[2]}`, (want.get(`${m[1]} ${m[2]}`) ?? 0) + 1);
  expect([...want.keys()].map((k) => k.split(' ')[0]).sort()).toEqual(['alpha', 'beta', 'gamma']);
  await page.getByTestId('file-input').setInputFiles([
    ...['data', 'data.0', 'data.1'].map((n) => path.join(named, 'perf.data', n)),
    path.join(named, 'named_threads'),
  ]);
  await waitDecoded(page, 'data (+3 files)');
  expect(num(await summaryField(page, 'samples').textContent())).toBe([...want.values()].reduce((a, b) => a + b, 0));
  // the size is the recording's, data files included (the main file alone is ~5 KiB of header and features)
  const bytes = ['data', 'data.0', 'data.1'].reduce((n, f) => n + fs.statSync(path.join(named, 'perf.data', f)).size, 0);
  await expect(page.locator('.sum-item[data-field="size"]')).toHaveAttribute('title', new RegExp(`^${bytes.toLocaleString('en-US')} bytes: .* in 2 data files$`));
  // the thread filter lists each thread by its name, with perf script's count of its samples
  const options = await page.getByLabel('Thread filter').locator('option').allTextContents();
  for (const [key, n] of want) {
    const [name, tid] = key.split(' ');
    expect(options.some((o) => o.startsWith(`${name} `) && o.includes(`/${tid} `) && o.includes(`(${n.toLocaleString('en-US')})`)), `${key}: ${options.join(' | ')}`).toBe(true);
  }
  // the program's functions, named from its binary, in as many samples as perf script shows them
  await page.getByRole('tab', { name: 'Functions' }).click();
  const fns = page.getByTestId('functions');
  for (const name of ['leaf_a', 'leaf_b', 'leaf_c', 'run']) {
    const n = (script.match(new RegExp(` ${name}\\+`, 'g')) || []).length;
    expect(n).toBeGreaterThan(0);
    await expect(fns.getByRole('row').filter({ hasText: new RegExp(`${name}$`) })).toContainText(n.toLocaleString('en-US'));
  }
  await shot(page, '27b-threads-named');
  errs.check();
});

test('several files dropped at once: data + data.N decode together', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const files = ['data', 'data.0', 'data.1'].map((n) => [n, [...fs.readFileSync(path.join(DIR, 'perf.data', n))]]);
  // (a folder drop is walked with webkitGetAsEntry into this same list; a synthetic DataTransfer cannot hold a folder)
  const dt = await page.evaluateHandle((list) => {
    const d = new DataTransfer();
    for (const [name, bytes] of list) d.items.add(new File([new Uint8Array(bytes)], name));
    return d;
  }, files);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await waitDecoded(page, 'data (+2 files)');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(287);
  errs.check();
});

test('a large --threads recording: each data file is read ahead while the decode is in it, and all of it is shown', async ({ page }) => {
  test.setTimeout(120_000);
  const errs = watchErrors(page);
  // the worker's figures of each decode (its 'decoded' message's benchTimes)
  await page.addInitScript(() => {
    const Orig = window.Worker;
    window.__decoded = [];
    window.Worker = class extends Orig {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          if (e.data && e.data.type === 'decoded') window.__decoded.push(e.data.benchTimes);
        });
      }
    };
  });
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  // two data files of ~69 MB each, more than the direct reader reads ahead at once
  const times = 2100;
  const big = await openBigThreads(page, 'threads-big', times);
  await waitDecoded(page, 'data (+2 files)');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(287 * times * 2);
  const figures = await page.evaluate(() => window.__decoded.at(-1));
  expect(figures.dataFilesReadAhead).toBe(2); // both data files had a read-ahead of their own
  expect(figures.fromChunks).toBeGreaterThan(big.length); // most of their bytes came from it, not FileReaderSync
  errs.check();
});

test('a Cancel while the data files are read stops every one of them; the banner says where and that they take turns', async ({ page }) => {
  test.setTimeout(180_000);
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  // two data files of ~175 MB each (several seconds to decode, so the Cancel comes well before the end),
  // read 2 MiB of each in turn
  const times = 5300;
  await openBigThreads(page, 'threads-cancel', times);
  const progress = page.getByRole('status', { name: 'Decoding progress' });
  await expect(progress).toContainText(/Decoding… [\d.]+ ?% · [1-9][\d,]* samples/);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveCount(0);
  const banner = page.getByTestId('decode-stopped');
  await expect(banner).toContainText(/Decoding was cancelled at byte [\d,]+ of data file data\.[01] \([\d.]+ ?%; the data files are read in turns, each about as far\)/);
  // what was read is shown: fewer samples than all
  const samples = num(await summaryField(page, 'samples').textContent());
  expect(samples).toBeGreaterThan(0);
  expect(samples).toBeLessThan(287 * times * 2);
  await page.getByRole('tab', { name: /Diagnostics/ }).click();
  const diag = page.getByRole('tabpanel', { name: 'Diagnostics' }).locator('tbody tr').filter({ hasText: 'decoding was stopped at byte offset' });
  await expect(diag).toHaveCount(1);
  await expect(diag).toContainText('nor the rest of the other data files (they are read in turns)');
  errs.check();
});
