// Browser tests: Debian's Chromium (/usr/bin/chromium; no browser download), one worker, each
// worker running its own product stack (see harness/fixtures.mjs). Artefacts under tests/artifacts.
import { defineConfig } from '@playwright/test';
import { launchOptions } from './harness/chromium.mjs';

export default defineConfig({
  testDir: 'browser',
  testMatch: '**/*.spec.mjs',
  workers: 1,
  fullyParallel: false,
  forbidOnly: process.env.CI === 'true',
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'artifacts/playwright',
  reporter: [
    ['list'],
    ['html', { outputFolder: 'artifacts/playwright-report', open: 'never' }],
    // Read by failure-summary.mjs, which scripts/test runs after a failure.
    ['json', { outputFile: 'artifacts/playwright-results.json' }],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    video: 'off',
    launchOptions,
  },
});
