// Links that can be shared (issue 14, item 2): the view state in the URL hash survives the
// bundled sample a fresh browser opens first and any other file, and is applied when the file
// it was made for (name, size, hash of its first bytes) is opened: tab, thread filter, range,
// transforms, selected record.
import { test, expect } from '@playwright/test';
import { dataFile, openFile, shot, waitDecoded, watchErrors } from './helpers.js';

const MT = dataFile('archive_mt_fp', 'perf.data');
const OTHER = dataFile('dwarf_mt_nofp_pipe', 'pipe.data');
const hashOf = (page) => page.evaluate(() => location.hash);

test('a link made for a file is held over other files and applied to that file in a fresh browser', async ({ browser }) => {
  test.setTimeout(180_000);
  // the person who shares: opens the file, narrows, picks a record, copies the address
  const a = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const pa = await a.newPage();
  const errsA = watchErrors(pa);
  await pa.goto('./');
  await waitDecoded(pa, 'calltree.perf.data');
  await openFile(pa, MT);
  await pa.getByRole('tab', { name: 'Call tree' }).click();
  const threadFilter = pa.getByLabel('Thread filter');
  const options = await threadFilter.locator('option').evaluateAll((os) => os.map((o) => o.value));
  expect(options.length).toBeGreaterThan(2); // all + several threads
  const thread = options[2];
  await threadFilter.selectOption(thread);
  await pa.getByLabel('Invert', { exact: true }).check();
  await pa.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
  await pa.keyboard.press('j');
  await pa.keyboard.press('j');
  const selected = await pa.getByTestId('hex-selection').textContent();
  await expect.poll(() => hashOf(pa).then(decodeURIComponent)).toContain(`"threads":[${thread}]`);
  await expect.poll(() => hashOf(pa).then(decodeURIComponent)).toContain('"row":1');
  const url = pa.url();
  expect(decodeURIComponent(url)).toContain('perf.data:');
  errsA.check();
  await a.close();

  // the colleague: a fresh browser profile opens the link
  const b = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const pb = await b.newPage();
  const errsB = watchErrors(pb);
  await pb.goto(url);
  await waitDecoded(pb, 'calltree.perf.data');
  const linkHash = new URL(url).hash;
  // the bundled sample neither takes the state nor overwrites it
  await expect(pb.getByRole('tab', { name: 'Flame graph' })).toHaveAttribute('aria-selected', 'true');
  await pb.getByRole('tab', { name: 'Functions' }).click(); // a change while the link is held
  expect(await hashOf(pb)).toBe(linkHash);
  // another file never inherits it
  await openFile(pb, OTHER);
  await expect(pb.getByRole('tab', { name: 'Flame graph' })).toHaveAttribute('aria-selected', 'true');
  await expect(pb.getByLabel('Thread filter')).toHaveValue('');
  await expect(pb.getByLabel('Invert', { exact: true })).not.toBeChecked();
  expect(await hashOf(pb)).toBe(linkHash);
  // the file it was made for: tab, thread filter, invert and the record come back
  await openFile(pb, MT);
  await expect(pb.getByRole('tab', { name: 'Call tree' })).toHaveAttribute('aria-selected', 'true');
  await expect(pb.getByLabel('Thread filter')).toHaveValue(thread);
  await expect(pb.getByLabel('Invert', { exact: true })).toBeChecked();
  await expect(pb.getByRole('treegrid', { name: /inverted/ })).toBeVisible();
  await expect(pb.getByTestId('hex-selection')).toHaveText(selected);
  await shot(pb, '42-shared-link-applied');
  // from now on the hash follows this file's state again
  await pb.getByLabel('Invert', { exact: true }).uncheck();
  await expect.poll(() => hashOf(pb).then(decodeURIComponent)).toContain('"invert":false');
  errsB.check();
  await b.close();
});

test('a link with a time range and a transform restores both on its file', async ({ browser }) => {
  test.setTimeout(120_000);
  const c = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await c.newPage();
  const errs = watchErrors(page);
  // a state made by hand for the bundled sample's key, as another browser would have written it
  await page.goto('./');
  await waitDecoded(page, 'calltree.perf.data');
  const st = JSON.parse(decodeURIComponent((await hashOf(page)).slice(3)));
  const func = 0; // a canonical function of the sample
  st.tab = 'calltree';
  st.opts.filter.t0 = 1_000_000;
  st.opts.filter.t1 = 200_000_000;
  st.opts.transforms = [{ type: 'collapse-recursion', func, label: 'collapse recursion' }];
  const url = page.url().replace(/#.*$/, '') + '#s=' + encodeURIComponent(JSON.stringify(st));
  const fresh = await c.newPage();
  await fresh.goto(url);
  await waitDecoded(fresh, 'calltree.perf.data');
  await expect(fresh.getByRole('tab', { name: 'Call tree' })).toHaveAttribute('aria-selected', 'true');
  await expect(fresh.getByRole('button', { name: 'Clear the time range' })).toBeVisible();
  await expect(fresh.getByRole('list', { name: 'Transforms' }).getByRole('listitem')).toHaveCount(1);
  errs.check();
  await c.close();
});
