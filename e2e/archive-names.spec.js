// A perf.data taken to another machine with `perf archive`: dropped with its
// perf.data.tar.bz2, the page names the program's frames from the archive's
// build-id cache, in perf's time order (a multi-threaded recording: before the
// time-order fix two thirds of its samples showed as [unknown]); with the libc
// perf used (and libc6-dbg's debug file, where perf found start_thread) the
// stacks are perf's own, name for name (folded_sym.txt).
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dataFile, num, perfFoldedStacks, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const DIR = dataFile('archive_mt_fp');
const LIBC = '/lib/x86_64-linux-gnu/libc.so.6';

// libc6-dbg's debug file for this machine's libc (/usr/lib/debug/.build-id/xx/rest.debug), if installed.
function libcDebugFile() {
  const notes = execFileSync('readelf', ['-n', LIBC], { encoding: 'utf8' });
  const m = /Build ID: ([0-9a-f]+)/.exec(notes);
  if (!m) return null;
  const f = path.join('/usr/lib/debug/.build-id', m[1].slice(0, 2), `${m[1].slice(2)}.debug`);
  return fs.existsSync(f) ? f : null;
}

// The expanded call tree's heaviest path, top-down.
async function heaviestPath(page) {
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  await expect(tree.getByRole('row').first()).toBeVisible();
  const rows = await tree
    .locator('.ct-row')
    .evaluateAll((rs) => rs.map((r) => ({ level: Number(r.getAttribute('aria-level')), text: r.textContent ?? '' })));
  const out = [];
  for (const r of rows) if (r.level === out.length + 1) out.push(r.text);
  return out;
}

test('perf archive tarball dropped with the perf.data names every program frame as perf does', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, 'perf.data'), path.join(DIR, 'perf.data.tar.bz2')]);
  await waitDecoded(page, 'perf.data (+1 file');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(184);
  // perf's heaviest stack: start_thread;worker_b;work_b;spin_b 120 -- the program's part
  // (worker_b;work_b;spin_b) comes from the archive's copy of `mt`.
  const heaviest = perfFoldedStacks(DIR)[0];
  expect(heaviest.frames.slice(1)).toEqual(['worker_b', 'work_b', 'spin_b']);
  const got = await heaviestPath(page);
  for (let i = 0; i < 3; i++) {
    expect(got[i + 1], `depth ${i + 2}`).toContain(heaviest.frames[i + 1]);
    expect(got[i + 1], `depth ${i + 2}`).not.toContain('[unknown]');
  }
  await shot(page, '45-archive-names');
  errs.check();
});

test('with the libc perf used, the stacks are perf\'s own, name for name', async ({ page }) => {
  const dbg = libcDebugFile();
  test.skip(!dbg, 'libc6-dbg is not installed (scripts/setup.sh installs it)');
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page
    .getByTestId('file-input')
    .setInputFiles([path.join(DIR, 'perf.data'), path.join(DIR, 'perf.data.tar.bz2'), LIBC, /** @type {string} */ (dbg)]);
  await waitDecoded(page, 'perf.data (+3 files');
  const got = await heaviestPath(page);
  const heaviest = perfFoldedStacks(DIR)[0];
  expect(heaviest.frames).toEqual(['start_thread', 'worker_b', 'work_b', 'spin_b']);
  for (let i = 0; i < heaviest.frames.length; i++) expect(got[i], `depth ${i + 1}`).toContain(heaviest.frames[i]);
  errs.check();
});

// --call-graph dwarf + perf archive (archive_dwarf_lib): the program and its own
// library are only in the tarball; the page unwinds their samples with the
// .eh_frame read from it and shows perf's stacks, name for name (with the libc
// and ld.so perf used and libc6-dbg's debug file, dropped too).
test('a --call-graph dwarf recording unwinds through the binaries in its perf archive', async ({ page }) => {
  const dbg = libcDebugFile();
  test.skip(!dbg, 'libc6-dbg is not installed (scripts/setup.sh installs it)');
  const dir = dataFile('archive_dwarf_lib');
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page
    .getByTestId('file-input')
    .setInputFiles([path.join(dir, 'perf.data'), path.join(dir, 'perf.data.tar.bz2'), LIBC,
      '/lib64/ld-linux-x86-64.so.2', /** @type {string} */ (dbg)]);
  await waitDecoded(page, 'perf.data (+4 files');
  const got = await heaviestPath(page);
  const heaviest = perfFoldedStacks(dir)[0];
  // perf's heaviest stack (e.g. clone3;start_thread;worker;rec;leaf): every level, by name.
  expect(heaviest.frames.length).toBeGreaterThan(3);
  for (let i = 0; i < heaviest.frames.length; i++) expect(got[i], `depth ${i + 1}`).toContain(heaviest.frames[i]);
  // The library's functions are named in the Functions view, and no program frame is left unwound.
  await page.getByRole('tab', { name: 'Functions' }).click();
  const fns = page.getByTestId('functions');
  for (const name of ['lib_inner', 'lib_outer', 'via_lib', 'worker', 'leaf']) await expect(fns).toContainText(name);
  await expect(page.getByText(/drop dwprog|drop libdwlib/)).toHaveCount(0);
  await shot(page, '46-archive-dwarf');
  errs.check();
});
