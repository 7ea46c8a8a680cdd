// Trajectory files in the Runs view: a mini-swe-agent file opens for viewing (not stored), a file that is no
// trajectory is refused with a message naming it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { appUrl } from './helpers.ts';
import { MINI_SWE_AGENT_SAMPLE } from '../helpers/trajectory-samples.ts';

test('a mini-swe-agent trajectory file opens in the Runs view; another file is named and refused', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'repairlab-e2e-traj-'));
  const mini = join(dir, 'django-1.traj.json');
  writeFileSync(mini, JSON.stringify(MINI_SWE_AGENT_SAMPLE));
  const notes = join(dir, 'notes.json');
  writeFileSync(notes, '{"x": 1}');

  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Runs' }).click();
  const input = page.locator('input[name="import-trajectory"]');
  await input.setInputFiles(mini);
  await expect(page.getByTestId('imported-note')).toContainText('django-1.traj.json (mini-swe-agent format)');
  await expect(page.getByTestId('step-nav').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('step').first()).toContainText('ls -la');
  // viewing only: the list of saved runs stays empty
  await expect(page.locator('tr.run')).toHaveCount(0);

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
