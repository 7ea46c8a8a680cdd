// Engine overhead where the product runs it: the agent loop in the app's web worker in Chromium (Debian's, through
// Playwright), its records in IndexedDB, the openai SDK calling the cassette server over HTTP, the real runner.
// The same replayed run as benchmarks/perf/engine-overhead.ts (HAFixAgent, 8 cycles on textkit-1), driven through the
// UI: each round sets the model endpoint to a fresh cassette server, runs the preset, and exports the trajectory from
// the Runs view; the figures are the steps' own accounting (latencyMs.engine / model / tool, the last step's tail
// included). The final record after the outcome is in no step, so it is not counted here (in Node it is ~0.15 ms).
// The app is served cross-origin isolated (COOP/COEP) so that the worker's performance.now() has 5 µs resolution.
//
//   npx vite build && node --import tsx benchmarks/perf/engine-overhead-browser.ts   (or: repairlab bench engine-overhead --browser)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { startAppServer, type RuntimeConfig } from '../../scripts/serve-app.ts';
import { startRunner } from '../../runner/src/index.ts';
import { startCassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { nodeJavaWasm } from '../../worker/java/wasm-files.node.ts';
import { createLab } from '../../worker/lab.ts';
import type { Trajectory } from '../../worker/contracts/trajectory.ts';
import { BENCH_BUG, BENCH_PRESET, recordBenchCassette } from './engine-overhead.ts';
import { useModelEndpoint } from '../../test/e2e/helpers.ts';

const fromRepo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

export interface BrowserEngineOverheadBench {
  cycles: number;
  rounds: number;
  outcome: string;
  /** whether the page was cross-origin isolated (5 µs timers; else 100 µs) */
  cross_origin_isolated: boolean;
  /** the steps' engine time summed over a run; median over rounds */
  engine_ms: number;
  cycle_ms: number;
  engine_share_percent: number;
  median_engine_ms_per_cycle: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One run of the preset through the UI, then its trajectory as the Runs view exports it. */
async function runAndExport(page: Page, dir: string): Promise<Trajectory> {
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BENCH_BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption(BENCH_PRESET);
  await page.getByRole('button', { name: 'Run agent' }).click();
  const outcome = page.getByTestId('outcome');
  await outcome.waitFor({ timeout: 180_000 });
  await page.getByRole('button', { name: 'Runs' }).click();
  await page.locator('tr.run').first().click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export trajectory' }).click();
  const file = join(dir, `${Date.now()}.trajectory.json`);
  await (await download).saveAs(file);
  return JSON.parse(readFileSync(file, 'utf8')) as Trajectory;
}

export async function benchEngineOverheadInBrowser(log: (line: string) => void = console.log, opts: { rounds: number } = { rounds: 5 }): Promise<BrowserEngineOverheadBench> {
  const dist = fromRepo('dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} is missing: build the app first (npx vite build).`);
  const home = mkdtempSync(join(tmpdir(), 'repairlab-bench-browser-'));
  const runtimeConfig: RuntimeConfig = {};
  const app = await startAppServer({ dir: dist, port: 0, runtimeConfig, headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } });
  const origin = new URL(app.url).origin;
  const runner = await startRunner({ port: 0, allowedOrigins: [origin], log: () => undefined });
  runtimeConfig.runner = { url: runner.url, token: runner.token };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const lab = createLab(createNodePlatform({ root: home }), { javaWasm: nodeJavaWasm });
    await lab.loadJava();
    const { cassette, trajectory: recorded } = await recordBenchCassette(lab.engine, runner);
    log(`recorded ${cassette.calls.length} calls in Node; the recorded run ended ${recorded.outcome?.status}`);
    const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await page.goto(app.url);
    const isolated = await page.evaluate(() => crossOriginIsolated);
    log(`Chromium ${browser.version()}, cross-origin isolated: ${isolated}`);
    const rounds: { engineMs: number; cycleMs: number; perCycle: number[] }[] = [];
    let outcome = 'unfinished';
    let cycles = 0;
    for (let round = 0; round <= opts.rounds; round++) {
      // a cassette is served once, in order: a fresh server per round
      const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [origin] });
      let t: Trajectory;
      try {
        await useModelEndpoint(page, server.baseURL, cassette.model);
        t = await runAndExport(page, home);
      } finally {
        await server.close();
      }
      outcome = t.outcome?.status ?? 'unfinished';
      if (outcome !== recorded.outcome?.status) throw new Error(`browser replay ${round} ended ${outcome} (${t.outcome?.reason}), the recorded run ${recorded.outcome?.status}`);
      cycles = t.steps.length;
      const engineMs = t.steps.reduce((a, s) => a + s.latencyMs.engine, 0);
      const cycleMs = t.steps.reduce((a, s) => a + s.latencyMs.engine + s.latencyMs.model + s.latencyMs.tool, 0);
      const share = (100 * engineMs) / cycleMs;
      if (round === 0) {
        log(`warm-up replay: ${cycles} cycles, engine ${share.toFixed(2)}%`);
        continue;
      }
      rounds.push({ engineMs, cycleMs, perCycle: t.steps.map((s) => s.latencyMs.engine) });
      log(`round ${round}: engine ${engineMs.toFixed(2)} ms of ${cycleMs.toFixed(1)} ms = ${share.toFixed(2)}%; per cycle ${t.steps.map((s) => s.latencyMs.engine.toFixed(3)).join(' ')} ms`);
    }
    const share = median(rounds.map((r) => (100 * r.engineMs) / r.cycleMs));
    const perCycle = median(rounds.flatMap((r) => r.perCycle));
    log(`median over ${rounds.length} rounds in Chromium's worker: engine ${share.toFixed(2)}% of a replayed cycle (target < 1%); median engine time per cycle ${perCycle.toFixed(3)} ms`);
    return {
      cycles,
      rounds: rounds.length,
      outcome,
      cross_origin_isolated: isolated,
      engine_ms: median(rounds.map((r) => r.engineMs)),
      cycle_ms: median(rounds.map((r) => r.cycleMs)),
      engine_share_percent: share,
      median_engine_ms_per_cycle: perCycle,
    };
  } finally {
    await browser.close();
    await Promise.allSettled([app.close(), runner.close()]);
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('engine-overhead-browser.ts')) await benchEngineOverheadInBrowser();
