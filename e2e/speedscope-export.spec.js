// The speedscope export opened by speedscope itself: the `speedscope` npm package's
// release build (node_modules/speedscope/dist/release, pinned 1.25.0) is served from
// 127.0.0.1 next to files made by `profscope export --format speedscope`, and loaded
// with speedscope's `#profileURL=`. The page must show no import error, the profile's
// threads in its profile selector and the frame names in its sandwich table (speedscope
// draws the flame graph on a canvas; its sandwich view lists the functions as text).
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { REPO, SHOTS } from './helpers.js';

const RELEASE = path.join(REPO, 'node_modules', 'speedscope', 'dist', 'release');
const NATIVE = path.join(REPO, 'build', 'native', 'profscope');
const DATA = path.join(REPO, 'tests', 'data');
let TMP = ''; // (made in beforeAll: the runner that lists the tests loads this file too, and would leave one)

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.wasm': 'application/wasm', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.txt': 'text/plain' };

let server;
let base;

test.beforeAll(async () => {
  TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'profscope-speedscope-'));
  // speedscope's own files under /, the exports under /profiles/
  server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = url.startsWith('/profiles/') ? path.join(TMP, path.basename(url)) : path.join(RELEASE, url === '/' ? 'index.html' : path.normalize(url));
    if (!file.startsWith(RELEASE) && !file.startsWith(TMP)) return res.writeHead(403).end();
    fs.readFile(file, (err, data) => {
      if (err) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(data);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});

test.afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(TMP, { recursive: true, force: true });
});

function exportSpeedscope(name, args) {
  const out = path.join(TMP, `${name}.speedscope.json`);
  const r = spawnSync(NATIVE, ['export', ...args, '--format', 'speedscope', '-o', out]);
  expect(r.status, String(r.stderr)).toBe(0);
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

async function open(page, name) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(`${base}/profiles/${name}.speedscope.json`)}`);
  return errors;
}

const CASES = [
  { name: 'perf-mt', args: [path.join(DATA, 'perf_diff', 'a.perf.data'), '--symbols', path.join(DATA, 'perf_diff', 'mt_work')] },
  {
    name: 'xray-threads',
    args: [path.join(DATA, 'xray', 'fdr_threads', 'xray.log'), '--instr-map', path.join(DATA, 'xray', 'fdr_threads', 'instrmap.yaml'), '--weight', 'time'],
  },
];

// The heaviest functions (self weight) of one profile of the export, by name.
function topNames(doc, k, n) {
  const self = new Map();
  const p = doc.profiles[k];
  p.samples.forEach((s, i) => {
    if (!s.length) return;
    const name = doc.shared.frames[s[s.length - 1]].name;
    self.set(name, (self.get(name) ?? 0) + p.weights[i]);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name]) => name);
}

for (const c of CASES) {
  test(`speedscope 1.25 opens the ${c.name} export without an error and shows its threads and functions`, async ({ page }) => {
    const doc = exportSpeedscope(c.name, c.args);
    const errors = await open(page, c.name);
    const count = doc.profiles.length;
    let k = doc.activeProfileIndex;
    // speedscope's toolbar: "NAME (K/N)" for the profile shown
    const title = (i) => page.getByText(`${doc.profiles[i].name} (${i + 1}/${count})`, { exact: true });
    await expect(title(k)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/Something went wrong|Could not|Failed to|Unrecognized format/i)).toHaveCount(0);
    await page.screenshot({ path: path.join(SHOTS, `speedscope-${c.name}-flame.png`) });
    // sandwich view (key 3): every function of the profile as a table row; n = next profile
    await page.keyboard.press('3');
    for (; k > 0; k--) await page.keyboard.press('p');  // from the first profile
    const seen = new Set();
    for (let step = 0; step < count; step++) {
      await expect(title(k)).toBeVisible();
      for (const n of topNames(doc, k, 3)) {
        await expect(page.getByText(n, { exact: true }).first(), `${n} in ${doc.profiles[k].name}`).toBeVisible();
        seen.add(n);
      }
      if (step === 0) await page.screenshot({ path: path.join(SHOTS, `speedscope-${c.name}-sandwich.png`) });
      if (k + 1 >= count) break;
      await page.keyboard.press('n');
      k += 1;
    }
    if (c.name === 'perf-mt') for (const n of ['sum_series', 'cmp_u32', 'mix', 'hash_block']) expect(seen.has(n), n).toBe(true);
    expect(errors).toEqual([]);
  });
}
