// Side folders of symbols in the page (issue 13): a perf.data dropped with a
// folder — the build-id cache perf record wrote (tests/data/perf_symdirs/
// symdir_fp/cache: .build-id/xx/yyyy links and <path>/<build-id>/elf) — names the
// program's functions as perf did from that cache (script_cache.txt); a folder holding another
// build of the program is refused (build-id mismatch: the frames keep their
// addresses and the diagnostics say why); several loose files (perf.data + the
// cache's `elf`) work the same way. The page says "perf.data (+1 folder)".
// Chromium cannot put a folder into a synthetic DataTransfer, so the folder drop
// hands the page's walker (web/src/lib/multi-file.js droppedFiles) an object
// with the FileSystemEntry API (isDirectory, createReader().readEntries, file())
// over real File objects of the folder's files, as the browser's drop does.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, num, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const CASE = path.join(REPO, 'tests', 'data', 'perf_symdirs', 'symdir_fp');

// The folder's files (links followed), as [relative path, bytes].
function folderFiles(dir, rel = '') {
  const out = [];
  for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
    const p = path.join(dir, rel, name);
    const st = fs.statSync(p);
    if (st.isDirectory()) out.push(...folderFiles(dir, path.join(rel, name)));
    else out.push([path.join(rel, name), [...fs.readFileSync(p)]]);
  }
  return out;
}

// Drops perf.data and the folder `dir` (named `folder`) on the page; with `alone`, the folder
// only (onto the profile already open).
async function dropWithFolder(page, folder, dir, alone = false) {
  const data = [...fs.readFileSync(path.join(CASE, 'perf.data'))];
  await page.evaluate(
    ({ data, folder, files, alone }) => {
      const fileEntry = (name, fullPath, file) => ({ isFile: true, isDirectory: false, name, fullPath, file: (ok) => ok(file) });
      const dirEntry = (name, fullPath) => {
        const children = new Map();
        return {
          isFile: false,
          isDirectory: true,
          name,
          fullPath,
          children,
          createReader() {
            let done = false;
            return { readEntries: (ok) => { const list = done ? [] : [...children.values()]; done = true; ok(list); } };
          },
        };
      };
      const root = dirEntry(folder, `/${folder}`);
      for (const [rel, bytes] of files) {
        const parts = rel.split('/');
        let d = root;
        for (let i = 0; i < parts.length - 1; i++) {
          if (!d.children.has(parts[i])) d.children.set(parts[i], dirEntry(parts[i], `${d.fullPath}/${parts[i]}`));
          d = d.children.get(parts[i]);
        }
        const name = parts[parts.length - 1];
        d.children.set(name, fileEntry(name, `${d.fullPath}/${name}`, new File([new Uint8Array(bytes)], name)));
      }
      const perf = new File([new Uint8Array(data)], 'perf.data');
      const items = [
        { kind: 'file', webkitGetAsEntry: () => fileEntry('perf.data', '/perf.data', perf) },
        { kind: 'file', webkitGetAsEntry: () => root },
      ];
      const dt = alone ? { types: ['Files'], items: items.slice(1), files: [] } : { types: ['Files'], items, files: [perf] };
      for (const type of ['dragenter', 'drop']) {
        const e = new Event(type, { bubbles: true, cancelable: true });
        Object.defineProperty(e, 'dataTransfer', { value: dt });
        document.body.dispatchEvent(e);
      }
    },
    { data, folder, files: folderFiles(dir), alone },
  );
}

// The Functions view's rows: name text and self count.
async function functionRows(page) {
  await page.getByRole('tab', { name: 'Functions' }).click();
  const table = page.getByRole('table', { name: 'Functions' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  return table.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => r.textContent || ''));
}

// perf's leaf functions and their sample counts (script_cache.txt: the first frame line of each sample).
function perfLeaves(file) {
  const counts = new Map();
  for (const block of fs.readFileSync(path.join(CASE, file), 'utf8').split('\n\n')) {
    const frame = block.split('\n')[1];
    if (!frame) continue;
    const name = frame.trim().split(/\s+/)[1].replace(/\+0x[0-9a-f]+$/, '');
    counts.set(name, (counts.get(name) || 0) + 1);
  }
  return counts;
}

