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
