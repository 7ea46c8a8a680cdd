// The ground truth is for the person at the UI, after trying: the engine refuses to show it before a run of
// the bug has finished, and shows it after one (here a scripted one-shot run with a wrong patch).
import { expect, it } from 'vitest';
import { useRunManagerHome } from '../../helpers/run-manager-home.ts';

const lab = useRunManagerHome('reveal');

it('reveals the ground truth of a bug only after a run of that bug finished', async () => {
  const runs = lab.runs();
  await expect(runs.revealGroundTruth('textkit-1')).rejects.toThrow(/only after a run of it has finished/);
  const wrong = 'The limit check is wrong.\n```diff\n--- a/src/main/java/org/repairlab/textkit/Strings.java\n+++ b/src/main/java/org/repairlab/textkit/Strings.java\n@@ -1 +1 @@\n-x\n+y\n```';
  const [t] = await runs.start(
    { bugId: 'textkit-1', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } }, model: { kind: 'scripted', replies: [wrong] }, runner: lab.runner },
    () => undefined,
  );
  expect(t!.outcome?.status).not.toBe('plausible');
  // another bug stays hidden
  await expect(runs.revealGroundTruth('textkit-2')).rejects.toThrow(/textkit-2/);
  const bug = await lab.engine().catalog.bug('textkit-1');
  expect(await runs.revealGroundTruth('textkit-1')).toBe(bug.groundTruth.patch);
});
