// Patch review in the browser, on IndexedDB: an experiment of 10 plausible runs of the bundled textkit-1 bug is opened
// from a bundle (runs written here with the real engine records and bundle writer; plausibility is their recorded
// re-check, the review never re-validates). 3 of the 10 runs end with a patch that normalises to another's, so the
// queue holds 7 items, each labelled once per rater. Two raters label them from the keyboard in the Review tab:
//   item        1  2  3  4  5  6  7
//   ana         c  c  c  c  o  o  u
//   ben         c  c  c  o  o  o  c
// Cohen's κ: p_o = 5/7; p_e = (4/7)(4/7) + (2/7)(3/7) + (1/7)(0) = 22/49; κ = (35/49 − 22/49)/(27/49) = 13/27.
// Items 4 and 7 disagree; resolved as correct and overfitting. Variant a ran items 1–5, b items 6, 7 and the three
// duplicates of 1–3: correct@1 = 4/5 for a and 3/5 for b, correct@5 = 1 for both.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { appUrl } from './helpers.ts';

const ID = 'exp-review-e2e';
const CONDITIONS = [
  'if (!(s.length() > maxLength)) {',
  'if (maxLength >= s.length()) {',
  'if (s.length() < maxLength + 1) {',
  'if (s.length() - maxLength <= 0) {',
  'if (s.length() <= maxLength && true) {',
  'if (!(maxLength < s.length())) {',
  'if (s.length() < maxLength || s.length() == maxLength) {',
];

