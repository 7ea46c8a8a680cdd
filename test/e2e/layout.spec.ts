// The page holds at every width: every view — the bug list, a bug with its run panel, a finished run, the Runs list, an
// opened run, Compare, Experiments (the builder, a finished experiment's matrix, tables and charts), the Strategy
// editor, Repositories, Settings, the classroom and its presenter layout — is visited at 1280×800 and at 800×600, and
// neither the document nor any view element scrolls sideways there: what is wide (a table, a chart, code) scrolls in
// a box of its own. Every visible table header sticks to the top of its box. The header never clips. A screenshot of
// each view at each width is attached to the report. The data comes from real runs and a real experiment: a model
// that answers textkit-1's one-line fix to every call (a cassette server in replies mode) and the e2e runner.
import { readFileSync } from 'node:fs';
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { appUrl, deepFocus, e2eRunner, openBug, runToOutcome, serveRuntimeConfig, useModelEndpoint } from './helpers.ts';

const BUG = 'textkit-1';
const FIX = (JSON.parse(readFileSync('public/cassettes/textkit-1.oneshot.fix.cassette.json', 'utf8')) as { calls: { response: { content: string } }[] }).calls[0]!.response.content;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

/** What one view measures at one width: the document's widths, each checked element's, and what sticks out. */
interface Measure {
  document: { scrollWidth: number; clientWidth: number };
  /** view elements (header, main, every rl-* with a box) wider inside than their box, and not a scroll box themselves */
  overflowing: string[];
  /** how many view elements were measured, and which of the view's own roots were found */
  checked: number;
  rootsFound: string[];
  /** elements that reach past the window's right edge (what to fix when the document scrolls sideways) */
  pastEdge: string[];
  /** visible table header cells whose computed position is not sticky */
  notSticky: string[];
  /** table cells with a word broken across lines ("textki t-1"): a cell wraps between words, or not at all */
  brokenWords: string[];
  /** the header's title: where it starts and ends */
  title: { left: number; right: number; text: string } | undefined;
}

/** Measures the page as it is now (inside every shadow root): see Measure. */
function measure(page: Page, roots: string[]): Promise<Measure> {
  return page.evaluate((roots) => {
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    const name = (el: Element) => {
      const host = (el.getRootNode() as ShadowRoot).host;
      return `${host ? `${host.tagName.toLowerCase()} › ` : ''}${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    };
    const shown = (el: Element) => {
      const cs = getComputedStyle(el);
      return cs.display !== 'none' && cs.display !== 'contents' && cs.visibility !== 'hidden' && el.getClientRects().length > 0;
    };
    const doc = document.scrollingElement!;
    const viewElements = all.filter((el) => shown(el) && (el.tagName.startsWith('RL-') || ['HEADER', 'MAIN'].includes(el.tagName) || roots.some((r) => el.matches(r))));
    const overflowing = viewElements
      .filter((el) => {
        // a box that scrolls sideways by design (a table's or a chart's wrapper) is where wide things belong
        const ox = getComputedStyle(el).overflowX;
        return !(ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth;
      })
      .map((el) => `${name(el)}: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
    const width = doc.clientWidth;
    const pastEdge = all
      .filter((el) => shown(el) && el.getBoundingClientRect().right > width + 0.5)
      // only the outermost: what is inside an element past the edge is past it too
      .filter((el, _i, list) => !list.some((o) => o !== el && o.contains(el)))
      .slice(0, 12)
      .map((el) => `${name(el)} right=${Math.round(el.getBoundingClientRect().right)}`);
    const notSticky = all
      // sticky cells, or a sticky header group (a matrix's two header rows stick together)
      .filter((el) => el.tagName === 'TH' && el.closest('thead') && shown(el) && getComputedStyle(el).position !== 'sticky' && getComputedStyle(el.closest('thead')!).position !== 'sticky')
      .slice(0, 12)
      .map((el) => `${name(el)} "${(el.textContent ?? '').trim().slice(0, 30)}": ${getComputedStyle(el).position}`);
    // a word (no space or hyphen in it: a break after a hyphen is a word boundary) laid out on more than one line
    const brokenWords: string[] = [];
    for (const cell of all.filter((el) => (el.tagName === 'TD' || el.tagName === 'TH') && shown(el))) {
      const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let t = texts.nextNode(); t && brokenWords.length < 12; t = texts.nextNode()) {
        for (const w of (t.textContent ?? '').matchAll(/[^\s-]{2,}/g)) {
          const range = document.createRange();
          range.setStart(t, w.index);
          range.setEnd(t, w.index + w[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) brokenWords.push(`${name(cell)}: "${w[0]}" on ${lines.size} lines`);
        }
      }
    }
    const h1 = document.querySelector('rl-app')?.shadowRoot?.querySelector('header h1');
    const r = h1?.getBoundingClientRect();
    return {
      document: { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth },
      overflowing,
      checked: viewElements.length,
      rootsFound: roots.filter((sel) => all.some((el) => el.matches(sel) && shown(el))),
      pastEdge,
      notSticky,
      brokenWords,
      title: r && h1 ? { left: r.left, right: r.right, text: h1.textContent ?? '' } : undefined,
    };
  }, roots);
}

/** Lets a resized window lay out again (two frames). */
const settle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

/**
 * Checks the view on screen at both widths: the document and every view element fit across, the view's own roots
 * are there, every table header sticks, the title is whole; a screenshot of each width goes to the report. Soft
 * checks: one run names every view that fails, not only the first.
 */
async function checkView(page: Page, testInfo: TestInfo, view: string, roots: string[], opts: { fullPage?: boolean } = {}) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await settle(page);
    const m = await measure(page, roots);
    const at = `${view} at ${size.width}×${size.height}`;
    const path = testInfo.outputPath(`${view}-${size.width}.png`);
    await page.screenshot({ path, fullPage: opts.fullPage ?? true });
    await testInfo.attach(`${view}-${size.width}.png`, { path, contentType: 'image/png' });
    expect.soft(m.rootsFound, `${at}: the view's elements are on screen`).toEqual(roots);
    expect.soft(m.checked, `${at}: view elements measured`).toBeGreaterThan(2);
    expect.soft(m.document.scrollWidth, `${at}: the document is ${m.document.scrollWidth} px wide in a ${m.document.clientWidth} px window; past the edge: ${m.pastEdge.join('; ')}`).toBeLessThanOrEqual(m.document.clientWidth);
    expect.soft(m.overflowing, `${at}: view elements that scroll sideways`).toEqual([]);
    expect.soft(m.notSticky, `${at}: table headers that do not stick`).toEqual([]);
    expect.soft(m.brokenWords, `${at}: words broken across lines in table cells`).toEqual([]);
    expect.soft(m.title?.text, `${at}: the header's title`).toBe('RepairLab');
    expect.soft(m.title && m.title.left >= 0 && m.title.right <= m.document.clientWidth, `${at}: the title is whole (${JSON.stringify(m.title)})`).toBe(true);
  }
  // back to the wide window for the next steps
  await page.setViewportSize(SIZES[0]);
  await settle(page);
}

