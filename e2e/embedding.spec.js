// docs/EMBEDDING.md's example, run as written: a host page on another port embeds the app
// (?embed=1), sends a real profile and the program's binary with postMessage and gets the
// summary and each file's role back (the binary: symbols); `buffer` alone still works. Also: a host
// whose origin is not allowed gets no answer, and ?url= loads a file or says why it cannot.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { dataFile, REPO, shot, summaryField, waitDecoded, watchErrors } from './helpers.js';

const doc = fs.readFileSync(path.join(REPO, 'docs', 'EMBEDDING.md'), 'utf8');
const example = doc.split('<!-- profscope-embed-example:start -->')[1].split('<!-- profscope-embed-example:end -->')[0]
  .replace(/^\s*```html\n/, '').replace(/```\s*$/, '');

/** A second server (another origin): the host page, the profile (optionally with CORS). */
async function startHost(pages) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/perf.data' || url.pathname === '/cors/perf.data') {
      const headers = { 'content-type': 'application/octet-stream' };
      if (url.pathname.startsWith('/cors/')) headers['access-control-allow-origin'] = '*';
      res.writeHead(200, headers);
      res.end(fs.readFileSync(dataFile('default_event', 'perf.data')));
      return;
    }
    const blobs = { '/myprogram': dataFile('default_event', 'calltree'), '/notes.txt': path.join(REPO, 'README.md') };
    if (blobs[url.pathname]) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(fs.readFileSync(blobs[url.pathname]));
      return;
    }
    const body = pages[url.pathname];
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (body == null) {
      res.writeHead(404, { 'access-control-allow-origin': '*' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

const wrap = (inner) => `<!doctype html><meta charset="utf-8"><title>wiki</title><h1>Profile of the week</h1>${inner}`;

test('the EMBEDDING.md example: host on another port sends perf.data, gets the summary', async ({ page, baseURL }) => {
  const errs = watchErrors(page);
  const pages = {};
  const host = await startHost(pages);
  try {
    const appOrigin = new URL(baseURL).origin;
    pages['/wiki.html'] = wrap(
      example.replaceAll('https://profscope.example.org', appOrigin).replaceAll('https://wiki.example.org', host.origin),
    );
    expect(host.origin).not.toBe(appOrigin);
    await page.goto(`${host.origin}/wiki.html`);
    const result = page.locator('#profscope-result');
    await expect(result).toContainText('"samples": 1235');
    const summary = JSON.parse(await result.textContent());
    expect(summary.records).toBe(1249);
    expect(summary.mode).toMatch(/file/i);
    expect(summary.files).toEqual([
      { name: 'perf.data', role: 'profile' },
      { name: 'myprogram', role: 'symbols' },
    ]);
    const frame = page.frameLocator('#profscope');
    await expect(frame.getByTestId('file-name')).toContainText('perf.data (+1 file)');
    // the binary named the frames: the flame graph shows calltree's functions
    await expect(frame.getByRole('tabpanel', { name: 'Flame graph' }).getByRole('img')).toHaveAttribute('aria-label', /1,235 samples/);
    await expect(frame.locator('.app.embed')).toBeVisible();
    await shot(page, '25-embedded-in-wiki');
    errs.check();
  } finally {
    host.server.close();
  }
});

/** A host page that posts `message` (built in the page from the named URLs) and shows every answer. */
function hostPage(appOrigin, hostOrigin, script) {
  return wrap(`<iframe id="profscope" title="profscope" src="${appOrigin}/?embed=1&origins=${hostOrigin}" style="width:100%;height:600px"></iframe>
<pre id="answers"></pre>
<script>
  const frame = document.getElementById('profscope');
  const bytes = async (u) => (await fetch(u)).arrayBuffer();
  const answers = [];
  window.addEventListener('message', async (e) => {
    if (e.source !== frame.contentWindow) return;
    if (e.data.type === 'profscope:ready') { ${script} }
    else { answers.push(e.data); document.getElementById('answers').textContent = JSON.stringify(answers); }
  });
</script>`);
}

test('profscope:open: buffer alone, files with an unusable one, malformed files', async ({ page, baseURL }) => {
  const errs = watchErrors(page);
  const pages = {};
  const host = await startHost(pages);
  try {
    const appOrigin = new URL(baseURL).origin;
    pages['/host.html'] = hostPage(appOrigin, host.origin, `
      const send = (m, t) => frame.contentWindow.postMessage(m, '${appOrigin}', t || []);
      send({ type: 'profscope:open', id: 'bad', files: [{ name: 'x' }] });
      await new Promise((r) => setTimeout(r, 300));
      const b = await bytes('/perf.data');
      send({ type: 'profscope:open', id: 'one', name: 'alone.data', buffer: b }, [b]);
      await new Promise((r) => { const t = setInterval(() => { if (answers.length >= 2) { clearInterval(t); r(); } }, 50); });
      const files = [{ name: 'notes.txt', buffer: await bytes('/notes.txt') }, { name: 'perf.data', buffer: await bytes('/perf.data') }];
      send({ type: 'profscope:open', id: 'two', files }, files.map((f) => f.buffer));`);
    await page.goto(`${host.origin}/host.html`);
    const answers = page.locator('#answers');
    await expect.poll(async () => JSON.parse((await answers.textContent()) || '[]').length, { timeout: 30_000 }).toBe(3);
    const [bad, one, two] = JSON.parse(await answers.textContent());
    expect(bad).toMatchObject({ type: 'profscope:error', id: 'bad' });
    expect(bad.message).toContain('files[0].buffer');
    expect(one).toMatchObject({ type: 'profscope:summary', id: 'one', name: 'alone.data', ok: true, files: [{ name: 'alone.data', role: 'profile' }] });
    expect(one.summary.samples).toBe(1235);
    // the profile is found among the files by its name; a text file is of no use
    expect(two).toMatchObject({ type: 'profscope:summary', id: 'two', name: 'perf.data', ok: true });
    expect(two.files).toEqual([
      { name: 'perf.data', role: 'profile' },
      { name: 'notes.txt', role: 'unused' },
    ]);
    errs.check();
  } finally {
    host.server.close();
  }
});

test('messages from an origin that is not allowed are ignored', async ({ page, baseURL }) => {
  const pages = {};
  const host = await startHost(pages);
  try {
    const appOrigin = new URL(baseURL).origin;
    // the example, but the iframe allows some other origin only
    pages['/wiki.html'] = wrap(
      example.replaceAll('https://profscope.example.org', appOrigin).replaceAll('https://wiki.example.org', 'https://elsewhere.example'),
    );
    await page.goto(`${host.origin}/wiki.html`);
    const frame = page.frameLocator('#profscope');
    await expect(frame.getByText('Waiting for a profile').first()).toBeVisible();
    await page.waitForTimeout(2500);
    await expect(page.locator('#profscope-result')).toHaveText('waiting for profscope…');
    await expect(frame.getByTestId('file-name')).toHaveText('');
  } finally {
    host.server.close();
  }
});

test('?url= opens a file from another server, and says why when it cannot', async ({ page }) => {
  const host = await startHost({});
  try {
    await page.goto(`./?url=${encodeURIComponent(`${host.origin}/cors/perf.data`)}`);
    await waitDecoded(page, 'perf.data');
    await expect(summaryField(page, 'samples')).toHaveText('1,235');
    // no CORS header: the browser refuses; the page explains
    await page.goto(`./?url=${encodeURIComponent(`${host.origin}/perf.data`)}`);
    await expect(page.getByRole('alert')).toContainText(/could not fetch .*CORS/);
    await shot(page, '26-url-cors-error');
    await page.goto(`./?url=${encodeURIComponent(`${host.origin}/cors/missing.data`)}`);
    await expect(page.getByRole('alert')).toContainText('HTTP 404');
  } finally {
    host.server.close();
  }
});
