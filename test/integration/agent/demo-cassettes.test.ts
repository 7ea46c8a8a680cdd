// The shipped demo cassettes replayed end to end: real repository store (bundle import), the openai SDK
// over HTTP (streaming) against the cassette server, and the real runner compiling and testing the patch.
// Every DEMO_CASSETTES entry must replay to its expected outcome, and there is a demo for each bug category.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPublicBug } from '../../../worker/contracts/bug.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { toolsForStrategy } from '../../../worker/strategies/strategy-tools.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { createOpenAiProvider } from '../../../worker/llm/openai-provider.ts';
import { startCassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunnerClient, runnerValidator } from '../../../worker/runner-client/client.ts';
import { startRunner } from '../../../runner/src/index.ts';
import { DEMO_CASSETTES } from '../../../worker/records/demo-cassettes.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';

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

// each cassette is replayed once; the tests below share its trajectory
const replays = new Map<string, Promise<Trajectory>>();
function replay(name: string): Promise<Trajectory> {
  if (!replays.has(name)) replays.set(name, replayOnce(name));
  return replays.get(name)!;
}

async function replayOnce(name: string) {
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

describe('every demo cassette', () => {
  it.each(DEMO_CASSETTES.map((d) => [d.file, d.expected, d] as const))('%s replays through the engine and ends %s', async (file, expected, demo) => {
    const cassette = cassetteFile(file);
    // named for what it is: hand-written replies, recorded for the bug and preset the entry says
    expect(cassette.provenance.source).toBe('hand-authored');
    expect([cassette.provenance.bugId, cassette.provenance.preset, cassette.calls.length]).toEqual([demo.bugId, demo.preset, demo.replies.length]);
    const t = await replay(file);
    expect(t.outcome?.status).toBe(expected);
    if (expected === 'plausible') expect(t.outcome?.recheck?.plausible).toBe(true);
  });

  it('the index lists exactly the DEMO_CASSETTES entries, with what each replays and how it ends', () => {
    const index = JSON.parse(readFileSync(new URL('../../../public/cassettes/index.json', import.meta.url), 'utf8')) as { cassettes: Record<string, unknown>[] };
    expect(index.cassettes).toEqual(
      DEMO_CASSETTES.map((d) => ({ file: d.file, bugId: d.bugId, preset: d.preset, overrides: d.overrides, description: d.description, expected: d.expected, calls: d.replies.length, model: 'repairlab-demo-scripted' })),
    );
  });
});

describe('a plausible demo for a bug of each category', () => {
  const hunks = (patch: string) => patch.split('\n').filter((l) => l.startsWith('@@')).length;
  const files = (patch: string) => patch.split('\n').filter((l) => l.startsWith('diff --git')).length;

  it.each([
    // category, its shape in the final patch: files changed, hunks
    ['SL', 1, 1],
    ['SH', 1, 1],
    ['SFMH', 1, 2],
    ['MFMH', 2, 2],
  ] as const)('%s: a demo repairs a bug of that category with the ground-truth patch', async (category, fileCount, hunkCount) => {
    const demos: string[] = [];
    for (const d of DEMO_CASSETTES.filter((d) => d.expected === 'plausible')) {
      if ((await engine.workspaceFor(d.bugId)).bug.category === category) demos.push(d.file);
    }
    expect(demos, `no plausible demo in DEMO_CASSETTES for a ${category} bug`).not.toEqual([]);
    const t = await replay(demos[0]!);
    expect(t.outcome?.status).toBe('plausible');
    expect(t.outcome?.exactMatch).toBe(true);
    expect([files(t.outcome!.finalPatch), hunks(t.outcome!.finalPatch)]).toEqual([fileCount, hunkCount]);
  });
});

describe('the demo cassettes in detail', () => {
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
    ['textkit-3.hafixagent.fix.cassette.json', ['bash', 'bash', 'bash', 'bash', 'bash']],
    ['numkit-3.hafixagent.fix.cassette.json', ['bash', 'bash', 'bash', 'bash', 'bash']],
    ['textkit-4.hafixagent.fix.cassette.json', ['bash', 'bash', 'bash', 'bash']],
  ])('%s replays step for step to a plausible patch that matches the ground truth', async (file, tools) => {
    const t = await replay(file);
    expect(t.steps.map((s) => s.error?.message ?? s.tool?.name)).toEqual(tools);
    expect(t.outcome?.status).toBe('plausible');
    expect(t.outcome?.exactMatch).toBe(true);
    expect(t.outcome?.reason).toMatch(/finished|completion|final state/);
  });

  it('the format-error cassette feeds the error back and then fixes the bug', async () => {
    const t = await replay('textkit-1.oneshot.format-error.cassette.json');
    expect(t.steps.map((s) => s.status)).toEqual(['format-error', 'ok']);
    expect(t.outcome?.status).toBe('plausible');
  });
});