async function bundleBytes(): Promise<{ bytes: number[]; keys: string[] }> {
  const [{ scriptedRun, SCRIPTS }, { MemoryRecordStore }, { storeRecorder }, { ExperimentStore }, { EXPERIMENT_SCHEMA_VERSION }, { parseTrajectory }, { collectBundle, writeBundle }, { patchKey }] = await Promise.all([
    import('../unit/experiments/metrics/runs.ts'),
    import('../../worker/platform/memory-records.ts'),
    import('../../worker/records/persistence.ts'),
    import('../../worker/experiments/experiment-store.ts'),
    import('../../worker/contracts/experiment.ts'),
    import('../../worker/contracts/trajectory.ts'),
    import('../../worker/share/experiment-bundle.ts'),
    import('../../worker/diff/normalised-patch.ts'),
  ]);
  const truth = (JSON.parse(await readFile('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch;
  const patch = (line: string, spaced = false) => truth.replace('+        if (s.length() <= maxLength) {', `+        ${spaced ? line.replace(/ /g, '   ') : line}`);
  const patches = [...CONDITIONS.map((c) => patch(c)), ...CONDITIONS.slice(0, 3).map((c) => patch(c, true))];
  const records = new MemoryRecordStore();
  const record = storeRecorder(records);
  const store = new ExperimentStore(records);
  const now = new Date(0).toISOString();
  const spec = { schemaVersion: 1, name: 'review-e2e', bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot', variants: [], overrides: {} }, { name: 'b', preset: 'oneshot', variants: [], overrides: {} }], samples: 5, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
  await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status: 'finished', spec, bugs: [{ id: 'textkit-1', category: 'SL' }], runnerOfBug: { 'textkit-1': 0 }, cells: 10, wallMsBefore: 0 });
  for (const [i, p] of patches.entries()) {
    const t = structuredClone(await scriptedRun(SCRIPTS.fix));
    t.bug = { ...t.bug, id: 'textkit-1', library: 'textkit' };
    t.outcome = { ...t.outcome!, status: 'plausible', plausible: true, finalPatch: p };
    const parsed = parseTrajectory(t);
    await record(parsed);
    await store.putCell({ experimentId: ID, index: i, bugId: 'textkit-1', variant: i < 5 ? 'a' : 'b', sample: i % 5, runner: 0, status: 'plausible', runId: parsed.runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: 0, calls: 1, steps: 1 });
  }
  const { bytes } = await writeBundle(await collectBundle(records, ID));
  return { bytes: [...bytes], keys: CONDITIONS.map((c) => patchKey(patch(c))) };
}

test('two raters label an experiment’s plausible patches; kappa, disagreements, resolutions and correct@k', async ({ page }) => {
  const { bytes, keys } = await bundleBytes();
  await page.goto(appUrl());
  await page.waitForFunction(() => !!(globalThis as unknown as { repairlab?: { engine?: unknown } }).repairlab?.engine);
  await page.evaluate((b) => (globalThis as unknown as { repairlab: { engine: { openBundle(bytes: Uint8Array, source: string): Promise<unknown> } } }).repairlab.engine.openBundle(new Uint8Array(b), 'review.rlbundle.json.gz'), bytes);

  await page.getByRole('button', { name: 'Review', exact: true }).click();
  const labelAll = async (rater: string, answers: string) => {
    await page.getByTestId('review-rater').fill(rater);
    await page.getByTestId('review-experiment').selectOption(ID);
    await page.getByTestId('review-load').click();
    await expect(page.getByTestId('review-summary')).toContainText('7 patches to review');
    for (const [i, key] of [...answers].entries()) {
      const item = page.getByTestId('review-item');
      await expect(item).toHaveAttribute('data-patch', keys[i]!);
      await item.focus();
      await item.press(key);
      if (i < answers.length - 1) await expect(item).toHaveAttribute('data-patch', keys[i + 1]!);
      else await expect(page.getByTestId('review-labels')).toContainText(`${rater}: ${{ c: 'correct', o: 'overfitting', u: 'unsure' }[key]}`);
    }
  };
  await labelAll('ana', 'ccccoou');
  await labelAll('ben', 'cccoooc');

  const kappa = page.getByTestId('review-kappa');
  await expect(kappa).toContainText("Cohen's κ = 0.4815 over 7 patches (ana, ben)");
  expect(Number(await kappa.getAttribute('data-kappa'))).toBeCloseTo(13 / 27, 12);
  // items 4 and 7 disagree (listed in the order the label store returns them, which this test does not fix)
  const disagreements = page.getByTestId('review-disagreements');
  await expect(disagreements.locator('tbody tr')).toHaveCount(2);
  const item4 = disagreements.locator(`tbody tr[data-patch="${keys[3]!}"]`);
  const item7 = disagreements.locator(`tbody tr[data-patch="${keys[6]!}"]`);
  await expect(item4).toHaveCount(1);
  await expect(item7).toHaveCount(1);
  await item4.getByTestId('resolve-correct').click();
  await expect(item4.locator('td').nth(4)).toHaveText('correct');
  await item7.getByTestId('resolve-overfitting').click();
  await expect(item7.locator('td').nth(4)).toHaveText('overfitting');
  await expect(page.getByTestId('review-summary')).toContainText('0 without a label the metrics count');

  // the report's correctness table (the Experiments tab's and every export's) from the resolved labels
  const view = (await page.evaluate((id) => (globalThis as unknown as { repairlab: { engine: { experimentReportView(id: string): Promise<unknown> } } }).repairlab.engine.experimentReportView(id), ID)) as { tables: { name: string; table: { columns: string[]; rows: unknown[][] } }[] };
  const table = view.tables.find((t) => t.name === 'correctness')!.table;
  const row = (variant: string) => Object.fromEntries(table.columns.map((c, i) => [c, table.rows.find((r) => r[0] === variant && r[1] === 'all')![i]]));
  expect(row('a')).toMatchObject({ '#correct': 1, 'correct@5': 1, unlabelled_runs: 0 });
  expect(row('a')['correct@1']).toBeCloseTo(0.8, 12);
  expect(row('b')['correct@1']).toBeCloseTo(0.6, 12);
  expect(row('b')['correct@5']).toBe(1);
});
