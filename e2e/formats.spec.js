// The other formats in the page, each opened together with the side file that names its frames:
// perf.data + jit-PID.dump (JIT frames named as perf inject --jit names them), an XRay log + its
// instrumented binary (function ids named from xray_instr_map), a gperftools profile + its binary.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { cancelDecode, num, REPO, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const T = (...p) => path.join(REPO, 'tests', 'data', ...p);

// Types into the function search and waits for its (debounced) count of matching functions.
async function expectMatches(page, text, atLeast) {
  await page.getByLabel('Search functions').fill(text);
  const count = page.getByTestId('search-count');
  await expect(count).toBeVisible();
  await expect.poll(async () => num(await count.textContent()), { timeout: 10000 }).toBeGreaterThanOrEqual(atLeast);
  return num(await count.textContent());
}

test('perf.data + its jit dump: JIT functions are named in the flame graph', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([
    T('jitdump', 'perf_inject_jit', 'perf.data'),
    T('jitdump', 'perf_inject_jit', 'jit-25830.dump'),
  ]);
  await waitDecoded(page, 'perf.data (+1 file');
  await expect(summaryField(page, 'format')).toHaveText('perf.data');
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  // perf inject --jit + perf script name this V8 function "JS:*sortWork /opt/demo/run/perf_inject_jit/jswork.js:9:18"
  await expectMatches(page, 'JS:*sortWork', 1);
  await shot(page, '30-perf-with-jitdump');
  // DEBUG_INFO of the dump gives JIT functions a source position, shown next to their name
  await page.getByRole('tab', { name: 'Functions' }).click();
  await expect(page.locator('td.fn-function .muted').first()).toHaveText(/:\d+$/);
  errs.check();
});

test('a jit dump alone: its code loads on the timeline, each clickable through to its record', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(T('jitdump', 'node_perf_prof', 'jit-25578.dump'));
  await waitDecoded(page, 'jit-25578.dump');
  // it says what to drop with it
  await expect(page.getByTestId('jitdump-alone')).toContainText('Drop it together with the perf.data recorded from the same process');
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  // jitdump_ref.txt: 2211 CODE_LOAD records, all from one thread
  await expect(page.getByTestId('chart-status')).toContainText('1 lane · 2,211 markers');
  const canvas = page.locator('.flame-chart canvas');
  const box = await canvas.boundingBox();
  // the first load sits at the left edge of the marker row
  await page.mouse.move(box.x + 1, box.y + 20 + 15 + 9); // ruler, lane title, middle of the marker row
  await expect(page.locator('.flame-tip .fc-name')).toContainText(/^code load: /);
  await page.mouse.down();
  await page.mouse.up();
  await expect(page.getByTestId('hex-selection')).toContainText('CODE_LOAD');
  await shot(page, '34-jitdump-timeline');
  errs.check();
});

// perf's record type names (a perf.data's numbering): the XRay log's types 16-33 are its own.
const PERF_NAMES = /^(MMAP2?|LOST|COMM|EXIT|THROTTLE|UNTHROTTLE|FORK|READ|SAMPLE|AUX|ITRACE_START|LOST_SAMPLES|SWITCH|SWITCH_CPU_WIDE|NAMESPACES|KSYMBOL|BPF_EVENT|CGROUP|TEXT_POKE|AUX_OUTPUT_HW_ID)\b/;

test('an XRay log never shows perf names, even before its labels arrive', async ({ page }) => {
  // hold back the worker's answers to 'labels': the tree shows what it knows before them
  await page.addInitScript(() => {
    const Orig = window.Worker;
    window.Worker = class extends Orig {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          if (e.data?.type === 'labels') e.stopImmediatePropagation();
        });
      }
    };
  });
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(T('xray', 'fdr_calltree', 'xray.log'));
  await waitDecoded(page, 'xray.log');
  const labels = page.locator('.rt-row:not(.rt-field) .rt-label');
  await expect(labels.first()).toBeVisible();
  const shown = await labels.allTextContents();
  // file header, BufferExtents, NewBuffer, WallTimeMarker, PIDRecord, NewCPUId, function enter/exit ...
  expect(shown).toEqual(expect.arrayContaining(['file header', 'BufferExtents', 'NewBuffer', 'WallTimeMarker', 'PIDRecord', 'NewCPUId']));
  expect(shown.filter((l) => PERF_NAMES.test(l))).toEqual([]);
  // and the record kind filter names the same types
  const kinds = await page.getByLabel('Record kind').locator('option').allTextContents();
  expect(kinds.filter((l) => PERF_NAMES.test(l))).toEqual([]);
  expect(kinds.join('\n')).toContain('NewBuffer');
});