const engineCall = <T>(page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(
    ([fn, args]) => (globalThis as unknown as { repairlab: { engine: Record<string, (...a: unknown[]) => Promise<unknown>> } }).repairlab.engine[fn as string]!(...(args as unknown[])),
    [fn, args] as const,
  ) as Promise<T>;

let model: CassetteServer;
test.beforeEach(async () => {
  model = await startCassetteServer({ replies: Array.from({ length: 200 }, () => FIX), model: 'repairlab-demo-scripted', allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
});
test.afterEach(async () => {
  await model.close();
});

test('no view scrolls sideways at 1280 or 800 px; wide tables and charts scroll in their own box with sticky headers', async ({ page }, testInfo) => {
  test.setTimeout(420_000);
  await serveRuntimeConfig(page, { runner: e2eRunner() });
  await page.setViewportSize(SIZES[0]);
  await page.goto(appUrl());
  await expect(page.locator(`li[data-bug="${BUG}"]`)).toBeVisible();
  await checkView(page, testInfo, 'bugs', ['rl-bug-browser']);

  await useModelEndpoint(page, model.baseURL, 'repairlab-demo-scripted');
  await openBug(page, BUG);
  await expect(page.locator('rl-code-excerpt').first()).toBeVisible();
  await checkView(page, testInfo, 'bug-detail', ['rl-bug-browser', 'rl-bug-detail', 'rl-run-view']);

  expect(await runToOutcome(page, BUG, 'oneshot')).toBe('plausible');
  await checkView(page, testInfo, 'finished-run', ['rl-run-view', 'rl-run-outcome']);

  // an experiment through the engine (the builder's own test builds one in the form): 2 bugs × 2 variants × 2 samples
  const spec = {
    schemaVersion: 1,
    name: 'layout-check',
    bugs: ['textkit-1', 'textkit-2'],
    variants: [
      { name: 'oneshot', preset: 'oneshot' },
      { name: 'oneshot-one-step', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
    ],
    samples: 2,
    model: { provider: 'custom', baseURL: model.baseURL, model: 'repairlab-demo-scripted' },
    concurrency: { modelCalls: 2, validations: 2 },
  };
  const record = await engineCall<{ id: string }>(page, 'createExperiment', spec);
  await engineCall(page, 'runExperiment', record.id, { runners: [e2eRunner()], apiKeys: {} });
  await expect
    .poll(async () => (await engineCall<{ record: { status: string } }>(page, 'getExperiment', record.id)).record.status, { timeout: 200_000 })
    .toBe('finished');

  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.getByRole('button', { name: 'New experiment' }).click();
  await expect(page.locator('input[name="exp-name"]')).toBeVisible();
  await checkView(page, testInfo, 'experiment-builder', ['rl-experiments-view', 'rl-experiment-builder']);
  await page.getByRole('button', { name: 'Close the builder' }).click();
  await page.locator(`tr[data-experiment="${record.id}"] button[name="open-experiment"]`).click();
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished');
  await expect(page.locator('rl-experiment-results')).toBeVisible();
  // a chart draws once it scrolls into view: bring each one in, so every drawing is measured
  await expect(page.locator('rl-chart').first()).toBeAttached();
  for (const chart of await page.locator('rl-chart').all()) {
    await chart.scrollIntoViewIfNeeded();
    await expect(chart.locator('[data-drawn]')).toHaveAttribute('data-drawn', 'yes');
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await checkView(page, testInfo, 'experiment', ['rl-experiments-view', 'rl-experiment-matrix', 'rl-experiment-results', 'rl-chart']);

  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(page.locator('tr.run')).toHaveCount(9);
  // the experiment's runs name their cell (experiment, variant, sample): with the bug, each of the 8 rows is distinct
  // (soft: the layout checks below still run and report)
  const cellsNamed = await page.locator('tr.run').evaluateAll((rows) =>
    rows
      .filter((r) => r.querySelector('td[data-col="experiment"] .exp'))
      .map((r) => `${r.querySelector('td[data-col="bug"]')!.textContent!.trim()} ${r.querySelector('td[data-col="experiment"]')!.textContent!.replace(/\s+/g, ' ').trim()}`),
  );
  expect.soft(new Set(cellsNamed).size, `runs naming their experiment cell:\n${cellsNamed.join('\n')}`).toBe(8);
  for (const named of cellsNamed) expect.soft(named).toMatch(/^textkit-[12] layout-check oneshot(-one-step)? · #[12]$/);
  // the run id column: a short id, the full one in its title
  const runIdCell = await page.locator('tr.run').first().evaluate((tr) => {
    const code = tr.querySelector('td[data-col="run"] code');
    return { runId: (tr as HTMLElement).dataset.run!, shown: code?.textContent ?? '', title: code?.getAttribute('title') ?? '' };
  });
  expect.soft(runIdCell.title, 'the run column names the run in full in its title').toBe(runIdCell.runId);
  expect.soft(runIdCell.shown.length, `the run column's short id "${runIdCell.shown}"`).toBeGreaterThan(0);
  expect.soft(runIdCell.runId).toContain(runIdCell.shown);
  expect.soft(runIdCell.shown.length).toBeLessThan(runIdCell.runId.length);
  await checkView(page, testInfo, 'runs', ['rl-runs-view']);

  await page.locator('tr.run').first().click();
  await expect(page.getByTestId('trajectory-viewer')).toBeVisible();
  await checkView(page, testInfo, 'trajectory', ['rl-runs-view', 'rl-trajectory-viewer', 'rl-step-card']);

  await page.locator('input[name="select-run"]').nth(0).check();
  await page.locator('input[name="select-run"]').nth(1).check();
  await page.locator('button[name="compare"]').click();
  await expect(page.getByTestId('run-compare')).toBeVisible();
  await checkView(page, testInfo, 'compare', ['rl-runs-view', 'rl-run-compare']);

  await page.getByRole('button', { name: 'Strategy editor' }).click();
  await expect(page.getByTestId('strategy-editor')).toBeVisible();
  await checkView(page, testInfo, 'strategy-editor', ['rl-strategy-editor']);

  await page.getByRole('button', { name: 'Repositories' }).click();
  await page.waitForFunction(() => document.querySelector('rl-app')?.shadowRoot?.querySelector('rl-repos-view')?.shadowRoot?.querySelector('li') != null);
  await checkView(page, testInfo, 'repositories', ['rl-repos-view']);

  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.locator('input[name="runner-url"]')).toBeVisible();
  await checkView(page, testInfo, 'settings', ['rl-settings-panel']);

  // the classroom: a person plays RepairAgent; its turn, then the presenter layout
  await page.getByLabel('A person plays the model').check();
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption('repairagent');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('human-turn')).toContainText('step 1');
  await checkView(page, testInfo, 'classroom', ['rl-run-view', 'rl-human-turn', 'rl-state-diagram']);
  await page.getByRole('button', { name: 'Presenter layout', exact: true }).click();
  await expect(page.getByTestId('presenter')).toBeVisible();
  // the dialog is the top layer: it scrolls (down) by itself, never sideways; a window-sized screenshot
  await checkView(page, testInfo, 'presenter', ['[data-testid="presenter"]', 'rl-human-turn'], { fullPage: false });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'stopped');
});

/** The `data-run` of the Runs list row that has keyboard focus ('' when focus is elsewhere). */
const focusedRun = async (page: Page) =>
  (await deepFocus(page)).evaluate((el) => (el instanceof HTMLElement && el.matches('tr.run') ? el.dataset.run ?? '' : ''));

test('the Runs list answers its keys; its header sticks in its box; a copied run id is one notice, dismissed or gone by itself', async ({ page, context }) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await serveRuntimeConfig(page, { runner: e2eRunner() });
  await page.goto(appUrl());
  await useModelEndpoint(page, model.baseURL, 'repairlab-demo-scripted');
  await openBug(page, BUG);
  for (let i = 0; i < 3; i++) await runToOutcome(page, BUG, 'oneshot');
  await page.getByRole('button', { name: 'Runs' }).click();
  const rows = page.locator('tr.run');
  await expect(rows).toHaveCount(3);
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.run!));
  const selected = page.locator('tr.run[aria-selected="true"]');

  // / focuses the search box; Escape there goes back to the list, on the selected (first) row
  await page.locator('input[name="run-filter"]').focus();
  await page.keyboard.press('Escape');
  expect(await focusedRun(page)).toBe(ids[0]);
  // j/k (and the arrows) move the selection and the focus; the ends hold
  await page.keyboard.press('j');
  expect(await focusedRun(page)).toBe(ids[1]);
  await expect(selected).toHaveAttribute('data-run', ids[1]!);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('j');
  expect(await focusedRun(page)).toBe(ids[2]);
  await page.keyboard.press('k');
  expect(await focusedRun(page)).toBe(ids[1]);
  await expect(selected).toHaveCount(1);

  // Enter opens the selected run (its viewer takes the keys); Escape there comes back to its row
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trajectory-viewer')).toBeVisible();
  await expect(page.locator('rl-runs-view .open-head h3')).toContainText(ids[1]!);
  await expect(page.locator(`tr.run[data-run="${ids[1]}"]`)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('Escape');
  expect(await focusedRun(page)).toBe(ids[1]);
  // o opens too
  await page.keyboard.press('k');
  await page.keyboard.press('o');
  await expect(page.locator('rl-runs-view .open-head h3')).toContainText(ids[0]!);
  await page.keyboard.press('Escape');
  expect(await focusedRun(page)).toBe(ids[0]);

  // f: the status filter; /: the search box, where Enter goes back to the (filtered) list
  await page.keyboard.press('f');
  await expect(page.locator('select[name="status-filter"]')).toBeFocused();
  await page.locator(`tr.run[data-run="${ids[2]}"]`).focus();
  await page.keyboard.press('/');
  await expect(page.locator('input[name="run-filter"]')).toBeFocused();
  await page.keyboard.type(ids[2]!);
  await expect(rows).toHaveCount(1);
  await page.keyboard.press('Enter');
  expect(await focusedRun(page)).toBe(ids[2]);
  await page.locator('input[name="run-filter"]').fill('');
  await expect(rows).toHaveCount(3);

  // the header sticks to the top of the table's own box: squeeze the box, scroll it, the header stays at its top
  const th = page.locator('rl-runs-view thead th').first();
  expect(await th.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
  const stuck = await page.locator('rl-runs-view .table-wrap').evaluate(async (box) => {
    (box as HTMLElement).style.maxHeight = '5.5rem';
    box.scrollTop = box.scrollHeight;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const head = box.querySelector('thead th')!.getBoundingClientRect();
    const result = { scrolled: box.scrollTop, headTop: Math.round(head.top), boxTop: Math.round(box.getBoundingClientRect().top + box.clientTop) };
    (box as HTMLElement).style.maxHeight = '';
    box.scrollTop = 0;
    return result;
  });
  expect(stuck.scrolled).toBeGreaterThan(0);
  expect(stuck.headTop).toBe(stuck.boxTop);

  // Copy: one notice in the app's notice area, replaced (not stacked) by a second copy, dismissed by its ×
  const notice = page.locator('[data-notice="copy-run-id"]');
  await page.locator(`tr.run[data-run="${ids[0]}"] button[name="copy-run-id"]`).click();
  await expect(notice).toContainText(ids[0]!);
  await page.locator(`tr.run[data-run="${ids[1]}"] button[name="copy-run-id"]`).click();
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText(ids[1]!);
  // copying opened no run
  await expect(page.locator('rl-runs-view .open-head h3')).toContainText(ids[0]!);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ids[1]);
  await notice.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(notice).toHaveCount(0);
  // information goes by itself (6 s)
  await page.locator(`tr.run[data-run="${ids[2]}"] button[name="copy-run-id"]`).click();
  await expect(notice).toHaveAttribute('data-kind', 'success');
  await expect(notice).toHaveCount(0, { timeout: 10_000 });
});
