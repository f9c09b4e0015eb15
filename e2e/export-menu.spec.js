// The page's Export menu: each format is written in the worker from the open profile and saved
// as a download (a Blob URL, nothing uploaded). The download is caught and read back: every
// format equals `profscope export` of the native CLI byte for byte, the folded text equals
// `profscope stacks`, and the speedscope JSON has the recording's threads and function names.
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO, shot, waitDecoded, watchErrors } from './helpers.js';

const NATIVE = path.join(REPO, 'build', 'native', 'profscope');
const DIR = path.join(REPO, 'tests', 'data', 'perf_diff');
const A = path.join(DIR, 'a.perf.data');
const BIN = path.join(DIR, 'mt_work');

function native(...args) {
  const r = spawnSync(NATIVE, args, { maxBuffer: 1 << 28 });
  expect(r.status, String(r.stderr)).toBe(0);
  return r.stdout;
}

async function exportFrom(page, format) {
  await page.getByRole('button', { name: /^Export/ }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[role=menuitem][data-format="${format}"]`).click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(file) };
}

test('Export menu: every format downloaded from the worker equals the native CLI\'s export', async ({ page }) => {
  test.skip(!fs.existsSync(NATIVE), 'native build missing');
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([A, BIN]);
  await waitDecoded(page, 'a.perf.data (+1 file)');

  await page.getByRole('button', { name: /^Export/ }).click();
  const menu = page.getByRole('menu', { name: 'Export' });
  await expect(menu.getByRole('menuitem')).toHaveText([/Folded stacks/, /speedscope JSON/, /Firefox Profiler/, /pprof/, /Chrome trace/, /perf script text/]);
  await shot(page, 'export-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  // folded = `profscope stacks` (and = `profscope export --format folded`)
  const folded = await exportFrom(page, 'folded');
  expect(folded.name).toBe('a.perf.data.folded');
  const stacks = native('stacks', A, '--symbols', BIN).toString('utf8');
  expect(folded.bytes.toString('utf8')).toBe(stacks);
  expect(stacks).toMatch(/;hash_worker;mix \d+\n/);

  // speedscope: one sampled profile per thread of the recording, with its function names
  const ss = await exportFrom(page, 'speedscope');
  expect(ss.name).toBe('a.perf.data.speedscope.json');
  const doc = JSON.parse(ss.bytes.toString('utf8'));
  expect(doc.$schema).toBe('https://www.speedscope.app/file-format-schema.json');
  const frameNames = new Set(doc.shared.frames.map((f) => f.name));
  for (const n of ['hash_worker', 'hash_block', 'mix', 'cmp_u32', 'sum_series', 'fill']) expect(frameNames.has(n), n).toBe(true);
  // the main thread and the three workers (hash, sort, sum) of mt_work
  expect(doc.profiles.length).toBe(4);
  // every thread named as perf names it: its comm, inherited from the parent at FORK
  for (const p of doc.profiles) expect(p.name).toMatch(/^mt_work \(pid \d+, tid \d+\)$/);
  expect(new Set(doc.profiles.map((p) => p.name)).size).toBe(4);
  for (const p of doc.profiles) expect(p.type).toBe('sampled');
  const total = doc.profiles.reduce((s, p) => s + p.weights.reduce((x, w) => x + w, 0), 0);
  expect(total).toBe(Number(fs.readFileSync(path.join(DIR, 'a.samples.txt'), 'utf8').trim()));

  // every format byte for byte as the native CLI writes it
  for (const [format, suffix] of [['speedscope', '.speedscope.json'], ['gecko', '.gecko.json'], ['pprof', '.pb.gz'], ['chrome', '.trace.json']]) {
    const got = format === 'speedscope' ? ss : await exportFrom(page, format);
    expect(got.name).toBe(`a.perf.data${suffix}`);
    expect(Buffer.compare(got.bytes, native('export', A, '--symbols', BIN, '--format', format)), format).toBe(0);
  }
  const pprof = await exportFrom(page, 'pprof');
  expect(zlib.gunzipSync(pprof.bytes).includes(Buffer.from('cmp_u32'))).toBe(true);
  const gecko = JSON.parse((await exportFrom(page, 'gecko')).bytes.toString('utf8'));
  expect(gecko.meta.version).toBe(24);
  const chrome = JSON.parse((await exportFrom(page, 'chrome')).bytes.toString('utf8'));
  expect(chrome.traceEvents.some((e) => e.ph === 'X' && e.name === 'hash_worker')).toBe(true);
  errs.check();
});

// perf script's text from the page: the tracepoint case with its perf archive tarball and the
// program perf archive left out. The download is perf's own `perf script` output byte for
// byte: callchains named from the tarball's kallsyms and the program, tracepoint payloads
// printed through their print fmt by libtraceevent in the WASM module, kernel addresses in
// them (a kmalloc's call_site) named as perf names them.
test('Export menu: "perf script text" of a tracepoint recording equals perf script', async ({ page }) => {
  const errs = watchErrors(page);
  const kt = path.join(REPO, 'tests', 'data', 'perf', 'tracepoint_kmem_timer');
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles([path.join(kt, 'perf.data'), path.join(kt, 'perf.data.tar.bz2'), path.join(kt, 'ksys')]);
  await waitDecoded(page, 'perf.data (+2 files)');
  const script = await exportFrom(page, 'perf-script');
  expect(script.name).toBe('perf.data.perf-script.txt');
  const text = script.bytes.toString('utf8');
  expect(text).toContain('kmem:kmalloc: call_site=perf_event_mmap+0x155 ptr=0xffff');
  expect(text).toContain('sched:sched_stat_runtime: comm=ksys pid=');
  expect(text).toBe(fs.readFileSync(path.join(kt, 'script_default.txt'), 'utf8'));
  errs.check();
});

test('Export menu: no "perf script text" for a profile that is not a perf.data', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  await page.getByTestId('file-input').setInputFiles(path.join(REPO, 'tests', 'data', 'xray', 'fdr_calltree', 'xray.log'));
  await waitDecoded(page, 'xray.log');
  await page.getByRole('button', { name: /^Export/ }).click();
  await expect(page.getByRole('menu', { name: 'Export' }).getByRole('menuitem')).toHaveCount(5);
  errs.check();
});
