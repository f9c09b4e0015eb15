// The Compare tab: two real recordings of the same program (tests/data/perf_diff, run A sorts
// 4 rounds, B 8; produce.sh) dropped together with the program binary, or the second one
// added with "Compare with…". The counts the page shows (the functions table, a frame's
// tooltip, the pair's totals) are checked against `profscope diff` of the native CLI, by name.
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, shot, waitDecoded, watchErrors } from './helpers.js';

const NATIVE = path.join(REPO, 'build', 'native', 'profscope');
const DATA = path.join(REPO, 'tests', 'data');
const DIR = path.join(DATA, 'perf_diff');
const A = path.join(DIR, 'a.perf.data');
const B = path.join(DIR, 'b.perf.data');
const BIN = path.join(DIR, 'mt_work');
const perfTotal = (r) => Number(fs.readFileSync(path.join(DIR, `${r}.samples.txt`), 'utf8').trim());

/** `profscope diff` lines, and the self/total of a function over them (total: once per line). */
function nativeDiff(...args) {
  const r = spawnSync(NATIVE, ['diff', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split('\n').filter(Boolean).map((l) => {
    const m = /^(.*) (\d+) (\d+)$/.exec(l);
    return { frames: m[1].split(';'), a: Number(m[2]), b: Number(m[3]) };
  });
  const sum = (pick) => lines.filter(pick).reduce((s, l) => [s[0] + l.a, s[1] + l.b], [0, 0]);
  return {
    lines,
    self: (name) => sum((l) => l.frames[l.frames.length - 1] === name),
    total: (name) => sum((l) => l.frames.includes(name)),
  };
}

const int = (n) => n.toLocaleString('en-US');
const row = (page, name) => page.getByRole('table', { name: 'Functions by change' }).locator(`tr[data-name="${name}"]`);

async function expectRow(page, d, name) {
  const [sa, sb] = d.self(name);
  const [ta, tb] = d.total(name);
  const cells = row(page, name).locator('td');
  await expect(cells.nth(0)).toHaveText(name);
  await expect(cells.nth(1)).toHaveText(int(sa));
  await expect(cells.nth(2)).toHaveText(int(sb));
  await expect(cells.nth(3)).toHaveText(sb - sa > 0 ? `+${int(sb - sa)}` : sb === sa ? '0' : `−${int(sa - sb)}`);
  await expect(cells.nth(5)).toHaveText(int(ta));
  await expect(cells.nth(6)).toHaveText(int(tb));
}

async function dropFiles(page, files) {
  const list = files.map((f) => [path.basename(f), [...fs.readFileSync(f)]]);
  const dt = await page.evaluateHandle((l) => {
    const d = new DataTransfer();
    for (const [name, bytes] of l) d.items.add(new File([new Uint8Array(bytes)], name));
    return d;
  }, list);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
}

test.beforeEach(() => test.skip(!fs.existsSync(NATIVE), 'native build missing'));

test('two perf recordings dropped together open in the Compare tab: table, tooltip, normalize, swap', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await dropFiles(page, [B, BIN, A]);
  await waitDecoded(page, 'a.perf.data (+1 file)');
  await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
  const pair = page.getByTestId('compare-pair');
  await expect(pair).toContainText(`a.perf.data · ${int(perfTotal('a'))} samples`);
  await expect(pair).toContainText(`b.perf.data · ${int(perfTotal('b'))} samples`);

  const d = nativeDiff(A, B, '--symbols', BIN);
  // first row: the largest |self delta| of the native lines (here [unknown]: A's start-up samples);
  // the sort thread's comparison function grew in B, the other workers did the same work
  const leaves = [...new Set(d.lines.map((l) => l.frames[l.frames.length - 1]))];
  const change = (name) => Math.abs(d.self(name)[1] - d.self(name)[0]);
  const top = leaves.reduce((best, n) => (change(n) > change(best) ? n : best));
  // (several leaves may share the largest change: the first row is one of them)
  const tied = leaves.filter((n) => change(n) === change(top));
  const first = page.getByRole('table', { name: 'Functions by change' }).locator('tbody tr').first();
  await expect(first).toHaveAttribute('data-name', /./);
  expect(tied).toContain(await first.getAttribute('data-name'));
  for (const name of ['cmp_u32', 'hash_worker', 'mix', 'hash_block', 'sum_series']) await expectRow(page, d, name);
  await expect(row(page, 'cmp_u32').locator('td').nth(3)).toHaveClass(/grew/);

  // the differential flame graph: frames by name, hover shows both counts (here the one
  // hash_worker node: its totals are the function's)
  const flame = page.getByTestId('diff-flame');
  await expect(flame.locator('.diff-frame[data-name="sum_series"]')).toHaveCount(1);
  const hw = flame.locator('.diff-frame[data-name="hash_worker"]');
  await expect(hw).toHaveCount(1);
  expect(new Set(d.lines.filter((l) => l.frames.includes('hash_worker')).map((l) => l.frames.slice(0, l.frames.indexOf('hash_worker') + 1).join(';'))).size).toBe(1);
  await hw.hover();
  const tip = page.getByTestId('diff-tip');
  await expect(tip).toBeVisible();
  const [ta, tb] = d.total('hash_worker');
  await expect(tip).toContainText('hash_worker');
  await expect(tip.locator('tr[data-row="a"] td').first()).toHaveText(int(ta));
  await expect(tip.locator('tr[data-row="b"] td').first()).toHaveText(int(tb));
  await shot(page, 'compare-perf');

  // normalize: A scaled to B's total, as `profscope diff --normalize`
  await page.getByLabel("Normalize (scale A to B's total)").check();
  const n = nativeDiff(A, B, '--symbols', BIN, '--normalize');
  await expectRow(page, n, 'cmp_u32');
  await expectRow(page, n, 'sum_series');
  expect(n.lines.reduce((s, l) => s + l.a, 0)).toBe(perfTotal('b'));
  await shot(page, 'compare-perf-normalized');
  await page.getByLabel("Normalize (scale A to B's total)").uncheck();

  // swap: B against A, as `profscope diff B A`
  await page.getByRole('button', { name: 'Swap A/B' }).click();
  await expect(pair).toContainText(/A b\.perf\.data .*vs.*B a\.perf\.data/);
  const s = nativeDiff(B, A, '--symbols', BIN);
  await expectRow(page, s, 'cmp_u32');
  await expect(row(page, 'cmp_u32').locator('td').nth(3)).toHaveClass(/shrank/);
  errs.check();
});

test('"Compare with…" adds a second profile to the open one; a new file ends the comparison', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([A, BIN]);
  await waitDecoded(page, 'a.perf.data (+1 file)');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.getByTestId('compare')).toContainText('Compare with…');
  await page.getByTestId('compare-input').setInputFiles([B, BIN]);
  await expect(page.getByTestId('compare-pair')).toContainText('b.perf.data');
  await expectRow(page, nativeDiff(A, B, '--symbols', BIN), 'cmp_u32');
  // the same file on both sides: every change is 0
  await page.getByTestId('compare-input').setInputFiles([A, BIN]);
  await expect(page.getByTestId('compare-pair')).toContainText(/a\.perf\.data .*vs.*a\.perf\.data/);
  await expect(row(page, 'cmp_u32').locator('td').nth(3)).toHaveText('0');
  await page.getByTestId('file-input').setInputFiles([B, BIN]);
  await waitDecoded(page, 'b.perf.data (+1 file)');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.getByTestId('compare-pair')).toHaveCount(0);
  errs.check();
});

