// End-to-end tests: Debian's Chromium (no browser download) driving the built app against a real
// runner, a real OpenAI-compatible cassette server and the static app server, all on 127.0.0.1.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  globalSetup: './test/e2e/global-setup.ts',
  reporter: [['list'], ['json', { outputFile: '.cache/test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
});
