// A JIT's perf map (/tmp/perf-PID.map: node --perf-basic-prof, Java perf-map-agent, .NET,
// Python -X perf) dropped with the perf.data names the JIT frames as perf names them: V8's
// "JS:*fib …" names in the Functions view and the call tree; without it they are perf's
// "[unknown]" in /tmp/perf-PID.map and the page keeps their addresses.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, shot, waitDecoded, watchErrors } from './helpers.js';

const DIR = path.join(REPO, 'tests', 'data', 'jitdump', 'perf_map_node');
const MAP = fs.readdirSync(DIR).find((f) => /^perf-\d+\.map$/.test(f));
const NODE = '/usr/bin/node';

test('perf.data + perf-PID.map: JIT frames carry V8\'s names', async ({ page }) => {
  test.skip(!MAP || !fs.existsSync(NODE), 'needs the case\'s perf map and Debian 12\'s node');
  const errs = watchErrors(page);
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  // the map file first: it must not be taken for the profile (its name starts with "perf")
  await page.getByTestId('file-input').setInputFiles([path.join(DIR, /** @type {string} */ (MAP)), path.join(DIR, 'perf.data'), NODE]);
  await waitDecoded(page, 'perf.data (+2 files');
  await page.getByRole('tab', { name: 'Functions' }).click();
  const fns = page.getByTestId('functions');
  await expect(fns).toContainText('JS:*fib');
  await expect(fns).toContainText('JS:*mix');
  await page.getByPlaceholder(/Search functions/).fill('JS:');
  await page.waitForTimeout(1500);
  await shot(page, '47-perf-map-js-names');
  errs.check();
});
