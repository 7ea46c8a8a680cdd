// Trajectory files in the Runs view: a mini-swe-agent file is imported AND stored as a run (it is listed, survives a
// reload, opens again from the list and compares with another imported run), a file that is no trajectory is refused
// with a message naming it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { appUrl } from './helpers.ts';
import { MINI_SWE_AGENT_SAMPLE } from '../helpers/trajectory-samples.ts';

test('a mini-swe-agent trajectory file is stored as a run and listed after a reload; another file is named and refused', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'repairlab-e2e-traj-'));
  const mini = join(dir, 'django-1.traj.json');
  writeFileSync(mini, JSON.stringify(MINI_SWE_AGENT_SAMPLE));
  const notes = join(dir, 'notes.json');
  writeFileSync(notes, '{"x": 1}');

  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Runs' }).click();
  const input = page.locator('input[name="import-trajectory"]');
  await input.setInputFiles(mini);
  await expect(page.getByTestId('imported-note')).toContainText('Imported from django-1.traj.json (mini-swe-agent format) and stored as a run.');
  await expect(page.getByTestId('step-nav').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('step').first()).toContainText('ls -la');
  await expect(page.locator('tr.run')).toHaveCount(1);
  // stored: after a reload it is still in the Runs list, marked by its source format, and opens from there
  await page.reload();
  await page.getByRole('button', { name: 'Runs' }).click();
  const row = page.locator('tr.run');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('imported:mini-swe-agent');
  await row.click();
  await expect(page.getByTestId('step-nav').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('step').first()).toContainText('ls -la');
  // its prompts are not RepairLab's: it cannot replay as a cassette
  await expect(page.getByRole('button', { name: 'Export as cassette (to replay)' })).toHaveCount(0);
  // importing the same file again is the same run, not a second one
  await input.setInputFiles(mini);
  await expect(page.getByTestId('imported-note')).toBeVisible();
  await expect(page.locator('tr.run')).toHaveCount(1);
  // another agent's try at the same task (its second reply differs) is a second run; the two compare step by step
  const other = join(dir, 'django-1.other.traj.json');
  const messages = MINI_SWE_AGENT_SAMPLE.messages.map((m, i) => (i === 4 ? { ...m, content: 'THOUGHT: read it\n```bash\ncat setup.py\n```' } : m));
  writeFileSync(other, JSON.stringify({ ...MINI_SWE_AGENT_SAMPLE, messages }));
  await input.setInputFiles(other);
  await expect(page.locator('tr.run')).toHaveCount(2);
  for (const box of await page.locator('input[name="select-run"]').all()) await box.check();
  await page.locator('button[name="compare"]').click();
  const compare = page.getByTestId('run-compare');
  await expect(compare.getByTestId('compare-row')).toHaveCount(2);
  await expect(compare.locator('[data-testid="compare-row"][data-step="1"]')).toContainText('cat setup.py');

  await input.setInputFiles(notes);
  await expect(page.getByTestId('runs-error')).toContainText('notes.json is JSON but not a trajectory RepairLab knows');
});

test('a recording replays as the model; a finished run exports as a cassette that replays it again', async ({ page }) => {
  const BUG = 'textkit-1';
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Settings' }).click();
  const recording = page.locator('input[name="recording"]');
  // a file that is no recording is named and changes nothing
  const dir = mkdtempSync(join(tmpdir(), 'repairlab-e2e-rec-'));
  writeFileSync(join(dir, 'notes.json'), '{"x": 1}');
  await recording.setInputFiles(join(dir, 'notes.json'));
  await expect(page.getByTestId('recording-error')).toContainText('notes.json is not a valid RepairLab cassette');
  await recording.setInputFiles(`public/cassettes/${BUG}.oneshot.fix.cassette.json`);
  await expect(page.getByTestId('recording-summary')).toContainText(`1 recorded call of repairlab-demo-scripted on ${BUG} with oneshot`);

  const runOneshot = async () => {
    await page.getByRole('button', { name: 'Bugs' }).click();
    await page.locator(`li[data-bug="${BUG}"]`).click();
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
  };
  await runOneshot();

  await page.getByRole('button', { name: 'Runs' }).click();
  await page.locator('tr.run').first().click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as cassette (to replay)' }).click();
  const saved = join(dir, (await download).suggestedFilename());
  await (await download).saveAs(saved);
  const cassette = JSON.parse(readFileSync(saved, 'utf8')) as { kind: string; calls: { promptHash: string }[]; provenance: { bugId: string } };
  expect(cassette).toMatchObject({ kind: 'repairlab-cassette', provenance: { bugId: BUG } });
  expect(cassette.calls).toHaveLength(1);

  // the exported cassette replays the run it came from
  await page.getByRole('button', { name: 'Settings' }).click();
  await recording.setInputFiles(saved);
  await expect(page.getByTestId('recording-summary')).toContainText('1 recorded call');
  await runOneshot();
});
