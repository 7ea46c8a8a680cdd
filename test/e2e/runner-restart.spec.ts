// A runner restarted under a run in flight: the run goes on to its verdict with no step about the runner, and the
// header shows the runner up again — on the same data directory (the runner keeps its token: nothing to tell the
// page), and with a new token that the page's /runtime-config.json serves (the engine and the header read it again
// after the 401). This spec starts its own runner (its own data directory, restarted on the same port) and serves it
// through serveRuntimeConfig; the model is a scripted cassette server whose second reply is held back until the test
// has restarted the runner.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { startRunner, type RunningRunner } from '../../runner/src/index.ts';
import type { RuntimeConfig } from '../../scripts/serve-app.ts';
import { bashReply, openBug, serveRuntimeConfig, useScriptedReplies } from './helpers.ts';

const BUG = 'textkit-1';
const SOURCE = 'src/main/java/org/repairlab/textkit/Strings.java';
const REPLIES = [
  bashReply('test', 'run the failing test.'),
  // the developers' fix (textkit-1's ground truth), made by the shell: no runner needed for this step
  bashReply(`sed -i 's/s.length() < maxLength/s.length() <= maxLength/' ${SOURCE}`, 'keep a string that fits exactly.'),
  bashReply('test', 'run it again.'),
  bashReply('echo COMPLETE_REPAIR_SIGNAL', 'done.'),
];

test.describe.configure({ timeout: 300_000 });

/** The spec's own runner: one data directory, restarted on the port it first got. */
class OwnRunner {
  private port = 0;
  running: RunningRunner | undefined;
  private constructor(readonly dataDir: string) {}

  static async create(): Promise<OwnRunner> {
    return new OwnRunner(await mkdtemp(path.join(os.tmpdir(), 'repairlab-e2e-restart-')));
  }

  async start(opts: { token?: string; allowOrigin?: boolean } = {}): Promise<RunningRunner> {
    const runner = await startRunner({
      port: this.port,
      dataDir: this.dataDir,
      allowedOrigins: opts.allowOrigin === false ? [] : [process.env.E2E_APP_ORIGIN!],
      sandbox: 'bwrap',
      workers: 1,
      log: () => undefined,
      ...(opts.token ? { token: opts.token } : {}),
    });
    this.port = Number(new URL(runner.url).port);
    this.running = runner;
    return runner;
  }

  async stop(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * Holds the model's `held`-th call (1-based) until `release()`: the run stops between two steps while the test
 * restarts the runner. `asked` resolves when that call arrives (the steps before it are done).
 */
async function holdModelCall(page: Page, baseURL: string, held: number) {
  let calls = 0;
  let asked!: () => void;
  let release!: () => void;
  const askedP = new Promise<void>((r) => (asked = r));
  const released = new Promise<void>((r) => (release = r));
  await page.route(`${baseURL}/chat/completions`, async (route) => {
    if (route.request().method() === 'POST' && ++calls === held) {
      asked();
      await released;
    }
    await route.continue();
  });
  return { asked: askedP, release };
}

async function header(page: Page) {
  const pill = page.getByTestId('runner-status');
  await pill.click(); // checks again now (it also does every 20 s)
  return pill;
}

/** Opens the bug with the runner served, starts HAFixAgent with the scripted replies, and waits for step 1. */
async function startRun(page: Page, config: RuntimeConfig) {
  await serveRuntimeConfig(page, config);
  await openBug(page, BUG);
  await expect(page.getByTestId('runner-status')).toHaveAttribute('data-state', 'ready');
  const model = await useScriptedReplies(page, REPLIES);
  const gate = await holdModelCall(page, model.baseURL, 2);
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption('hafixagent');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await gate.asked;
  // step 1 ran its test on the first runner: the failing test fails
  await expect(page.getByTestId('step')).toHaveCount(1);
  await expect(page.getByTestId('verdict').first()).toContainText('failing: org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly');
  return { model, gate };
}

/** The run reached its verdict through the restart, and no step speaks of the runner. */
async function expectVerdictWithoutRunnerSteps(page: Page) {
  await expect(page.getByTestId('outcome')).toBeVisible({ timeout: 240_000 });
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible');
  const steps = page.getByTestId('step');
  await expect(steps).toHaveCount(4);
  for (const step of await steps.all()) await expect(step).toHaveAttribute('data-status', 'ok');
  // step 3's test ran on the restarted runner and passes
  await expect(page.getByTestId('verdict').nth(1)).toContainText(/all tests pass|test run pass/);
  await expect(page.getByTestId('tool-result').filter({ hasText: /runner|token|401|did not answer/i })).toHaveCount(0);
  await expect(page.getByTestId('step-error')).toHaveCount(0);
  await expect(page.getByTestId('runner-waiting')).toHaveCount(0);
}

test('restarted on the same data directory, the runner keeps its token: the run goes on, the header says what to do while it is down', async ({ page }) => {
  const own = await OwnRunner.create();
  try {
    const first = await own.start();
    const { model, gate } = await startRun(page, { runner: { url: first.url, token: first.token } });
    try {
      await own.stop();
      let pill = await header(page);
      await expect(pill).toHaveAttribute('data-state', 'down');
      const down = page.getByTestId('runner-down');
      await expect(down).toHaveAttribute('data-problem', 'unreachable');
      await expect(down).toContainText('npm start');
      await expect(down).toContainText(`npm run runner -- --allow-origin ${process.env.E2E_APP_ORIGIN}`);

      // started again without this page's origin: said so, with the flag that lets it in
      await own.start({ allowOrigin: false });
      pill = await header(page);
      await expect(down).toHaveAttribute('data-problem', 'origin');
      await expect(down).toContainText(`does not allow this page's origin ${process.env.E2E_APP_ORIGIN}`);
      await expect(down).toContainText(`--allow-origin ${process.env.E2E_APP_ORIGIN}`);
      await own.stop();

      // as `npm start` or `npm run runner` restart it: same data directory, so the same token
      const second = await own.start();
      expect(second.url).toBe(first.url);
      expect(second.token).toBe(first.token);
      pill = await header(page);
      await expect(pill).toHaveAttribute('data-state', 'ready');
      await expect(page.getByTestId('runner-down')).toHaveCount(0);

      gate.release();
      await expectVerdictWithoutRunnerSteps(page);
    } finally {
      gate.release();
      await model.close();
    }
  } finally {
    await own.dispose();
  }
});

test('restarted with a new token that the page serves: the waiting run reads it again and goes on; so does the header', async ({ page }) => {
  const own = await OwnRunner.create();
  try {
    const first = await own.start();
    // served as `npm start` serves it; changed in place below, as a restarted `npm start` would serve it
    const config: RuntimeConfig = { runner: { url: first.url, token: first.token } };
    const { model, gate } = await startRun(page, config);
    try {
      await own.stop();
      // the run goes on while the runner is down: step 3's test waits for it, never shown to the model
      gate.release();
      const waiting = page.getByTestId('runner-waiting');
      await expect(waiting).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('step')).toHaveCount(2);

      const fresh = 'a-new-token-for-the-restarted-runner-0123456789';
      const second = await own.start({ token: fresh });
      expect(second.url).toBe(first.url);
      config.runner = { url: second.url, token: fresh };

      await expectVerdictWithoutRunnerSteps(page);
      // the header's token is the stale one of Settings: it reads the served one again and finds the runner up
      const pill = await header(page);
      await expect(pill).toHaveAttribute('data-state', 'ready');
      await expect(page.getByTestId('runner-down')).toHaveCount(0);
    } finally {
      gate.release();
      await model.close();
    }
  } finally {
    await own.dispose();
  }
});