test('perf.data dropped with a build-id cache folder: the Functions view names what perf named', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await dropWithFolder(page, 'cache', path.join(CASE, 'cache'));
  await waitDecoded(page, 'perf.data (+1 folder)');
  const leaves = perfLeaves('script_cache.txt');
  expect([...leaves.keys()].sort()).toEqual(['leaf_a', 'leaf_b']);
  const rows = await functionRows(page);
  const text = rows.join('\n');
  for (const name of ['leaf_a', 'leaf_b', 'run', '_start']) expect(text).toContain(name);
  expect(text).not.toContain('/opt/demo/run/symdir_fp/symdir+0x');
  // leaf_a's self count is the number of samples perf shows in it
  const leafA = rows.find((r) => r.includes('leaf_a'));
  expect(leafA).toContain(String(leaves.get('leaf_a')));
  await shot(page, '47-symbol-folder-functions');
  errs.check();
});

test('a folder with another build of the program is refused: addresses stay, the diagnostics say why', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await dropWithFolder(page, 'mismatch', path.join(CASE, 'mismatch'));
  await waitDecoded(page, 'perf.data (+1 folder)');
  const text = (await functionRows(page)).join('\n');
  expect(text).toContain('/opt/demo/run/symdir_fp/symdir+0x');
  expect(text).not.toContain('leaf_a');
  await page.getByRole('tab', { name: 'Diagnostics' }).click();
  await expect(page.getByText(/opt\/demo\/run\/symdir_fp\/symdir has build-id .* not used/).first()).toBeVisible();
  errs.check();
});

test('several loose files: perf.data with the cache\'s elf file', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const elf = path.join(CASE, 'cache', 'opt', 'demo', 'run', 'symdir_fp', 'symdir', 'e49c2093c7ba4d107d73e668b750eb5debb397e0', 'elf');
  await page.getByTestId('file-input').setInputFiles([path.join(CASE, 'perf.data'), elf]);
  await waitDecoded(page, 'perf.data (+1 file)');
  const perfSamples = fs.readFileSync(path.join(CASE, 'script_cache.txt'), 'utf8').split('\n').filter((l) => l.includes('task-clock:u:')).length;
  expect(num(await summaryField(page, 'samples').textContent())).toBe(perfSamples);
  const text = (await functionRows(page)).join('\n');
  for (const name of ['leaf_a', 'leaf_b', 'run']) expect(text).toContain(name);
  errs.check();
});

// perf.data opened alone: the "what is missing" panel names the program; its "Add folder…" button
// (a real <input webkitdirectory>, given the cache folder) and a folder dropped on the open
// profile both reopen it with the folder as a side folder of symbols.
test('the missing panel\'s "Add folder…" takes the build-id cache folder; a folder dropped on the open profile too', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(CASE, 'perf.data')]);
  await expect(page.getByTestId('file-name')).toHaveText(/^perf\.data\s*·/);
  await waitDecoded(page, 'perf.data');
  const panel = page.getByTestId('missing-panel');
  await expect(panel).toContainText('/opt/demo/run/symdir_fp/symdir');
  expect((await functionRows(page)).join('\n')).not.toContain('leaf_a');
  await expect(panel.getByRole('button', { name: 'Add folder…' })).toBeVisible();
  await shot(page, '48-missing-add-folder');
  await panel.getByTestId('missing-add-folder').setInputFiles(path.join(CASE, 'cache'));
  await waitDecoded(page, 'perf.data (+1 folder)');
  const leaves = perfLeaves('script_cache.txt');
  let rows = await functionRows(page);
  for (const name of ['leaf_a', 'leaf_b', 'run', '_start']) expect(rows.join('\n')).toContain(name);
  expect(rows.find((r) => r.includes('leaf_a'))).toContain(String(leaves.get('leaf_a')));
  await shot(page, '49-added-folder-functions');

  // the same folder dropped alone onto the profile opened without it
  await page.getByTestId('file-input').setInputFiles([path.join(CASE, 'perf.data')]);
  await expect(page.getByTestId('file-name')).toHaveText(/^perf\.data\s*·/);
  await waitDecoded(page, 'perf.data');
  expect((await functionRows(page)).join('\n')).not.toContain('leaf_a');
  await dropWithFolder(page, 'cache', path.join(CASE, 'cache'), true);
  await waitDecoded(page, 'perf.data (+1 folder)');
  rows = await functionRows(page);
  for (const name of ['leaf_a', 'leaf_b', 'run']) expect(rows.join('\n')).toContain(name);
  errs.check();
});
