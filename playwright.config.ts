import { defineConfig } from '@playwright/test';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

// Browser e2e: the built viewer served by `hindsight serve`, driven in Debian's Chromium (no
// Playwright browser download is possible here). scripts/e2e.mjs checks the browser and the
// builds first and says by name when the suite is skipped. The electron project runs the
// Electron app where its binary exists (e2e/electron reports itself skipped otherwise).

export const CHROMIUM = process.env.HINDSIGHT_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // Outside the checkout and outside the hindsight-* temp names other suites sweep; one folder
  // per checkout, so runs of two checkouts at once never delete each other's traces.
  outputDir: join(
    tmpdir(),
    `playwright-viewer-e2e-${createHash('sha256')
      .update(fileURLToPath(new URL('.', import.meta.url)))
      .digest('hex')
      .slice(0, 8)}`,
  ),
  projects: [
    {
      name: 'browser',
      testDir: 'e2e/browser',
      testMatch: /.*\.spec\.ts/,
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: CHROMIUM,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
        trace: 'retain-on-failure',
        screenshot: 'only-on-failure',
      },
    },
    {
      name: 'electron',
      testDir: 'e2e/electron',
      testMatch: /.*\.spec\.ts/,
    },
  ],
});
