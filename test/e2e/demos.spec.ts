// The keyless demo recordings, as `npm start` serves them (scripts/demo-endpoints.ts: one real cassette server per
// recording), replayed by several browsers at once: each server answers by the conversation, so every run — a
// teacher's second demo, each student's — replays from the start. The active recording is marked and named for
// what it is (replies written by hand). Besides textkit-1 (SL), a demo for a bug of each other category replays to plausible.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_CASSETTES } from '../../worker/records/demo-cassettes.ts';
import { startDemoEndpoints, type DemoEndpoints } from '../../scripts/demo-endpoints.ts';
import { appUrl, e2eRunner, serveRuntimeConfig } from './helpers.ts';

const BUG = 'textkit-1';
// two model calls: a reply without a diff, the format correction, then the fix — the second call's prompt holds the first reply
const DEMO = 'textkit-1.oneshot.format-error';

let demos: DemoEndpoints;
test.beforeAll(async () => {
  demos = await startDemoEndpoints({ allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
});
test.afterAll(async () => {
  await demos?.close();
});

const demoEndpoint = () => demos.endpoints.find((e) => e.demo?.file === DEMO)!;

/** A browser profile whose Settings point at the demo recording (chosen from the model menu, as a teacher would). */
async function contextWithDemo(context: BrowserContext): Promise<Page> {
  await serveRuntimeConfig(context, { runner: e2eRunner(), modelEndpoints: demos.endpoints });
  const page = await context.newPage();
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('select[name="endpoint-preset"]').selectOption(demoEndpoint().name);
  await expect(page.getByTestId('active-demo')).toContainText(DEMO);
  await expect(page.getByTestId('active-demo')).toContainText('replies written by hand, not by a model');
  return page;
}

async function openBugAndRun(page: Page) {
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await expect(page.getByTestId('bug-detail')).toBeVisible();
  await expect(page.getByTestId('run-active-demo')).toContainText(`${DEMO} on ${BUG} with oneshot — replies written by hand`);
  await page.getByRole('button', { name: 'Run agent' }).click();
}

test('the demo recordings are named for what they are: replies written by hand, not a model', async ({ page }) => {
  await serveRuntimeConfig(page, { runner: e2eRunner(), modelEndpoints: demos.endpoints });
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Settings' }).click();
  const names = await page.locator('select[name="endpoint-preset"] option').allTextContents();
  const demoNames = names.filter((n) => n.startsWith('Demo recording'));
  expect(demoNames.length).toBe(demos.endpoints.length);
  for (const n of demoNames) expect(n).toContain('replies written by hand, not by a model');
});

test('two browsers each replay the same demo twice at the same time, and all four runs end plausible', async ({ browser }, testInfo) => {
  const contexts = [await browser.newContext(), await browser.newContext()];
  try {
    const pages: Page[] = [];
    for (const context of contexts) {
      const first = await contextWithDemo(context);
      const second = await context.newPage(); // the same profile: the settings are shared
      await second.goto(appUrl());
      pages.push(first, second);
    }
    const before = demos.servers[demos.endpoints.indexOf(demoEndpoint())]!.served();
    // start all four before any finishes: their model calls interleave on the one server
    for (const page of pages) await openBugAndRun(page);
    for (const [i, page] of pages.entries()) {
      await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 150_000 });
      await expect(page.getByTestId('step')).toHaveCount(2);
      await page.screenshot({ path: testInfo.outputPath(`demo-run-${i + 1}.png`), fullPage: true });
    }
    // four runs of two recorded calls each, all answered by the one server
    expect(demos.servers[demos.endpoints.indexOf(demoEndpoint())]!.served() - before).toBe(8);
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
});

// one demo per category besides SL (textkit-1, above): the bug it was recorded on, and its recording
const CATEGORY_DEMOS = [
  { category: 'SH', bug: 'textkit-3', demo: 'textkit-3.hafixagent.fix' },
  { category: 'SFMH', bug: 'numkit-3', demo: 'numkit-3.hafixagent.fix' },
  { category: 'MFMH', bug: 'textkit-4', demo: 'textkit-4.hafixagent.fix' },
];

test('a demo for a bug of each category is offered for its bug, named as hand-written, and replays to plausible', async ({ page }, testInfo) => {
  await serveRuntimeConfig(page, { runner: e2eRunner(), modelEndpoints: demos.endpoints });
  for (const { category, bug, demo } of CATEGORY_DEMOS) {
    const endpoint = demos.endpoints.find((e) => e.demo?.file === demo);
    expect(endpoint, `the demo endpoints serve ${demo}`).toBeDefined();
    expect(endpoint!.demo!.bugId).toBe(bug);
    const recorded = DEMO_CASSETTES.find((d) => d.file === `${demo}.cassette.json`)!;
    await page.goto(appUrl());
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('select[name="endpoint-preset"]').selectOption(endpoint!.name);
    await expect(page.getByTestId('active-demo')).toContainText(`${demo} on ${bug} with hafixagent — replies written by hand, not by a model`);

    await page.getByRole('button', { name: 'Bugs' }).click();
    await page.locator(`li[data-bug="${bug}"]`).click();
    await expect(page.getByTestId('bug-detail')).toBeVisible();
    await expect(page.getByTestId('run-active-demo')).toContainText(`${demo} on ${bug} with hafixagent — replies written by hand`);
    // opening its bug fills the preset the recording replays with
    await expect(page.getByTestId('demo-note')).toContainText('hafixagent');
    await expect(page.locator('select[name="preset"]')).toHaveValue('hafixagent');
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 150_000 });
    await expect(page.getByTestId('step')).toHaveCount(recorded.replies.length);
    const shot = testInfo.outputPath(`demo-${category}-${bug}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach(`demo-${category}-${bug}`, { path: shot, contentType: 'image/png' });
  }
});
