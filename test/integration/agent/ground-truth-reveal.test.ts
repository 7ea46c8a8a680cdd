// The ground truth is for the person at the UI, after trying: the engine refuses to show it before a run of
// the bug has finished, and shows it after one (here a scripted one-shot run with a wrong patch).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../../worker/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/run-manager.ts';
import { initJavaForNode } from '../../../worker/java/node-wasm.ts';
import { startRunner } from '../../../runner/src/index.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-reveal-'));
let runner: Awaited<ReturnType<typeof startRunner>>;

beforeAll(async () => {
  runner = await startRunner({ port: 0 });
});
afterAll(async () => {
  await runner?.close();
  rmSync(home, { recursive: true, force: true });
});

it('reveals the ground truth of a bug only after a run of that bug finished', async () => {
  const engine = new Engine(createNodePlatform({ root: home }));
  const runs = new RunManager(engine, initJavaForNode);
  await expect(runs.revealGroundTruth('textkit-1')).rejects.toThrow(/only after a run of it has finished/);
  const wrong = 'The limit check is wrong.\n```diff\n--- a/src/main/java/org/repairlab/textkit/Strings.java\n+++ b/src/main/java/org/repairlab/textkit/Strings.java\n@@ -1 +1 @@\n-x\n+y\n```';
  const [t] = await runs.start(
    { bugId: 'textkit-1', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } }, model: { kind: 'scripted', replies: [wrong] }, runner: { url: runner.url, token: runner.token } },
    () => undefined,
  );
  expect(t!.outcome?.status).not.toBe('plausible');
  // another bug stays hidden
  await expect(runs.revealGroundTruth('textkit-2')).rejects.toThrow(/textkit-2/);
  const bug = await engine.catalog.bug('textkit-1');
  expect(await runs.revealGroundTruth('textkit-1')).toBe(bug.groundTruth.patch);
});
