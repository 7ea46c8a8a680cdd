// The prompt preview shows what a run sends: for the same bug and strategy (a preset with an edit given as overrides),
// the preview's messages equal the first prompt a real run records — a scripted HAFixAgent run and a one-shot run,
// each against a real runner — and the differences from the preset's rendering name the edit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { startRunner } from '../../../runner/src/index.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { estimateTokens } from '../../../worker/llm/usage-estimate.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-preview-'));
let runner: Awaited<ReturnType<typeof startRunner>>;
let engine: Engine;
let runs: RunManager;

beforeAll(async () => {
  runner = await startRunner({ port: 0 });
  engine = new Engine(createNodePlatform({ root: home }));
  runs = new RunManager(engine, initJavaForNode);
});
afterAll(async () => {
  await runner?.close();
  rmSync(home, { recursive: true, force: true });
});

const MARK = 'EDITED-BY-THE-STRATEGY-EDITOR';

async function firstRecordedPrompt(request: { bugId: string; preset: string; overrides: Record<string, unknown> }, reply: string) {
  const [t] = await runs.start({ ...request, model: { kind: 'scripted', replies: [reply] }, runner: { url: runner.url, token: runner.token } }, () => undefined);
  return t!.steps[0]!.prompt.messages;
}

it('equals the first prompt a HAFixAgent run records, edit included, and shows how it differs from the preset', async () => {
  const system = resolveStrategy('hafixagent').prompt.system;
  const request = { bugId: 'textkit-1', preset: 'hafixagent', overrides: { prompt: { system: `${MARK}\n${system}` }, budgets: { maxSteps: 1 } } };
  const preview = await engine.previewPrompt(request);
  const recorded = await firstRecordedPrompt(request, 'THOUGHT: done.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```');

  expect(preview.messages).toEqual(recorded);
  expect(preview.messages[0]!.content.startsWith(MARK)).toBe(true);
  expect(preview.estimatedInputTokens).toBe(recorded.reduce((n, m) => n + estimateTokens(m.content) + 4, 0));
  // only the system message differs from the preset's rendering, and the diff adds the mark
  expect(preview.preset!.messages[1]).toEqual(preview.messages[1]);
  expect(preview.differences.map((d) => d.index)).toEqual([0]);
  expect(preview.differences[0]!.diff).toContain(`+${MARK}`);
});

it('equals the first prompt of a one-shot run in its start state; another state is refused by name', async () => {
  const request = { bugId: 'textkit-2', preset: 'oneshot', overrides: { prompt: { instance: `{{ bug.id }} ${MARK}` } } };
  const preview = await engine.previewPrompt(request);
  const recorded = await firstRecordedPrompt(request, 'no patch here');
  expect(preview.messages).toEqual(recorded);
  expect(preview.messages[1]!.content).toBe(`textkit-2 ${MARK}`);
  await expect(engine.previewPrompt({ ...request, state: 'nowhere' })).rejects.toThrow(/state "nowhere" is not one of strategy oneshot's states/);
});

it('equals the first prompt of a RepairAgent run (dynamic prompt, state-aware tools, step counts) in each state', async () => {
  // without its startup test run, which the preview does not execute (it says so: startupNotRun)
  expect((await engine.previewPrompt({ bugId: 'textkit-1', preset: 'repairagent' })).startupNotRun).toEqual(['run_tests']);
  const request = { bugId: 'textkit-1', preset: 'repairagent', overrides: { startup: [], budgets: { maxSteps: 1 } } };
  const preview = await engine.previewPrompt(request);
  expect(preview.startupNotRun).toEqual([]);
  expect(preview.messages).toEqual(await firstRecordedPrompt(request, '{"command": {"name": "read_range", "args": {}}}'));
  // another state offers other tools, and its prompt says so
  const other = preview.states.find((s) => s !== preview.state)!;
  const inOther = await engine.previewPrompt({ ...request, state: other });
  expect(inOther.state).toBe(other);
  expect(inOther.tools).not.toEqual(preview.tools);
  expect(inOther.messages).not.toEqual(preview.messages);
});

it('refuses an edit with a key the schema does not have, naming it', async () => {
  await expect(engine.previewPrompt({ bugId: 'textkit-1', preset: 'hafixagent', overrides: { budgets: { maxStepz: 3 } } })).rejects.toThrow(/budgets\.maxStepz — did you mean maxSteps/);
});
