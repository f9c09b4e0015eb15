// The app embedded in another site's page (an iframe, as in a wiki).
import { test, expect } from '@playwright/test';
import { watchErrors } from './helpers.js';

// Chromium blocks a page of a routed (public) origin from framing 127.0.0.1
// (Local Network Access); a wiki serving profscope from its own host has no such issue.
test.use({
  launchOptions: {
    executablePath: process.env.PROFSCOPE_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-features=LocalNetworkAccessChecks'],
  },
});

test('works inside an iframe (as embedded in a wiki page)', async ({ page, baseURL }) => {
  const errs = watchErrors(page);
  // a page of another origin (localhost vs 127.0.0.1; served by the test itself) embeds the app
  const wiki = baseURL.replace('127.0.0.1', 'localhost') + 'wiki/notes.html';
  await page.route(wiki, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>wiki</title><h1>Notes</h1>
        <iframe title="profscope" src="${baseURL}" style="width:1200px;height:800px;border:1px solid #888"></iframe>`,
    }),
  );
  await page.goto(wiki);
  const frame = page.frameLocator('iframe[title=profscope]');
  await expect(frame.getByTestId('file-name')).toContainText('calltree.perf.data');
  await expect(frame.getByLabel('Summary', { exact: true }).locator('.sum-item[data-field="samples"] dd')).toHaveText('305');
  errs.check();
});
