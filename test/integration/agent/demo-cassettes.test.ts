// The shipped demo cassettes replayed end to end: real repository store (bundle import), the openai SDK
// over HTTP (streaming) against the cassette server, and the real runner compiling and testing the patch.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPublicBug } from '../../../worker/contracts/bug.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/agent/presets/index.ts';
import { toolsForStrategy } from '../../../worker/run-manager.ts';
import { initJavaForNode } from '../../../worker/java/node-wasm.ts';
import { createOpenAiProvider } from '../../../worker/llm/openai-provider.ts';
import { startCassetteServer } from '../../../worker/llm/cassette-server.ts';
import { Engine } from '../../../worker/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunnerClient, runnerValidator } from '../../../worker/runner-client/client.ts';
import { startRunner } from '../../../runner/src/index.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-agent-demo-'));
let runner: Awaited<ReturnType<typeof startRunner>>;
let engine: Engine;

beforeAll(async () => {
  runner = await startRunner({ port: 0 });
  engine = new Engine(createNodePlatform({ root: home }));
});
afterAll(async () => {
  await runner?.close();
  rmSync(home, { recursive: true, force: true });
});

function cassetteFile(name: string) {
  return parseCassette(JSON.parse(readFileSync(new URL(`../../../public/cassettes/${name}`, import.meta.url), 'utf8')), name);
}

async function replay(name: string) {
  const cassette = cassetteFile(name);
  const server = await startCassetteServer({ cassette });
  try {
    const { bug, workspace } = await engine.workspaceFor(cassette.provenance.bugId!);
    const strategy = resolveStrategy(cassette.provenance.preset!, { overrides: cassette.provenance.overrides });
    if (strategy.toolkit === 'repairagent' || strategy.toolkit === 'hafixagent') await initJavaForNode();
    return await runAgent({
      strategy,
      bug: toPublicBug(bug),
      workspace,
      validator: runnerValidator(new RunnerClient({ url: runner.url, token: runner.token }), bug.layout),
      llm: createOpenAiProvider({ baseURL: server.baseURL, model: cassette.model }),
      tools: toolsForStrategy(strategy),
      groundTruthPatch: bug.groundTruth.patch,
    });
  } finally {
    await server.close();
  }
}

describe('demo cassettes on textkit-1', () => {
  it('the fix cassette ends plausible, re-checked, matching the ground truth', async () => {
    const t = await replay('textkit-1.oneshot.fix.cassette.json');
    expect(t.outcome?.status).toBe('plausible');
    expect(t.outcome?.recheck?.plausible).toBe(true);
    expect(t.outcome?.exactMatch).toBe(true);
    expect(t.outcome?.finalPatch).toContain('+        if (s.length() <= maxLength) {');
  });

  it('the wrong-patch cassette is rejected by the runner with the failing test named', async () => {
    const t = await replay('textkit-1.oneshot.wrong.cassette.json');
    expect(t.outcome?.status).toBe('implausible');
    expect(t.steps[0]!.verdict?.failingTests).toContain('org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly');
    expect(t.steps[0]!.feedback).toContain('org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly');
    expect(t.outcome?.exactMatch).toBe(false);
  });

  it.each([
    ['textkit-1.repairagent.fix.cassette.json', ['extract_tests', 'express_hypothesis', 'read_range', 'write_fix', 'goal_accomplished']],
    ['textkit-1.hafixagent.fix.cassette.json', ['bash', 'bash', 'bash', 'bash', 'bash']],
    ['textkit-1.passerine.fix.cassette.json', ['cat', 'edit', 'test', 'finish']],
  ])('%s replays step for step to a plausible patch that matches the ground truth', async (file, tools) => {
    const t = await replay(file);
    expect(t.steps.map((s) => s.error?.message ?? s.tool?.name)).toEqual(tools);
    expect(t.outcome?.status).toBe('plausible');
    expect(t.outcome?.exactMatch).toBe(true);
    expect(t.outcome?.reason).toMatch(/finished|completion|final state/);
  });

  it('the index lists every shipped cassette with its expected outcome', () => {
    const index = JSON.parse(readFileSync(new URL('../../../public/cassettes/index.json', import.meta.url), 'utf8')) as { cassettes: { file: string; expected: string }[] };
    expect(index.cassettes.map((c) => c.file).sort()).toEqual([
      'textkit-1.hafixagent.fix.cassette.json',
      'textkit-1.oneshot.fix.cassette.json',
      'textkit-1.oneshot.format-error.cassette.json',
      'textkit-1.oneshot.wrong.cassette.json',
      'textkit-1.passerine.fix.cassette.json',
      'textkit-1.repairagent.fix.cassette.json',
    ]);
  });

  it('the format-error cassette feeds the error back and then fixes the bug', async () => {
    const t = await replay('textkit-1.oneshot.format-error.cassette.json');
    expect(t.steps.map((s) => s.status)).toEqual(['format-error', 'ok']);
    expect(t.outcome?.status).toBe('plausible');
  });
});
