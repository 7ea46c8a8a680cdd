// Accessibility and layout, in Chromium against the built app: a bug picked with the keyboard alone, a visible
// focus ring, no sideways scrolling at 800 px on the bug browser, bug detail, settings and repositories; the bug
// report's Markdown rendered with nothing in it able to run; the runner's state shown up front. Screenshots go to
// the test output.
import { createServer } from 'node:http';
import { test, expect, type Page } from '@playwright/test';
import { startDemoEndpoints } from '../../scripts/demo-endpoints.ts';
import { appUrl, deepFocus, e2eRunner, openBug, serveRuntimeConfig } from './helpers.ts';

const BUG = 'textkit-1';

/** Elements (inside shadow roots too) that reach past the window's right edge: what to fix when the page scrolls sideways. */
function widest(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const walk = (root: Document | ShadowRoot, path: string) => {
      for (const el of root.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.right > document.documentElement.clientWidth + 0.5) out.push(`${path} ${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className : ''} right=${Math.round(r.right)}`);
        if (el.shadowRoot) walk(el.shadowRoot, `${path} ${el.tagName.toLowerCase()}`);
      }
    };
    walk(document, '');
    return out.slice(0, 15);
  });
}

/** The `data-bug` of the bug button that has keyboard focus, if one has. */
async function focusedBug(page: Page): Promise<string | undefined> {
  const el = await deepFocus(page);
  return el.evaluate((e) => (e instanceof HTMLElement ? (e.closest('li')?.dataset.bug ?? undefined) : undefined));
}

test('keyboard only: Tab reaches the bug list, Enter opens the bug; focus is visible', async ({ page }, testInfo) => {
  await page.goto(appUrl());
  await expect(page.locator(`li[data-bug="${BUG}"]`)).toBeVisible();
  let found: string | undefined;
  for (let i = 0; i < 60 && found !== BUG; i++) {
    await page.keyboard.press('Tab');
    found = await focusedBug(page);
  }
  expect(found, `Tab never reached the ${BUG} bug`).toBe(BUG);
  const focused = await deepFocus(page);
  // a visible focus ring: a solid outline at least 2 px wide
  expect(await focused.evaluate((e) => getComputedStyle(e as Element).outlineStyle)).toBe('solid');
  expect(parseFloat(await focused.evaluate((e) => getComputedStyle(e as Element).outlineWidth))).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: testInfo.outputPath('keyboard-focus-on-bug.png') });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bug-detail')).toBeVisible();
  await expect(page.getByTestId('bug-detail')).toContainText(BUG);
  await expect(page.locator(`li[data-bug="${BUG}"] button`)).toHaveAttribute('aria-current', 'true');
  await page.screenshot({ path: testInfo.outputPath('keyboard-bug-opened.png'), fullPage: true });
});

/** Presses Tab until the focused element's text starts with `text` (at most `max` times); fails naming what it looked for. */
async function tabTo(page: Page, text: string, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await (await deepFocus(page)).evaluate((e) => (e instanceof HTMLElement ? e.innerText.trim() : ''));
    if (focused.startsWith(text)) return;
  }
  throw new Error(`Tab never reached "${text}" in ${max} presses`);
}

test('keyboard only: pick a bug, start a run of the demo recording, open its step’s prompt', async ({ page }, testInfo) => {
  const demos = await startDemoEndpoints({ allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  try {
    // the one-shot fix recording first: a fresh profile's model is the first endpoint offered
    const first = demos.endpoints.findIndex((e) => e.demo?.file === `${BUG}.oneshot.fix`);
    await serveRuntimeConfig(page, { runner: e2eRunner(), modelEndpoints: [demos.endpoints[first]!, ...demos.endpoints.filter((_, i) => i !== first)] });
    await page.goto(appUrl());
    await expect(page.locator(`li[data-bug="${BUG}"]`)).toBeVisible();
    await tabTo(page, BUG);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('bug-detail')).toBeVisible();
    await expect(page.getByTestId('run-active-demo')).toContainText(`${BUG}.oneshot.fix`);
    await tabTo(page, 'Run agent', 120);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
    await tabTo(page, 'Prompt (', 200);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('step').first().getByTestId('prompt').locator('pre').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('keyboard-run.png'), fullPage: true });
  } finally {
    await demos.close();
  }
});

