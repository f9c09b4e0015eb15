// Bytes of compressed records (issue 14 item 6): inside a perf -z file, nested records have
// offsets in their COMPRESSED container's decompressed stream. They are marked z+0x…, and a
// selected nested record shows the container's decompressed bytes with its own highlighted; the
// container's compressed bytes are one click away.
import { test, expect } from '@playwright/test';
import { dataFile, openFile, shot, watchErrors } from './helpers.js';

test('a record inside a compressed container: z+ offsets and its decompressed bytes', async ({ page }) => {
  const errs = watchErrors(page);
  await page.goto('./');
  // perf record -z: 3 COMPRESSED containers (at 0x1c00: 4,583 bytes) holding the SAMPLEs
  await openFile(page, dataFile('perfparser_vector_static_gcc_zstd', 'perf.data'));
  await page.getByLabel('Record kind').selectOption({ label: 'SAMPLE (34)' });
  const first = page.getByRole('tree').getByRole('treeitem').first();
  await expect(first).toContainText('SAMPLE');
  // its offset is marked as one in the decompressed stream
  const offText = (await first.locator('.rt-off').textContent()).trim();
  expect(offText).toMatch(/^z\+0x[0-9a-f]+$/);
  const size = Number((await first.locator('.rt-size').textContent()).replace(/,/g, ''));
  await first.click();

  // the hex pane shows the container's decompressed bytes, the record's highlighted
  const stream = page.getByTestId('stream-hex');
  await expect(stream).toBeVisible();
  const status = stream.getByTestId('hex-selection');
  const end = (parseInt(offText.slice(4), 16) + size - 1).toString(16);
  await expect(status).toContainText(`Selection ${offText}–z+0x${end} (${size.toLocaleString('en-US')} bytes) · SAMPLE`);
  await expect(status).toContainText(/decompressed stream of COMPRESSED at 0x1c00 \([\d.]+ KiB\)/);
  // the highlighted bytes are the SAMPLE's header: type 9 (PERF_RECORD_SAMPLE), its size (u16 at +6)
  const sel = await stream.locator('.hex-bytes .hb.sel').allTextContents(); // (the rows in view)
  expect(sel.length).toBeGreaterThanOrEqual(8);
  expect(sel.slice(0, 4)).toEqual(['09', '00', '00', '00']);
  expect(parseInt(sel[7] + sel[6], 16)).toBe(size);
  // the offsets column counts in the stream too
  await expect(stream.locator('.hex-off').first()).toContainText(/^z\+[0-9a-f]{8}$/);
  await shot(page, 'zstd-01-decompressed-record');

  // a frame of the flame graph: its sample's callchain slot, a field of a nested SAMPLE, in the same stream
  const flame = page.getByRole('tabpanel', { name: 'Flame graph' }).getByRole('img');
  const fb = await flame.boundingBox();
  await page.mouse.click(fb.x + 60, fb.y + 27); // the second row's first frame ([kernel.kallsyms])
  await expect(page.getByTestId('frame-slot')).toContainText(/→ callchain\[\d+\] at z\+0x[0-9a-f]+/);
  await expect(status).toContainText(/Selection z\+0x[0-9a-f]+–z\+0x[0-9a-f]+ \(8 bytes\)/);

  // one click: the container's own (compressed) bytes in the file
  await stream.getByRole('button', { name: 'Compressed bytes of the container' }).click();
  await expect(page.getByTestId('stream-hex')).toHaveCount(0);
  await expect(page.getByTestId('hex-selection')).toContainText('Selection 0x1c00–0x2de6 (4,583 bytes) · COMPRESSED');
  await shot(page, 'zstd-02-container-compressed');
  errs.check();
});
