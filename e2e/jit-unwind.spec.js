// node --perf-prof --perf-prof-unwinding-info recorded with --call-graph dwarf:
// dropped with its jit dump (whose UNWINDING_INFO records hold the JIT code's
// .eh_frame) and node's and libc's binaries, the page unwinds through the JS
// frames the way perf does after perf inject --jit, so JS functions sit under
// node's own frames instead of starting stacks of their own. perf inject's
// output without the dump asks for the dump.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, perfFoldedStacks, shot, waitDecoded, watchErrors } from './helpers.js';

const DIR = path.join(REPO, 'tests', 'data', 'jitdump', 'perf_inject_jit_dwarf');
const DUMP = path.join(DIR, 'jit-12629.dump');
const LIBS = ['/lib/x86_64-linux-gnu/libc.so.6', '/lib64/ld-linux-x86-64.so.2'];
// perf named libc's frames from libc6-dbg's debug files (/usr/lib/debug/.build-id/xx/rest.debug).
const DEBUG = LIBS.map((f) => {
  if (!fs.existsSync(f)) return '';
  const id = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', f], { encoding: 'utf8' }))?.[1];
  return id ? path.join('/usr/lib/debug/.build-id', id.slice(0, 2), `${id.slice(2)}.debug`) : '';
});
const SYSTEM = ['/usr/bin/node', ...LIBS, ...DEBUG];

// The call tree's rows, top-down, with their levels.
async function treeRows(page) {
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  await expect(tree.getByRole('row').first()).toBeVisible();
  return tree
    .locator('.ct-row')
    .evaluateAll((rs) => rs.map((r) => ({ level: Number(r.getAttribute('aria-level')), text: r.textContent ?? '' })));
}

test('perf.data + jit dump + node: JS frames unwound under node\'s, as perf inject --jit shows them', async ({ page }) => {
  test.skip(!SYSTEM.every((f) => f && fs.existsSync(f)), "needs Debian 12's node, libc6 and libc6-dbg, which perf unwound through");
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, 'perf.data'), DUMP, ...SYSTEM]);
  await waitDecoded(page, 'perf.data (+6 files');
  // perf's stacks: 29 of 39 start at _start, 3 at clone3 (node's threads), the others where
  // perf stopped ([unknown], _init); none starts in JS code.
  const perf = perfFoldedStacks(DIR, 'jit_folded_sym.txt');
  const perfRoots = new Set(perf.map((s) => s.frames[0]));
  expect(perfRoots).toEqual(new Set(['_start', 'clone3', '_init', '[unknown]']));
  const rows = await treeRows(page);
  const roots = rows.filter((r) => r.level === 1).map((r) => r.text);
  expect(roots.some((t) => t.includes('_start'))).toBe(true);
  for (const t of roots) expect(t).not.toMatch(/JS:|Builtin:/);
  // the heaviest path opens at perf's first frames
  const open = [];
  for (const r of rows) if (r.level === open.length + 1) open.push(r.text);
  ['_start', '__libc_start_main_impl', '__libc_start_call_main', 'node::Start'].forEach((f, i) => {
    if (open[i] !== undefined) expect(open[i], `depth ${i + 1}`).toContain(f);
  });
  // V8's names from the dump, in the Functions view
  await page.getByRole('tab', { name: 'Functions' }).click();
  const fns = page.getByRole('table', { name: 'Functions' });
  await expect(fns).toContainText('JS:*fib /opt/demo/run/perf_inject_jit_dwarf/jswork.js:3:13');
  await expect(fns).toContainText('Builtin:JSEntry');
  await expect(fns).toContainText('node::NodeMainInstance::Run');
  await page.getByRole('tab', { name: /Diagnostics/ }).click();
  await expect(page.getByRole('tabpanel', { name: 'Diagnostics' })).not.toContainText('jit-12629.dump to unwind');
  await shot(page, '46-jit-unwound');
  errs.check();
});

test('perf inject --jit output without its jit dump asks for the dump', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, 'perf.jit.data'), '/usr/bin/node']);
  await waitDecoded(page, 'perf.jit.data (+1 file');
  const panel = page.getByTestId('missing-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('/opt/demo/run/perf_inject_jit_dwarf/jitted-12629-*.so');
  await expect(panel).toContainText('drop jit-12629.dump, the jit dump perf inject --jit made these files from');
  await shot(page, '47-jit-dump-missing');
  errs.check();
});
