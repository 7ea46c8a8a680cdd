// Defects4J bugs in the browser: a benchmark pack of imported fixture Defects4J bugs (generated with real git, imported
// with shipped environment exclusions, packed by the real CLI) is opened in the Repositories view into IndexedDB;
// the bug page lists what its validation leaves out and why; an agent (one-shot, scripted replies: the developers'
// fix) runs on it against the real runner to a verdict. A damaged pack is refused, naming it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import type { BugSpec } from '../../worker/contracts/bug.ts';
import { importDefects4j } from '../../worker/node/defects4j/defects4j-import.ts';
import { createDefects4jFixture } from '../integration/benchmarks/support/defects4j-fixture.ts';
import { appUrl, runToOutcome, useScriptedReplies } from './helpers.ts';

const EXCLUDED = 'org.fixture.CalcTest::testAdd';
const REASON = 'fails on the developer fix in the runner\'s environment (fixture: excluded to show it)';
let root: string;
let pack: Buffer;
let calc1: BugSpec;

test.beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'repairlab-e2e-pack-'));
  const fixture = createDefects4jFixture(root);
  const exclusions = join(root, 'exclusions');
  mkdirSync(exclusions);
  writeFileSync(join(exclusions, 'Calc.json'), JSON.stringify({
    schemaVersion: 1, project: 'Calc',
    measurements: { m: { jdk: '17.0.15', date: '2026-11-28', command: 'repairlab defects4j check --project Calc --record-env-failures' } },
    bugs: { 'Calc-1': [{ test: EXCLUDED, reason: REASON, measurement: 'm' }] },
  }));
  const out = join(root, 'out');
  const imported = importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', bugs: '1-2', outDir: out, exclusionsDir: exclusions });
  calc1 = imported.bugs.find((b) => b.spec.id === 'Calc-1')!.spec;
  execFileSync('node', ['bin/repairlab.mjs', 'defects4j', 'pack', '--from', out, '--out', join(root, 'calc.rlpack')], { env: { ...process.env, REPAIRLAB_HOME: join(root, 'home') } });
  pack = readFileSync(join(root, 'calc.rlpack'));
});
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test('a pack of imported Defects4J bugs opens in the app, shows what validation leaves out, and an agent runs on one to a verdict', async ({ page }) => {
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Repositories' }).click();
  await page.locator('input[name="import"]').setInputFiles({ name: 'calc.rlpack', mimeType: 'application/zip', buffer: pack });
  const results = page.getByTestId('import-results');
  await expect(results).toContainText('calc.rlpack: d4j-Calc-1.bundle: repository d4j-Calc-1', { timeout: 60_000 });
  await expect(results).toContainText('calc.rlpack: Calc-2.json: bug Calc-2 (repository d4j-Calc-2)');

  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator('li[data-bug="Calc-1"]').click();
  await expect(page.getByTestId('failing-tests')).toContainText('org.fixture.CalcTest::testIsPositiveZero');
  const environment = page.getByTestId('environment-exclusions');
  await expect(environment).toContainText(EXCLUDED);
  await expect(environment).toContainText(REASON);
  await expect(environment).toContainText('measured: JDK 17.0.15, 2026-11-28, `repairlab defects4j check --project Calc --record-env-failures`');
  await expect(page.getByTestId('benchmark-exclusions')).toContainText(`${calc1.layout.excludedTests!.length} test(s) the benchmark lists as broken`);
  await page.screenshot({ path: test.info().outputPath('pack-bug.png'), fullPage: true });

  // reloaded, the bugs are still there (IndexedDB), and an agent runs on one to a verdict
  await page.reload();
  await expect(page.locator('li[data-bug="Calc-1"]')).toBeVisible();
  const fix = `Zero is not positive.\n\n\`\`\`diff\n${calc1.groundTruth.patch}\`\`\`\n`;
  const server = await useScriptedReplies(page, [fix]);
  try {
    expect(await runToOutcome(page, 'Calc-1', 'oneshot')).toBe('plausible');
  } finally {
    await server.close();
  }
});

test('a damaged pack is refused, naming the pack and what is wrong', async ({ page }) => {
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Repositories' }).click();
  await page.locator('input[name="import"]').setInputFiles({ name: 'broken.rlpack', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(page.getByTestId('import-results').locator('li.bad')).toContainText('broken.rlpack (a RepairLab benchmark pack) is not a zip file');
});
