import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (never a browser downloaded by Playwright) against the
 * built app on a fresh embedded database with the demo data.
 */
const PORT = Number(process.env.E2E_PORT ?? 8181);
// Per port, so two runs (e.g. two developers' checks) never share a data folder or a build.
const DATA_DIR = `.e2e/data-${PORT}`;
const WEB_ROOT = `.e2e/web-${PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `test-results/${PORT}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${DATA_DIR} && vite build --logLevel error --outDir ${WEB_ROOT} --emptyOutDir && tsx server/main.ts`,
    url: `http://localhost:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(PORT),
      DATA_DIR,
      WEB_ROOT,
      DEMO_PASSWORD: 'E2e-Passw0rd!',
      APP_ENV: 'local',
      // The e2e specs write their own commission data (server/demo/commissions.ts stays out).
      DEMO_COMMISSIONS: '0',
    },
    stdout: 'pipe',
  },
});