for (const c of [
  {
    name: 'XRay FDR vs XRay basic (same program, names from its binary)',
    a: path.join(DATA, 'xray', 'fdr_threads', 'xray.log'),
    b: path.join(DATA, 'xray', 'basic_threads', 'xray.log'),
    side: path.join(DATA, 'xray', 'fdr_threads', 'xray_threads'),
    flag: '--instr-map',
    names: ['worker(int)', 'deep(int, unsigned long)'],
  },
  {
    name: 'gperftools vs gperftools (the same profile: no change)',
    a: path.join(DATA, 'gperf', 'calltree_1000hz', 'cpu.prof'),
    b: path.join(DATA, 'gperf', 'calltree_1000hz', 'cpu.prof'),
    side: path.join(DATA, 'gperf', 'calltree_1000hz', 'calltree_prof'),
    flag: '--symbols',
    names: ['main', 'leaf_a', 'leaf_b'],
  },
  {
    name: 'simpleperf vs perf',
    a: path.join(DATA, 'simpleperf', 'perf_g_fp', 'perf.data'),
    b: path.join(DATA, 'perf', 'default_event', 'perf.data'),
    side: null,
    names: [],
  },
]) {
  test(`Compare across formats: ${c.name}`, async ({ page }) => {
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    await page.getByTestId('file-input').setInputFiles(c.side ? [c.a, c.side] : [c.a]);
    await waitDecoded(page, path.basename(c.a));
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByTestId('compare-input').setInputFiles(c.side ? [c.b, c.side] : [c.b]);
    const d = nativeDiff(c.a, c.b, ...(c.side ? [c.flag, c.side] : []));
    const sums = d.lines.reduce((s, l) => [s[0] + l.a, s[1] + l.b], [0, 0]);
    const pair = page.getByTestId('compare-pair');
    await expect(pair).toContainText(`${int(sums[0])} samples`);
    await expect(pair).toContainText(new RegExp(`vs.*${int(sums[1])} samples`));
    for (const name of c.names) await expectRow(page, d, name);
    await expect(page.getByTestId('diff-flame').locator('.diff-frame').first()).toBeVisible();
    await shot(page, `compare-${path.basename(path.dirname(c.a))}`);
    errs.check();
  });
}
