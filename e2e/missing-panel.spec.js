// "What is missing": right after a drop the page lists every mapping whose frames have no
// names (and, for --call-graph dwarf, the binaries whose absence cut stacks short), most
// samples first, each saying what to drop; adding the files it asks for updates the list,
// until nothing is missing and the panel goes away. It can be dismissed.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { dataFile, shot, waitDecoded, watchErrors } from './helpers.js';

const DIR = dataFile('archive_mt_fp');
const LIBC = '/lib/x86_64-linux-gnu/libc.so.6';
const LIBC_DEBUG = '/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug';

const items = (page) => page.getByTestId('missing-panel').getByRole('listitem');

test('perf.data alone asks for the perf archive tarball, then libc, then its debug file', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(path.join(DIR, 'perf.data'));
  await waitDecoded(page, 'perf.data');
  const panel = page.getByTestId('missing-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('2 things are missing to name every frame');
  await expect(items(page)).toHaveCount(2);
  // ranked: the program (184 samples, 550 frames) before libc (184 samples, 184 frames)
  await expect(items(page).nth(0)).toContainText('/opt/demo/run/archive_mt_fp/mt');
  await expect(items(page).nth(0)).toContainText('184 samples, 550 frames unnamed');
  await expect(items(page).nth(0)).toContainText('run `perf archive` on the recording machine and drop perf.data.tar.bz2');
  await expect(items(page).nth(1)).toContainText('/usr/lib/x86_64-linux-gnu/libc.so.6');
  await expect(items(page).nth(1)).toContainText("drop libc.so.6 (the recording machine's /usr/lib/x86_64-linux-gnu/libc.so.6)");
  await shot(page, 'missing-panel-alone');

  // the tarball, added from the panel: the program is named, libc is still listed
  await page.getByTestId('missing-add-files').setInputFiles(path.join(DIR, 'perf.data.tar.bz2'));
  await waitDecoded(page, 'perf.data (+1 file)');
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).nth(0)).toContainText('/usr/lib/x86_64-linux-gnu/libc.so.6');
  await expect(items(page).nth(0)).toContainText('184 samples, 184 frames unnamed');
  await shot(page, 'missing-panel-tarball');

  test.skip(!fs.existsSync(LIBC) || !fs.existsSync(LIBC_DEBUG), "needs Debian 12's libc6 and libc6-dbg");
  // Debian's libc.so.6 is stripped: the page cannot look in /usr/lib/debug, so it names the debug file
  await page.getByTestId('missing-add-files').setInputFiles(LIBC);
  await waitDecoded(page, 'perf.data (+2 files)');
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).nth(0)).toContainText(`drop its debug file ${LIBC_DEBUG} (package libc6-dbg)`);
  await shot(page, 'missing-panel-libc');

  // with the debug file nothing is missing: the panel goes away
  await page.getByTestId('missing-add-files').setInputFiles(LIBC_DEBUG);
  await waitDecoded(page, 'perf.data (+3 files)');
  await expect(panel).toHaveCount(0);
  errs.check();
});

test('the tarball dropped with perf.data leaves libc listed; the panel can be dismissed', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, 'perf.data'), path.join(DIR, 'perf.data.tar.bz2')]);
  await waitDecoded(page, 'perf.data (+1 file');
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).nth(0)).toContainText('libc.so.6');
  await page.getByTestId('missing-panel').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('missing-panel')).toHaveCount(0);
  errs.check();
});

test('a dwarf recording without its binary lists the binary with the samples it cut short', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(dataFile('dwarf_static_nofp', 'perf.data'));
  await waitDecoded(page, 'perf.data');
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).nth(0)).toContainText('/opt/demo/run/dwarf_static_nofp/calltree_static_nofp');
  await expect(items(page).nth(0)).toContainText('244 samples cut short (unwinding stopped there)');
  await expect(items(page).nth(0)).toContainText('3343e430c97b');
  await shot(page, 'missing-panel-dwarf');
  // the binary, added from the panel: everything unwinds and is named
  await page.getByTestId('missing-add-files').setInputFiles(dataFile('dwarf_static_nofp', 'calltree_static_nofp'));
  await waitDecoded(page, 'perf.data (+1 file)');
  await expect(page.getByTestId('missing-panel')).toHaveCount(0);
  errs.check();
});