test('record search on an XRay log: labels by kind and type, a regex, an offset', async ({ page }) => {
  // the worker keeps one label per (kind, type) for an XRay log, not a string per record
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(T('xray', 'fdr_calltree', 'xray.log'));
  await waitDecoded(page, 'xray.log');
  const search = page.getByLabel('Search records');
  // `profscope records`: 118 rows, 56 function enter and 56 function exit records
  await search.fill('function exit');
  await expect(page.getByTestId('record-count')).toHaveText(/^56 of 118 rows$/);
  const tree = page.getByRole('tree', { name: 'Record tree' });
  await expect(tree.getByRole('treeitem').first()).toContainText('function exit');
  await search.fill('/^function (enter|exit)$/');
  await expect(page.getByTestId('record-count')).toHaveText(/^112 of 118 rows$/);
  await search.fill('NEWBUFFER');
  await expect(page.getByTestId('record-count')).toHaveText(/^1 of 118 rows$/);
  await expect(tree.getByRole('treeitem').first()).toContainText('NewBuffer');
  await search.fill('0x0');
  await expect(page.getByTestId('record-count')).toHaveText(/^1 of 118 rows$/);
  await expect(tree.getByRole('treeitem').first()).toContainText('file header');
  errs.check();
});

test('XRay log + its instrumented binary: functions named from xray_instr_map', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([
    T('xray', 'fdr_calltree', 'xray.log'),
    T('xray', 'fdr_calltree', 'xray_calltree'),
  ]);
  await waitDecoded(page, 'xray.log (+1 file');
  await expect(summaryField(page, 'format')).toContainText(/xray/i);
  await page.getByRole('tab', { name: 'Flame chart' }).click();
  // llvm-xray stack -all-stacks names them run(int, char**), top_a(unsigned long), leaf_a(unsigned long) ...
  expect(await expectMatches(page, 'leaf_a(unsigned long)', 1)).toBe(1);
  // the chart draws the exact calls (enter/exit pairs), not sampled stacks
  await expect(page.getByTestId('chart-status')).toContainText('1 lane');
  // (no sampling interval: the calls have their own times)
  await expect(page.getByTestId('chart-status')).toContainText('each call drawn from its exact enter and exit times');
  await expect(page.getByTestId('chart-status')).not.toContainText('a sample is drawn');
  const canvas = page.locator('.flame-chart canvas');
  const box = await canvas.boundingBox();
  // hover the outermost call (depth row 1, just under the lane title) in the middle of the chart
  await page.mouse.move(box.x + box.width / 2, box.y + 20 + 15 + 18 + 8);
  await expect(page.locator('.flame-tip')).toBeVisible();
  await expect(page.locator('.flame-tip .fc-name')).toContainText('run(int, char**)');
  await expect(page.locator('.flame-tip .fc-sub')).toContainText(/µs from .* · depth 0 · /);
  await shot(page, '31-xray-with-binary');
  // clicking it selects its entry record (the bytes of the function-enter record)
  await page.mouse.click(box.x + box.width / 2, box.y + 20 + 15 + 18 + 8);
  await expect(page.getByTestId('hex-selection')).toContainText(/function enter/);
  // zoomed in, the chart asks the worker (which holds the calls) for the boxes in the new view and draws them
  const chart = page.getByTestId('flame-chart');
  await chart.getByRole('button', { name: '+' }).click();
  await chart.getByRole('button', { name: '+' }).click();
  const view = await chart.getAttribute('data-view');
  await expect(chart).toHaveAttribute('data-boxes-view', view);
  await page.mouse.move(box.x + box.width / 2 + 3, box.y + 20 + 15 + 18 + 8);
  await expect(page.locator('.flame-tip .fc-name')).toContainText('run(int, char**)');
  await expect(page.locator('.flame-tip .fc-sub')).toContainText(/µs from .* · depth 0 · /);
  // a call one depth down, in this view
  await page.mouse.move(box.x + box.width / 2 + 3, box.y + 20 + 15 + 18 + 16 + 8);
  await expect(page.locator('.flame-tip .fc-sub')).toContainText(/ · depth 1 · /);
  // Functions: llvm-xray account's table (account.txt: leaf_a is called 5 times)
  await page.getByRole('tab', { name: 'Functions' }).click();
  const table = page.getByRole('table', { name: 'Function accounting' });
  await expect(table).toBeVisible();
  const row = table.locator('tr', { hasText: 'leaf_a(unsigned long)' });
  await expect(row.locator('td.fn-count')).toHaveText('5');
  await shot(page, '33-xray-functions');
  // Composition: bytes per XRay record kind
  await page.getByRole('tab', { name: 'Composition' }).click();
  await expect(page.getByTestId('cmp-records')).toContainText('function enter');
  errs.check();
});

