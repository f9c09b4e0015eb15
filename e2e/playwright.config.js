// Browser tests of the built site (web/dist) in Debian's chromium.
// Build first (npm run build:web, or scripts/setup.sh); then:
//   npx playwright test -c e2e/playwright.config.js
import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const PORT = Number(process.env.PROFSCOPE_E2E_PORT || 4173);

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.js$/,
  // PROFSCOPE_E2E_OUT: a private artifacts folder (a concurrent run cleans the shared one)
  outputDir: process.env.PROFSCOPE_E2E_OUT || fileURLToPath(new URL('../test-results/e2e-artifacts', import.meta.url)),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME || fileURLToPath(new URL('../test-results/e2e.json', import.meta.url)) }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.PROFSCOPE_CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npx --no-install vite preview web --port ${PORT} --strictPort --host 127.0.0.1`,
    cwd: repoRoot,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
