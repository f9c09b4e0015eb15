// Several files at once: a perf record --threads directory (data + data.N) and a side file.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { num, REPO, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const DIR = path.join(REPO, 'tests', 'data', 'perf_dir', 'threads_dir');

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
  // data.0's records repeated: two data files of ~69 MB each, more than the direct reader reads ahead
  // at once (data.N files are plain record streams)
  const times = 2100;
  const dir = path.join(REPO, 'test-results', 'threads-big', 'perf.data');
  fs.mkdirSync(dir, { recursive: true });
  const big = Buffer.concat(Array.from({ length: times }, () => fs.readFileSync(path.join(DIR, 'perf.data', 'data.0'))));
  fs.copyFileSync(path.join(DIR, 'perf.data', 'data'), path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data.0'), big);
  fs.writeFileSync(path.join(dir, 'data.1'), big);
  await page.getByTestId('file-input').setInputFiles(['data', 'data.0', 'data.1'].map((n) => path.join(dir, n)));
  await waitDecoded(page, 'data (+2 files)');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(287 * times * 2);
  const figures = await page.evaluate(() => window.__decoded.at(-1));
  expect(figures.dataFilesReadAhead).toBe(2); // both data files had a read-ahead of their own
  expect(figures.fromChunks).toBeGreaterThan(big.length); // most of their bytes came from it, not FileReaderSync
  errs.check();
});