test('at 800 px nothing scrolls sideways: bug browser, bug detail, settings, repositories', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 800, height: 900 });
  const demos = await startDemoEndpoints({ allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  try {
    await serveRuntimeConfig(page, { runner: e2eRunner(), modelEndpoints: demos.endpoints });
    const noSidewaysScroll = async (view: string) => {
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
      await page.screenshot({ path: testInfo.outputPath(`800px-${view}.png`), fullPage: true });
      if (scrollWidth !== clientWidth) console.log(view, await widest(page));
      expect(scrollWidth, `${view}: the page is ${scrollWidth} px wide in a ${clientWidth} px window`).toBe(clientWidth);
    };
    await page.goto(appUrl());
    await expect(page.locator(`li[data-bug="${BUG}"]`)).toBeVisible();
    await noSidewaysScroll('bug-browser');
    await openBug(page, BUG);
    await expect(page.locator('rl-code-excerpt').first()).toBeVisible();
    await noSidewaysScroll('bug-detail');
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.locator('input[name="runner-url"]')).toBeVisible();
    await expect(page.getByTestId('active-demo')).toBeVisible();
    await noSidewaysScroll('settings');
    await page.getByRole('button', { name: 'Repositories' }).click();
    await expect(page.locator('rl-repos-view')).toBeVisible();
    await page.waitForFunction(() => document.querySelector('rl-app')?.shadowRoot?.querySelector('rl-repos-view')?.shadowRoot?.querySelector('li') != null);
    await noSidewaysScroll('repositories');
  } finally {
    await demos.close();
  }
});

test("the bug report's Markdown is rendered, and a <script> or an onerror in it stays inert", async ({ page }, testInfo) => {
  await openBug(page, BUG);
  const report = page.getByTestId('bug-report');
  // the bundled report: `Strings.truncate` is code, the indented line a code block
  await expect(report.locator('code').first()).toHaveText('Strings.truncate');
  await expect(report.locator('pre code')).toContainText('Strings.truncate("hello", 5)');
  await expect(report).not.toContainText('`');
  // a hostile report, given to the same component the app renders
  const hostile = [
    '**Bold** claim with <img src="x" onerror="window.__pwned = \'img\'"> and a link [click](javascript:window.__pwned=\'link\').',
    '',
    '<script>window.__pwned = "script"</script>',
    '<a href="#" onclick="window.__pwned=\'click\'">inline handler</a>',
  ].join('\n');
  await page.evaluate((body) => {
    const detail = document.querySelector('rl-app')!.shadowRoot!.querySelector('rl-bug-detail') as HTMLElement & { view: { bug: { report: { body: string } } } };
    detail.view = { ...detail.view, bug: { ...detail.view.bug, report: { ...detail.view.bug.report, body } } };
  }, hostile);
  await expect(report.locator('strong')).toHaveText('Bold');
  await expect(report.locator('img')).toHaveCount(1);
  await expect(report.locator('script')).toHaveCount(0);
  expect(await report.locator('img').getAttribute('onerror')).toBeNull();
  expect(await report.locator('a', { hasText: 'inline handler' }).getAttribute('onclick')).toBeNull();
  const jsLink = report.locator('a', { hasText: 'click' }).first();
  expect(await jsLink.getAttribute('href') ?? '').not.toMatch(/^javascript:/);
  await report.locator('a', { hasText: 'inline handler' }).click();
  // give a broken image's error event a chance to fire: wait until the image has settled
  await page.waitForFunction(() => {
    const img = document.querySelector('rl-app')!.shadowRoot!.querySelector('rl-bug-detail')!.shadowRoot!.querySelector('img');
    return img?.complete === true;
  });
  expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
  await page.screenshot({ path: testInfo.outputPath('markdown-report.png'), fullPage: true });
});

test("the runner's state is shown up front: ready, and when it is down, what is wrong and what to do", async ({ page, browser }, testInfo) => {
  await page.goto(appUrl());
  const pill = page.getByTestId('runner-status');
  await expect(pill).toHaveAttribute('data-state', 'ready');
  await expect(pill).toHaveText('Runner: ready');
  await expect(page.getByTestId('runner-down')).toHaveCount(0);

  // a runner address where nothing listens: a port just freed
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const context = await browser.newContext();
  try {
    await serveRuntimeConfig(context, { runner: { url: `http://127.0.0.1:${port}`, token: e2eRunner().token } });
    const down = await context.newPage();
    await down.goto(appUrl());
    await expect(down.getByTestId('runner-status')).toHaveAttribute('data-state', 'down');
    await expect(down.getByTestId('runner-down')).toContainText(`The runner at http://127.0.0.1:${port} does not answer`);
    await expect(down.getByTestId('runner-down')).toContainText('npm start');
    await down.screenshot({ path: testInfo.outputPath('runner-down.png') });
    // a wrong token is named as such
    await serveRuntimeConfig(context, { runner: { url: e2eRunner().url, token: 'not-the-token' } });
    await down.reload();
    await expect(down.getByTestId('runner-down')).toContainText('answered 401');
    await expect(down.getByTestId('runner-down')).toContainText('Settings → Runner token');
  } finally {
    await context.close();
  }
});
