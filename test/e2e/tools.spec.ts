// The same tool calls give identical results in Node and in Chromium: the standard tool script (every toolkit:
// reads, searches, Java analysis, refusals, bash pipelines, writes, runner tests) runs in the browser's engine
// worker over IndexedDB and in this Node process over the filesystem, against the same runner.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { Engine } from '../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { initJavaForNode } from '../../worker/java/wasm-files.node.ts';
import { runToolScriptOnBug, type ToolScriptRun } from '../../worker/bugs/bug-tool-script.ts';
import { appUrl } from './helpers.ts';

const runner = () => ({ url: process.env.E2E_RUNNER_URL!, token: process.env.E2E_RUNNER_TOKEN! });

for (const bugId of ['textkit-1', 'csvkit-3']) {
  test(`the standard tool script gives the same results in Chromium and in Node (${bugId})`, async ({ page }) => {
    const home = mkdtempSync(join(tmpdir(), 'repairlab-e2e-tools-'));
    try {
      const node = await runToolScriptOnBug(new Engine(createNodePlatform({ root: home })), initJavaForNode, bugId, runner());
      await page.goto(appUrl());
      const browser = await page.evaluate(
        async ({ bugId, runner }) => {
          const api = (globalThis as unknown as { repairlab: { engine: { runToolScript(b: string, r: unknown): Promise<unknown> } } }).repairlab.engine;
          return api.runToolScript(bugId, runner);
        },
        { bugId, runner: runner() },
      );
      const b = browser as ToolScriptRun;
      expect(b.outcomes.length).toBe(node.outcomes.length);
      b.outcomes.forEach((o, i) => expect(o, `call ${i}: ${o.call.toolkit}.${o.call.name}`).toEqual(node.outcomes[i]));
      expect(b.diff).toBe(node.diff);
      // the script really ran everything: reads succeeded, refusals were refused, the writes landed, tests ran
      expect(node.outcomes.filter((o) => o.ok).length).toBeGreaterThan(10);
      expect(node.outcomes.filter((o) => !o.ok).length).toBeGreaterThanOrEqual(3);
      expect(node.diff).toContain('// checked');
      expect(node.diff).toContain('// reviewed');
      expect(node.outcomes.some((o) => o.validation?.compiled)).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
}
