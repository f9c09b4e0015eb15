// perf record --call-graph dwarf in the page: the stacks are unwound from each
// sample's registers and stack copy with the binary dropped beside the
// perf.data (core/format/perf/perf_unwind); without it, the page says which
// binary to drop and how many samples it would unwind.
import { test, expect } from '@playwright/test';
import path from 'node:path';
import { dataFile, num, perfFoldedStacks, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const DIR = dataFile('dwarf_static_nofp');

// The names of the expanded call tree's rows, top-down (the heaviest path is expanded).
async function treeNames(page) {
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  await expect(tree.getByRole('row').first()).toBeVisible();
  return tree.locator('.ct-row').evaluateAll((rows) =>
    rows.map((r) => ({ level: Number(r.getAttribute('aria-level')), text: r.textContent })),
  );
}

test('a --call-graph dwarf perf.data dropped with its binary shows perf\'s unwound stacks', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, 'perf.data'), path.join(DIR, 'calltree_static_nofp')]);
  await waitDecoded(page, 'perf.data (+1 file');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(244);
  // perf's heaviest stack: _start;__libc_start_main_impl;__libc_start_call_main;main;top_c;rec×6;leaf_c 127
  const heaviest = perfFoldedStacks(DIR)[0];
  expect(heaviest.count).toBe(127);
  const rows = await treeNames(page);
  const path0 = [];
  for (const r of rows) if (r.level === path0.length + 1) path0.push(r.text);
  // the call tree opens the heaviest path some levels deep (_start ... main;top_c;rec): each
  // level shown is perf's frame at that depth
  expect(path0.length).toBeGreaterThanOrEqual(6);
  for (let i = 0; i < Math.min(path0.length, heaviest.frames.length); i++) expect(path0[i], `depth ${i + 1}`).toContain(heaviest.frames[i]);
  // nothing left to ask for
  await page.getByRole('tab', { name: /Diagnostics/ }).click();
  await expect(page.getByRole('tabpanel', { name: 'Diagnostics' })).not.toContainText('to unwind');
  await shot(page, '40-dwarf-unwound');
  errs.check();
});

test('a frame of an unwound stack links to the stack-copy slot that held its return address', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, 'perf.data'), path.join(DIR, 'calltree_static_nofp')]);
  await waitDecoded(page, 'perf.data (+1 file');
  await page.getByRole('tab', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  // main: a caller whose address comes from a return address in the stack copy (level 4: _start, …, main)
  const row = tree.locator('.ct-row[aria-level="4"]').first();
  await expect(row).toContainText('main');
  await row.click();
  await expect(page.getByTestId('frame-slot')).toContainText(/unwound frame\[\d+\] at 0x/);
  const slot = (await page.getByTestId('frame-slot').textContent()).match(/at (0x[0-9a-f]+)/)[1];
  const hexSel = page.getByTestId('hex-selection');
  await expect(hexSel).toContainText(`Selection ${slot}`);
  await expect(hexSel).toContainText('(8 bytes)');
  await expect(page.locator(`.hex-view .hb[data-off="${parseInt(slot, 16)}"]`)).toHaveClass(/\bsel\b/);
  // the record tree shows the unwound frame, with the return address it held
  const treeSel = page.getByRole('tree', { name: 'Record tree' }).locator('[role=treeitem][aria-selected=true]');
  await expect(treeSel).toHaveCount(1);
  await expect(treeSel).toContainText('return address');
  await shot(page, '41-dwarf-frame-to-stack-slot');
  errs.check();
});

test('the same perf.data without its binary: one-frame stacks and which binary to drop', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(path.join(DIR, 'perf.data'));
  await waitDecoded(page, 'perf.data');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(244);
  const rows = await treeNames(page);
  // perf without the binary: each sample is its ip alone (folded_addrs_nobin.txt), unnamed
  for (const r of rows) {
    expect(r.level).toBe(1);
    expect(r.text).not.toContain('_start');
    expect(r.text).toContain('calltree_static_nofp+0x');
  }
  await page.getByRole('tab', { name: /Diagnostics/ }).click();
  const panel = page.getByRole('tabpanel', { name: 'Diagnostics' });
  await expect(panel).toContainText('drop calltree_static_nofp (build-id 3343e430c97b…) to unwind 244 samples');
  await expect(panel).toContainText('unwind_missing_binary');
  await shot(page, '41-dwarf-missing-binary');
  errs.check();
});

// Inlined functions (perf's "(inlined)" frames, from the program's DWARF): marked in the views.
test('inlined functions are marked "inlined" in the Functions view and the call tree', async ({ page }) => {
  const dir = dataFile('dwarf_cpp_nofp');
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(dir, 'perf.data'), path.join(dir, 'cpp_nofp')]);
  await waitDecoded(page, 'perf.data (+1 file');
  await page.getByRole('tab', { name: 'Functions' }).click();
  const fns = page.getByTestId('functions');
  // std::sort's helpers are inlined into the program's sorting(): perf prints them "(inlined)"
  const row = fns.locator('tr').filter({ hasText: 'std::__final_insertion_sort' }).first();
  await expect(row).toBeVisible();
  await expect(row.getByTestId('inlined-tag')).toBeVisible();
  // the program's own, called function is not marked
  const main = fns.locator('tr').filter({ hasText: /^\s*\d.*\bmain$/ }).first();
  await expect(main.getByTestId('inlined-tag')).toHaveCount(0);
  await row.scrollIntoViewIfNeeded();
  await shot(page, '42-dwarf-inlined-tags');
  errs.check();
});
