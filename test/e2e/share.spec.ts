// Sharing end to end (issue 18, the page side): an experiment built and run in the UI against a real
// OpenAI-compatible server (the cassette server in replies mode: a wrong fix, then textkit-1's fix, so every run has
// a failing validation before the plausible patch) and the real runner, with a canary API key in Settings.
// - its link opened in a fresh browser context shows the same view and configuration (the spec in the builder; the
//   experiment itself named as missing, its bundle offered), and so does a bug link with an edited configuration;
// - a configuration too long for a link leaves the view in it, and the page says a bundle is needed;
// - its bundle, downloaded, opened by the file picker in another fresh context (after a corrupt file dropped on the
//   page, which stores nothing), lists every run, and every run replays to the identical outcome with the model
//   server shut down;
// - a deep link opens step k of a run, a comparison link the comparison; `?bundle=<url>` with it on a fresh profile fetches the bundle, then opens the step;
// - "Link to a bundle": the bundle downloaded, an address given (a bad one refused by what is wrong), the link opened
//   on a fresh profile fetches the bundle from that address (a local server allowing the app's origin), imports it and
//   opens the experiment with its runs; another file at that address is refused by both hashes and stores nothing;
// - the canary key is in no link, no bundle, not in the HTML report nor any CSV download of the results, and in no
//   IndexedDB store or storage entry but its own.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'fflate';
import { test, expect, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { decodeLink } from '../../worker/share/link-codec.ts';
import { canonicalJson, sha256Hex } from '../../worker/llm/prompt-hash.ts';
import { appUrl, useModelEndpoint } from './helpers.ts';

const FIX = (JSON.parse(readFileSync('public/cassettes/textkit-1.oneshot.fix.cassette.json', 'utf8')) as { calls: { response: { content: string } }[] }).calls[0]!.response.content;
/** compiles, and fails the failing test: a validation that fails, then the fix */
const WRONG = FIX.replace('<= maxLength', '> maxLength');
const CANARY = 'sk-canary-e2e-share-4f1c9a7be2d04c3a';
const API_KEY_ENTRY = 'repairlab.apiKeys.v2';

let model: CassetteServer;
test.beforeEach(async () => {
  expect(WRONG).not.toBe(FIX);
  model = await startCassetteServer({ replies: Array.from({ length: 100 }, (_, i) => (i % 2 ? FIX : WRONG)), model: 'repairlab-demo-scripted', allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
});
test.afterEach(async () => {
  await model.close().catch(() => undefined);
});

async function commit(field: Locator, value: string) {
  await field.fill(value);
  await field.dispatchEvent('change');
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Copy link on the view on screen; the link the page shows. */
async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const field = page.locator('input[name="share-link"]');
  await expect(field).toHaveValue(/#rl1\./);
  const link = await field.inputValue();
  expect(page.url()).toBe(link);
  return link;
}

/** Text deflate cannot shrink much (a long edited template, as far as the link's length goes). */
function incompressible(chars: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < chars; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

/** Drops a file on the page as a person dragging it from the desktop would. */
async function dropFile(page: Page, name: string, bytes: Uint8Array) {
  const transfer = await page.evaluateHandle(({ name, data }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], name, { type: 'application/gzip' }));
    return dt;
  }, { name, data: Array.from(bytes) });
  await page.locator('main').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.locator('main').dispatchEvent('drop', { dataTransfer: transfer });
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** Every value of every IndexedDB store and of localStorage / sessionStorage, as text, with where it is. */
async function storedTexts(page: Page): Promise<{ where: string; text: string }[]> {
  return page.evaluate(async () => {
    const out: { where: string; text: string }[] = [];
    const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('');
    const asText = async (v: unknown): Promise<string> => {
      if (v instanceof Blob) return latin1(new Uint8Array(await v.arrayBuffer()));
      if (v instanceof ArrayBuffer) return latin1(new Uint8Array(v));
      if (ArrayBuffer.isView(v)) return latin1(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      if (Array.isArray(v)) return (await Promise.all(v.map(asText))).join('\n');
      if (v && typeof v === 'object') return (await Promise.all(Object.entries(v).map(async ([k, x]) => `${k}:${await asText(x)}`))).join('\n');
      return String(v);
    };
    const request = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    for (const info of await indexedDB.databases()) {
      const db = await request(indexedDB.open(info.name!));
      for (const store of Array.from(db.objectStoreNames)) {
        const tx = db.transaction(store, 'readonly');
        const [keys, values] = await Promise.all([request(tx.objectStore(store).getAllKeys()), request(tx.objectStore(store).getAll())]);
        for (const [i, value] of values.entries()) out.push({ where: `indexedDB ${info.name}/${store}/${String(keys[i])}`, text: await asText(value) });
      }
      db.close();
    }
    for (const [name, storage] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]] as const)
      for (let i = 0; i < storage.length; i++) out.push({ where: `${name} ${storage.key(i)}`, text: storage.getItem(storage.key(i)!) ?? '' });
    return out;
  });
}

test('a link restores view and configuration on a fresh profile; a bundle opens and replays identically; no key travels', async ({ browser, page }, testInfo) => {
  // Four profiles, an experiment run and a bundle replay, each with its own 150 s wait: the default 180 s for the
  // whole test ran out once on a loaded machine (waiting for the last download), so the test's budget is their sum.
  test.setTimeout(420_000);
  // --- build and run a small experiment with a canary key set (1 bug × oneshot × 2 samples, one at a time)
  await page.goto(appUrl());
  await useModelEndpoint(page, model.baseURL, 'repairlab-demo-scripted');
  // the key is stored for the endpoint on screen: set it once Settings name the model server
  await page.getByRole('button', { name: 'Settings' }).click();
  await commit(page.locator('input[name="api-key"]'), CANARY);
  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.getByRole('button', { name: 'New experiment' }).click();
  await commit(page.locator('input[name="exp-name"]'), 'e2e-share');
  await page.locator('select[name="exp-library"]').selectOption('textkit');
  await commit(page.locator('input[name="exp-limit"]'), '1');
  await commit(page.locator('input[name="exp-samples"]'), '2');
  await commit(page.locator('input[name="exp-concurrency"]'), '1');
  await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  const detail = page.getByTestId('experiment-detail');
  await expect(detail).toBeVisible();
  const experimentId = (await detail.getAttribute('data-experiment'))!;
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 150_000 });
  // the key went to the endpoint it was stored for, with every call
  const chats = model.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
  expect(chats.length).toBeGreaterThan(0);
  expect(chats.map((r) => r.headers.authorization)).toEqual(chats.map(() => `Bearer ${CANARY}`));
  const spec = await page.evaluate((id) => (globalThis as unknown as { repairlab: { engine: { getExperiment(id: string): Promise<{ record: { spec: unknown } }> } } }).repairlab.engine.getExperiment(id).then((x) => x.record.spec), experimentId);
  expect(JSON.stringify(spec)).not.toContain(CANARY);

  // --- the experiment's link, and its bundle
  const experimentLink = await copyLink(page);
  await shot(page, testInfo, '1-experiment-link-copied');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download bundle' }).click();
  const bundlePath = testInfo.outputPath('experiment.rlbundle.json.gz');
  await (await download).saveAs(bundlePath);
  await expect(page.getByTestId('bundle-note')).toContainText('2 cells, 2 runs');
  const bundleBytes = readFileSync(bundlePath);
  const bundleJson = new TextDecoder().decode(gunzipSync(bundleBytes));
  expect(JSON.parse(bundleJson)).toMatchObject({ kind: 'repairlab-bundle', content: { experiment: { id: experimentId } } });

  // --- a deep link to step 2 of a run (the failing validation is step 1, the fix step 2)
  await page.getByRole('button', { name: 'Runs' }).click();
  const runRow = page.locator('tr.run').first();
  const runId = (await runRow.getAttribute('data-run'))!;
  await runRow.click();
  await expect(page.getByTestId('open-step')).toHaveAttribute('data-step', '0');
  await expect(page.locator('[data-testid="step-nav"] li')).toHaveCount(2);
  await page.keyboard.press('j');
  await expect(page.getByTestId('open-step')).toHaveAttribute('data-step', '1');
  const stepLink = await copyLink(page);
  // --- a comparison of the two runs
  const runIds = await page.locator('tr.run').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.run!));
  for (const box of await page.locator('input[name="select-run"]').all()) await box.check();
  await page.locator('button[name="compare"]').click();
  await expect(page.getByTestId('run-compare')).toBeVisible();
  // the step's link no longer shows: it is not a link to what is on screen
  await expect(page.locator('input[name="share-link"]')).toHaveCount(0);
  await expect(page.getByTestId('share-note')).toHaveCount(0);
  const compareLink = await copyLink(page);
  expect(await decodeLink(compareLink)).toEqual({ view: { kind: 'compare', runs: runIds } });

  // --- a bug link with an edited configuration
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator('li[data-bug="textkit-2"]').click();
  await page.locator('select[name="preset"]').selectOption('hafixagent');
  await page.locator('input[name="variant"][value="fn_all"]').check();
  await commit(page.locator('textarea[name="overrides"]'), '{"budgets":{"maxSteps":4}}');
  const bugLink = await copyLink(page);
  // a configuration too long for a link: the link keeps the view, and the page says a bundle is needed
  await commit(page.locator('textarea[name="overrides"]'), JSON.stringify({ prompt: { system: incompressible(12_000) } }));
  const viewOnly = await copyLink(page);
  await expect(page.getByTestId('share-note')).toContainText('over the 8000 a link may have: this link opens the view only. Share a bundle');
  expect(await decodeLink(viewOnly)).toEqual({ view: { kind: 'bug', bug: 'textkit-2' } });
  await shot(page, testInfo, '1b-too-long-for-a-link');

  // --- the experiment link on a fresh profile: the Experiments tab, the experiment named as not here, its spec in the builder
  const b = await freshPage(browser);
  await b.goto(experimentLink);
  await expect(b.getByRole('button', { name: 'Experiments' })).toHaveAttribute('aria-current', 'page');
  await expect(b.getByTestId('link-missing')).toContainText(`Experiment ${experimentId} is not in this browser`);
  await expect(b.getByTestId('link-missing').getByRole('button', { name: 'Open bundle…' })).toBeVisible();
  expect(JSON.parse(await b.locator('textarea[name="spec-json"]').inputValue())).toEqual(spec);
  await expect(b.getByTestId('link-model')).toContainText('repairlab-demo-scripted');
  await shot(b, testInfo, '2-experiment-link-fresh-profile');
  // the link's model, adopted on request (endpoint and model name; no key comes with it)
  await b.getByRole('button', { name: "Use the link's model" }).click();
  await b.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(b.locator('input[name="base-url"]')).toHaveValue(model.baseURL);
  await expect(b.locator('input[name="model"]')).toHaveValue('repairlab-demo-scripted');
  await expect(b.locator('input[name="api-key"]')).toHaveValue('');
  // ... and the bug link: the bug open with the same preset, variant and overrides
  await b.goto(bugLink);
  await expect(b.getByTestId('bug-detail')).toContainText('textkit-2');
  await expect(b.locator('select[name="preset"]')).toHaveValue('hafixagent');
  await expect(b.locator('input[name="variant"][value="fn_all"]')).toBeChecked();
  expect(JSON.parse(await b.locator('textarea[name="overrides"]').inputValue())).toEqual({ budgets: { maxSteps: 4 } });
  await shot(b, testInfo, '3-bug-link-fresh-profile');
  await b.context().close();

  // --- the bundle on another fresh profile, with no model anywhere: a corrupt file stores nothing, the real one opens
  await model.close();
  const c = await freshPage(browser);
  await c.goto(appUrl());
  await dropFile(c, 'cut.rlbundle.json.gz', bundleBytes.subarray(0, bundleBytes.length - 40));
  await expect(c.getByTestId('share-error')).toContainText('Nothing was opened: cut.rlbundle.json.gz is not a usable RepairLab bundle');
  expect(await c.evaluate(() => (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<unknown[]> } } }).repairlab.engine.listRuns())).toEqual([]);
  await c.locator('input[name="open-bundle"]').setInputFiles(bundlePath);
  const opened = c.getByTestId('opened-bundle');
  await expect(opened).toHaveAttribute('data-experiment', experimentId);
  await expect(c.getByTestId('share-note')).toContainText(`experiment ${experimentId}, 2 cells, 2 runs`);
  await expect(opened.locator('tbody tr')).toHaveCount(2);
  await opened.getByRole('button', { name: 'Replay every run' }).click();
  await expect(opened.locator('tbody tr[data-replay="equal"]')).toHaveCount(2, { timeout: 150_000 });
  await shot(c, testInfo, '4-bundle-replayed');
  // listed like local ones
  await c.getByRole('button', { name: 'Experiments' }).click();
  await expect(c.locator(`tr[data-experiment="${experimentId}"]`)).toHaveAttribute('data-status', 'finished');
  await c.getByRole('button', { name: 'Runs' }).click();
  await expect(c.locator('tr.run')).toHaveCount(2);

  // --- the deep link opens step 2 of that run here
  await c.goto(stepLink);
  await expect(c.getByRole('button', { name: 'Runs' })).toHaveAttribute('aria-current', 'page');
  await expect(c.locator('rl-runs-view h3').first()).toContainText(runId);
  await expect(c.getByTestId('open-step')).toHaveAttribute('data-step', '1');
  await expect(c.locator('[data-testid="step-nav"] li[aria-current="step"]')).toContainText('2');
  await shot(c, testInfo, '5-deep-link-step-2');
  // ... and the comparison
  await c.goto(compareLink);
  await expect(c.getByTestId('run-compare')).toBeVisible();
  for (const id of runIds) await expect(c.getByTestId('run-compare')).toContainText(id);
  await shot(c, testInfo, '5b-compare-link');
  await c.context().close();

  // --- ?bundle=<url> with the deep link on one more fresh profile: the bundle is fetched and opened, then the step shown
  // the user's own file server: one address, whose file the test changes; CORS allows the app's origin only
  let served: Uint8Array = bundleBytes;
  const files = createServer((req, res) => {
    const found = req.url === '/b.rlbundle.json.gz';
    res.writeHead(found ? 200 : 404, { 'access-control-allow-origin': process.env.E2E_APP_ORIGIN!, 'content-type': 'application/gzip' });
    res.end(found ? served : undefined);
  });
  let bundleLink = '';
  let linkedBundleJson = '';
  let htmlReport = '';
  const csvs: string[] = [];
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  try {
    const bundleUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/b.rlbundle.json.gz`;
    const d = await freshPage(browser);
    const withBundle = new URL(stepLink);
    withBundle.searchParams.set('bundle', bundleUrl);
    await d.goto(withBundle.href);
    await expect(d.getByTestId('opened-bundle')).toHaveAttribute('data-experiment', experimentId);
    await expect(d.getByTestId('open-step')).toHaveAttribute('data-step', '1');
    await expect(d.locator('rl-runs-view h3').first()).toContainText(runId);
    await shot(d, testInfo, '6-bundle-url-and-deep-link');
    // a bundle address that does not answer with a bundle: said, nothing stored
    await d.goto(`${appUrl()}?bundle=${encodeURIComponent(bundleUrl.replace('b.rlbundle', 'missing.rlbundle'))}`);
    await expect(d.getByTestId('share-error')).toContainText('answered 404');
    await d.context().close();

    // --- "Link to a bundle" on the experiment: download its bundle, say where it will be, get a link that points to it
    await page.goto(experimentLink);
    await expect(page.getByTestId('experiment-detail')).toHaveAttribute('data-experiment', experimentId);
    await page.getByRole('button', { name: 'Link to a bundle…' }).click();
    const form = page.getByTestId('bundle-link');
    // the URL follows the view 300 ms after a click: the form (and the experiment on screen) outlive that, while the
    // bug view's link copied earlier goes
    await form.locator('input[name="bundle-url"]').click();
    await page.waitForTimeout(600);
    await expect(form).toBeVisible();
    await expect(page.locator('input[name="share-link"]')).toHaveCount(0);
    const linkDownload = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Download bundle' }).click();
    const linkedPath = testInfo.outputPath('linked.rlbundle.json.gz');
    await (await linkDownload).saveAs(linkedPath);
    const linkedBytes = readFileSync(linkedPath);
    linkedBundleJson = new TextDecoder().decode(gunzipSync(linkedBytes));
    const linked = JSON.parse(linkedBundleJson) as { sha256: string; content: { experiment: Record<string, unknown> } };
    await form.locator('input[name="bundle-url"]').fill('ftp://127.0.0.1/b.rlbundle.json.gz');
    await form.getByRole('button', { name: 'Make link' }).click();
    await expect(page.getByTestId('bundle-link-error')).toContainText('is a ftp address: a link can only point to an https:// or http:// address');
    await form.locator('input[name="bundle-url"]').fill(bundleUrl);
    await form.getByRole('button', { name: 'Make link' }).click();
    await expect(page.getByTestId('share-note')).toContainText(`fetches bundle ${linked.sha256.slice(0, 16)}… from ${bundleUrl}`);
    bundleLink = await page.locator('input[name="share-link"]').inputValue();
    expect(await decodeLink(bundleLink)).toMatchObject({ view: { kind: 'experiment', experiment: experimentId }, bundle: { sha256: linked.sha256, url: bundleUrl } });
    await shot(page, testInfo, '7-link-to-a-bundle');
    // opened on a fresh profile: fetched from that address, checked, imported; the experiment opens with its runs
    served = linkedBytes;
    const e = await freshPage(browser);
    await e.goto(bundleLink);
    await expect(e.getByTestId('opened-bundle')).toHaveAttribute('data-experiment', experimentId);
    await expect(e.getByTestId('opened-bundle').locator('tbody tr')).toHaveCount(2);
    await expect(e.getByTestId('experiment-detail')).toHaveAttribute('data-experiment', experimentId);
    await expect(e.getByTestId('link-missing')).toHaveCount(0);
    await expect(e.locator(`tr[data-experiment="${experimentId}"]`)).toHaveAttribute('data-status', 'finished');
    await shot(e, testInfo, '8-bundle-link-fresh-profile');
    await e.getByRole('button', { name: 'Runs' }).click();
    await expect(e.locator('tr.run')).toHaveCount(2);
    await e.context().close();
    // another (valid) bundle at that address: refused, naming both hashes, and nothing stored
    const otherContent = { ...linked.content, experiment: { ...linked.content.experiment, updatedAt: new Date(0).toISOString() } };
    const otherSha = await sha256Hex(canonicalJson(otherContent));
    expect(otherSha).not.toBe(linked.sha256);
    served = gzipSync(new TextEncoder().encode(JSON.stringify({ ...linked, sha256: otherSha, content: otherContent })));
    const f = await freshPage(browser);
    await f.goto(bundleLink);
    await expect(f.getByTestId('share-error')).toContainText(`Nothing was opened: ${bundleUrl} is not the bundle this link points to: the link expects sha256 ${linked.sha256}, the file has sha256 ${otherSha}`);
    await expect(f.getByTestId('link-missing')).toContainText(`Experiment ${experimentId} is not in this browser`);
    await shot(f, testInfo, '9-other-bundle-refused');
    expect(await f.evaluate(() => (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<unknown[]> } } }).repairlab.engine.listRuns())).toEqual([]);
    expect(await f.evaluate((id) => (globalThis as unknown as { repairlab: { engine: { hasExperiment(id: string): Promise<boolean> } } }).repairlab.engine.hasExperiment(id), experimentId)).toBe(false);
    await f.context().close();

    // --- the experiment's results as files: the HTML report and every CSV download of its tables and charts
    const results = page.locator('rl-experiment-results');
    const saved = async (button: Locator) => {
      const download = page.waitForEvent('download');
      await button.click();
      return readFileSync((await (await download).path())!).toString('utf8');
    };
    htmlReport = await saved(results.getByRole('button', { name: 'Download HTML report' }));
    expect(htmlReport).toContain(experimentId);
    const csvButtons = await results.locator('button[name$="-csv"], button[name="export-csv"]').all();
    expect(csvButtons.length).toBeGreaterThan(1);
    for (const button of csvButtons) csvs.push(await saved(button));
    expect(csvs.some((csv) => csv.includes('oneshot') || csv.includes(experimentId))).toBe(true);
  } finally {
    await new Promise((resolve) => files.close(resolve));
  }

  // --- the canary: in no link, not in the bundle, and in no stored value of the first profile but its own entry
  for (const link of [experimentLink, stepLink, compareLink, bugLink, viewOnly, bundleLink]) {
    expect(decodeURIComponent(link)).not.toContain(CANARY);
    expect(JSON.stringify(await decodeLink(link))).not.toContain(CANARY);
  }
  expect(bundleJson).not.toContain(CANARY);
  expect(linkedBundleJson).not.toContain(CANARY);
  expect(htmlReport).not.toContain(CANARY);
  for (const csv of csvs) expect(csv).not.toContain(CANARY);
  const stored = await storedTexts(page);
  // the search does reach the run records (it would find the key there)
  expect(stored.some((s) => s.where.startsWith('indexedDB ') && s.text.includes(runId))).toBe(true);
  expect(stored.filter((s) => s.text.includes(CANARY)).map((s) => s.where)).toEqual([`localStorage ${API_KEY_ENTRY}`]);
});