test('gperftools profile + its binary: PCs named from the ELF symbols', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([
    T('gperf', 'calltree_1000hz', 'cpu.prof'),
    T('gperf', 'calltree_1000hz', 'calltree_prof'),
  ]);
  await waitDecoded(page, 'cpu.prof (+1 file');
  expect(num(await summaryField(page, 'samples').textContent())).toBe(71);
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  // pprof --text names the same frames: main, top_c, rec, leaf_c ...
  expect(await expectMatches(page, '/^leaf_[abc]$/', 3)).toBe(3);
  await shot(page, '32-gperf-with-binary');
  // pprof's adjustments are visible switches: turning one on decodes again with it, keeping the binary
  const opt = page.getByRole('checkbox', { name: 'PC − 1 for callers' });
  await expect(opt).not.toBeChecked();
  await opt.click(); // the box shows the options in force: it turns on when the new decode is done
  await waitDecoded(page, 'cpu.prof (+1 file');
  await expect(page.getByRole('checkbox', { name: 'PC − 1 for callers' })).toBeChecked();
  expect(num(await summaryField(page, 'samples').textContent())).toBe(71);
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  expect(await expectMatches(page, '/^leaf_[abc]$/', 3)).toBe(3);
  // Functions: self/total per function of the samples
  await page.getByRole('tab', { name: 'Functions' }).click();
  await expect(page.getByRole('table', { name: 'Functions' })).toContainText('main');
  errs.check();
});

// A large gperftools profile and a large jit dump (a real one's records repeated; Playwright takes
// buffers up to 50 MB: written to files) decode in steps as perf.data and XRay logs do: progress, and a
// Cancel keeps what was read and says where it stopped.
function bigGperf(copies) {
  const d = fs.readFileSync(T('gperf', 'calltree_1000hz', 'cpu.prof'));
  let off = 40;  // the 64-bit header's five words; then (count, depth, PCs) records until the trailer (0, 1, 0)
  for (;;) {
    const count = d.readBigUInt64LE(off), depth = Number(d.readBigUInt64LE(off + 8));
    if (count === 0n && depth === 1 && d.readBigUInt64LE(off + 16) === 0n) break;
    off += 16 + 8 * depth;
  }
  return Buffer.concat([d.subarray(0, 40), ...Array.from({ length: copies }, () => d.subarray(40, off)), d.subarray(off)]);
}
function bigJit(copies) {
  const d = fs.readFileSync(T('jitdump', 'node_perf_prof', 'jit-25578.dump'));
  const first = d.readUInt32LE(8);  // the header's total_size: where the records start
  return Buffer.concat([d.subarray(0, first), ...Array.from({ length: copies }, () => d.subarray(first))]);
}

for (const [what, name, make] of [
  // ~450 MB each: several seconds to decode, so the Cancel comes well before the end
  ['gperftools profile', 'big.prof', () => bigGperf(480000)],
  ['jit dump', 'jit-25578-big.dump', () => bigJit(240)],
]) {
  test(`a large ${what}: progress while it decodes, and a Cancel keeps what was read`, async ({ page }) => {
    test.setTimeout(120_000);
    const errs = watchErrors(page);
    await page.goto('./');
    await waitDecoded(page, 'calltree.perf.data');
    const file = path.join(REPO, 'test-results', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, make());
    const size = fs.statSync(file).size;
    await page.getByTestId('file-input').setInputFiles(file);
    const progress = page.getByRole('status', { name: 'Decoding progress' });
    await expect(progress).toBeVisible();
    await expect(progress.locator('progress')).toHaveAttribute('value', /[1-9]/);
    await cancelDecode(page, size);
    if (name.endsWith('.prof')) {
      // 71 samples in each copy of the records: some, not all, were read
      const samples = num(await summaryField(page, 'samples').textContent());
      expect(samples).toBeGreaterThan(0);
      expect(samples).toBeLessThan(71 * 480000);
    } else {
      // 2 211 code loads in each copy: the timeline holds those read
      await page.getByRole('tab', { name: 'Flame chart' }).click();
      const markers = num((await page.getByTestId('chart-status').textContent()).match(/([\d,]+) markers/)[1]);
      expect(markers).toBeGreaterThan(0);
      expect(markers).toBeLessThan(2211 * 241);
    }
    await page.getByRole('tab', { name: /Diagnostics/ }).click();
    const diag = page.getByRole('tabpanel', { name: 'Diagnostics' }).locator('tbody tr').filter({ hasText: 'decoding was stopped at byte offset' });
    await expect(diag).toHaveCount(1);
    await shot(page, name.endsWith('.prof') ? '08e-gperf-cancelled' : '08f-jitdump-cancelled');
    fs.rmSync(file);
    errs.check();
  });
}
