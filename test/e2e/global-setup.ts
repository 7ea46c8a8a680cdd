// Starts what every e2e test shares, all on 127.0.0.1: the static server for the built app (dist/) and a real
// runner (bubblewrap sandbox) that allows only the app's origin. Each test starts its own cassette server.
import { existsSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { startRunner } from '../../runner/src/index.ts';
import { startAppServer, type RuntimeConfig } from '../../scripts/serve-app.ts';
import { cachedHistoryRepo, IMPORT_SCALE_GENERATOR } from '../integration/history/history-generator.ts';

export default async function globalSetup(_config: FullConfig) {
  // E2E_DIST_DIR lets several builds be tested side by side (default: the build `npm test` makes)
  const dist = process.env.E2E_DIST_DIR ?? 'dist';
  if (!existsSync(`${dist}/index.html`)) throw new Error(`${dist}/ is missing: build the app first (npx vite build); \`npm test\` does.`);
  // The ~2,000-commit repository of history.spec.ts takes minutes to generate on a clean clone (longer on a loaded
  // machine): made here, once, and cached under .cache/, so that it counts against no test's timeout.
  cachedHistoryRepo(IMPORT_SCALE_GENERATOR);
  const runtimeConfig: RuntimeConfig = {};
  const app = await startAppServer({ dir: dist, port: 0, runtimeConfig });
  const appOrigin = new URL(app.url).origin;
  const runner = await startRunner({ port: 0, allowedOrigins: [appOrigin] });
  runtimeConfig.runner = { url: runner.url, token: runner.token };
  process.env.E2E_APP_URL = app.url;
  process.env.E2E_APP_ORIGIN = appOrigin;
  process.env.E2E_RUNNER_URL = runner.url;
  process.env.E2E_RUNNER_TOKEN = runner.token;
  return async () => {
    await Promise.allSettled([app.close(), runner.close()]);
  };
}
