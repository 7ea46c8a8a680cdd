// An API key belongs to its endpoint (issue 27). Two real OpenAI-compatible servers on 127.0.0.1 (cassette servers in
// replies mode, recording every request's headers): A, the endpoint Settings name and whose canary key is stored, and
// B, "the other endpoint" a share link and an experiment spec name. With the key stored for A:
// - a run on A carries it (the control: the servers do see the key when it is sent);
// - "Use the link's model" from a bug link naming B, then a run: B is asked, never with A's key; the share bar and
//   Settings ask for a key for B's origin, by name; back on A, A's key is in the field again;
// - an experiment link whose spec names A runs with A's key (the control); one whose spec names B, estimated and
//   started while Settings name A: B is asked, never with A's key; the builder asks for B's key;
// - the canary is stored once, under A's origin, and the old single-key entry is gone.
// The page's prompts are soft checks, so on a page that shows none the test still gets to where the key went.
import { test, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { encodeLink } from '../../worker/share/link-codec.ts';
import { appUrl, runToOutcome, useModelEndpoint } from './helpers.ts';

const CANARY = 'sk-canary-e2e-key-routing-9d2e61f0a4b7c3';
const MODEL = 'repairlab-demo-scripted';
/** how long a prompt for a key may take to show */
const ASKED = { timeout: 10_000 };
/** one step per run: the prose reply is a format error, the run ends on its budget with no validation */
const ONE_STEP = { budgets: { maxSteps: 1 } };

let a: CassetteServer;
let b: CassetteServer;
test.beforeEach(async () => {
  const serve = () => startCassetteServer({ replies: Array.from({ length: 20 }, () => 'I am not sure.'), model: MODEL, allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  [a, b] = await Promise.all([serve(), serve()]);
});
test.afterEach(async () => {
  await Promise.allSettled([a.close(), b.close()]);
});

/** The Authorization header of every chat call the server got. */
const authorizations = (s: CassetteServer) => s.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions')).map((r) => String(r.headers.authorization ?? ''));

async function commit(field: Locator, value: string) {
  await field.fill(value);
  await field.dispatchEvent('change');
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Opens a link as a fresh page load (not a fragment change on the page already open). */
async function openLink(page: Page, state: Parameters<typeof encodeLink>[0]) {
  await page.goto('about:blank');
  await page.goto(`${appUrl()}#${await encodeLink(state)}`);
}

/** Settings name A and hold the canary key (stored for A's origin); Settings asked for it by origin. */
async function storeKeyForA(page: Page) {
  const originA = new URL(a.baseURL).origin;
  await page.goto(appUrl());
  await useModelEndpoint(page, a.baseURL, MODEL);
  await page.getByRole('button', { name: 'Settings' }).click();
  const settingsAsk = page.locator('rl-settings-panel').getByTestId('key-needed');
  await expect.soft(settingsAsk).toHaveAttribute('data-origin', originA, ASKED);
  await commit(page.locator('input[name="api-key"]'), CANARY);
  await expect.soft(settingsAsk).toHaveCount(0, ASKED);
  await expect.soft(page.locator('rl-settings-panel label', { has: page.locator('input[name="api-key"]') })).toContainText(`API key for ${originA}`, ASKED);
}

/** The key is stored once, for A's origin; the single-key entry of earlier versions is gone. */
async function expectKeyStoredForAOnly(page: Page) {
  const stored = await page.evaluate(() => ({ v2: localStorage.getItem('repairlab.apiKeys.v2'), v1: localStorage.getItem('repairlab.apiKey.v1') }));
  expect(stored.v1).toBeNull();
  expect(JSON.parse(stored.v2 ?? 'null')).toEqual({ [new URL(a.baseURL).origin]: CANARY });
}

test("\"Use the link's model\" naming another endpoint: that endpoint never gets the stored key, and the page asks for its own", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const originB = new URL(b.baseURL).origin;
  expect(new URL(a.baseURL).origin).not.toBe(originB);
  await storeKeyForA(page);

  // the control: a run on A carries A's key
  expect(await runToOutcome(page, 'textkit-1', 'oneshot', { overrides: ONE_STEP })).toBeTruthy();
  expect(authorizations(a)).toEqual([`Bearer ${CANARY}`]);

  // a bug link naming B: "Use the link's model", then a run
  await openLink(page, { view: { kind: 'bug', bug: 'textkit-1' }, config: { preset: 'oneshot', variants: [], overrides: ONE_STEP, model: { provider: 'custom', baseURL: b.baseURL, model: MODEL } } });
  const linkModel = page.getByTestId('link-model');
  await expect(linkModel).toContainText(b.baseURL);
  await expect.soft(linkModel).not.toContainText('your key stays', ASKED);
  await page.getByRole('button', { name: "Use the link's model" }).click();
  const shareAsk = page.locator('rl-share-bar').getByTestId('key-needed');
  await expect.soft(shareAsk).toHaveAttribute('data-origin', originB, ASKED);
  await expect.soft(shareAsk).toContainText(`No API key for ${originB} in this browser`, ASKED);
  await expect.soft(shareAsk.locator('input[name="endpoint-key"]')).toBeVisible(ASKED);
  await shot(page, testInfo, '1-share-bar-asks-for-the-key');
  await page.locator('textarea[name="overrides"]').dispatchEvent('change');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toBeVisible({ timeout: 150_000 });
  // B was asked, and never with A's key
  expect(authorizations(b).length).toBeGreaterThan(0);
  expect(authorizations(b).filter((h) => h.includes(CANARY))).toEqual([]);
  expect(authorizations(a)).toHaveLength(1);

  // Settings name B now, with an empty key field and a note asking for B's key; back on A, A's key is there again
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.locator('input[name="base-url"]')).toHaveValue(b.baseURL);
  await expect(page.locator('input[name="api-key"]')).toHaveValue('');
  await expect.soft(page.locator('rl-settings-panel').getByTestId('key-needed')).toHaveAttribute('data-origin', originB, ASKED);
  await shot(page, testInfo, '2-settings-ask-for-the-key');
  await useModelEndpoint(page, a.baseURL, MODEL);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect.soft(page.locator('input[name="api-key"]')).toHaveValue(CANARY, ASKED);
  await expectKeyStoredForAOnly(page);
});

test('an experiment spec naming another endpoint: its runs never get the stored key, and the builder asks for that origin\'s', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const originB = new URL(b.baseURL).origin;
  await storeKeyForA(page);
  /** Opens an experiment link whose spec names `baseURL`, estimates and starts it (Settings keep naming A). */
  const runSpecAt = async (baseURL: string, name: string) => {
    const spec = { schemaVersion: 1 as const, name, bugs: ['textkit-1'], variants: [{ name: 'one', preset: 'oneshot', overrides: ONE_STEP }], samples: 1, model: { provider: 'custom' as const, baseURL, model: MODEL } };
    await openLink(page, { view: { kind: 'experiment' }, experiment: spec });
    await expect(page.locator('textarea[name="spec-json"]')).toHaveValue(new RegExp(name));
    await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
    await expect(page.getByTestId('exp-estimate')).toBeVisible();
    const ask = page.locator('rl-experiment-builder').getByTestId('key-needed');
    if (baseURL === b.baseURL) {
      await expect.soft(ask).toHaveAttribute('data-origin', originB, ASKED);
      await shot(page, testInfo, '3-builder-asks-for-the-key');
    } else await expect.soft(ask).toHaveCount(0, ASKED);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 150_000 });
  };

  // the control: a spec naming A runs with A's key
  await runSpecAt(a.baseURL, 'key-routing-a');
  expect(authorizations(a)).toEqual([`Bearer ${CANARY}`]);
  // a spec naming B: B is asked, never with A's key
  await runSpecAt(b.baseURL, 'key-routing-b');
  expect(authorizations(b).length).toBeGreaterThan(0);
  expect(authorizations(b).filter((h) => h.includes(CANARY))).toEqual([]);
  expect(authorizations(a)).toHaveLength(1);
  await expectKeyStoredForAOnly(page);
});
