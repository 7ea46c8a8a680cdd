// Forking a saved run at step k, end to end: a RepairAgent run of textkit-1 whose model is the demo recording over
// HTTP (the cassette server, through the openai SDK), the real repository store, and the real runner (javac + JUnit in
// bubblewrap). The fork replays the parent's first k replies from its record, running the same tools against a fresh
// workspace, then its own model — hand-written replies served over HTTP — takes over.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCassette, type Cassette } from '../../../worker/contracts/cassette.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { comparableStep } from '../../../worker/records/cassette-from-trajectory.ts';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import type { ModelSettings, RunnerSettings } from '../../../worker/contracts/run-settings.ts';
import { describeFork } from '../../../worker/cli/fork-flags.ts';
import { useTestRunner } from '../runner/helpers.ts';

const testRunner = useTestRunner();
const home = mkdtempSync(join(tmpdir(), 'repairlab-fork-'));
const cassette: Cassette = parseCassette(JSON.parse(readFileSync(new URL('../../../public/cassettes/textkit-1.repairagent.fix.cassette.json', import.meta.url), 'utf8')));
const recordedReply = (call: number) => cassette.calls[call - 1]!.response.content;

/** a reply the recording never gives: read more of the file instead of writing the fix at step 4 */
const READ_MORE = JSON.stringify({
  thoughts: 'Before fixing, read the whole method once more.',
  command: { name: 'read_range', args: { filepath: 'src/main/java/org/repairlab/textkit/Strings.java', startline: 50, endline: 64 } },
});

let recording: CassetteServer;
let runs: RunManager;
let runner: RunnerSettings;
let parent: Trajectory;
const servers: CassetteServer[] = [];

/** hand-written replies over real HTTP (the cassette server's list mode): the fork's own model */
async function scriptedOverHttp(replies: string[]): Promise<{ server: CassetteServer; model: ModelSettings }> {
  const server = await startCassetteServer({ replies, model: 'fork-scripted' });
  servers.push(server);
  return { server, model: { kind: 'openai', baseURL: server.baseURL, model: 'fork-scripted' } };
}

beforeAll(async () => {
  recording = await startCassetteServer({ cassette });
  runs = new RunManager(new Engine(createNodePlatform({ root: home })), initJavaForNode);
  runner = { url: testRunner.runner.url, token: testRunner.runner.token };
  const [t] = await runs.start({ bugId: 'textkit-1', preset: 'repairagent', model: { kind: 'openai', baseURL: recording.baseURL, model: cassette.model }, runner }, () => undefined);
  parent = t!;
}, 240_000);

afterAll(async () => {
  await Promise.all([recording, ...servers].map((s) => s?.close()));
  rmSync(home, { recursive: true, force: true });
});

describe('fork a saved run at step k', () => {
  it('the parent is the five-step recorded repair', () => {
    expect(parent.steps).toHaveLength(5);
    expect(parent.outcome?.status).toBe('plausible');
  });

  it('replays steps 1–3 byte for byte, then the new model takes over and the run diverges', { timeout: 240_000 }, async () => {
    const { server, model } = await scriptedOverHttp([READ_MORE, recordedReply(4), recordedReply(5)]);
    const events: string[] = [];
    const fork = await runs.forkRun({ runId: parent.runId, atStep: 3, model, runner }, (e) => events.push(e.type));

    // steps 1–3: the same prompts (messages and hash), replies, parses, tool calls, observations, tokens and costs
    expect(fork.steps.slice(0, 3).map(comparableStep)).toEqual(parent.steps.slice(0, 3).map(comparableStep));
    for (const s of fork.steps.slice(0, 3)) expect(s.response?.meta?.forkReplay).toEqual({ runId: parent.runId, step: s.index + 1 });
    // step 4: the same prompt (the workspace and the conversation are the parent's), the new model's reply
    expect(fork.steps[3]!.prompt).toEqual(parent.steps[3]!.prompt);
    expect(fork.steps[3]!.response?.content).toBe(READ_MORE);
    expect(parent.steps[3]!.response?.content).not.toBe(READ_MORE);
    expect(fork.steps[3]!.tool?.name).toBe('read_range');
    // the new model was asked from step 4 only, and its later replies fixed the bug
    expect(server.served()).toBe(3);
    expect(fork.steps).toHaveLength(6);
    expect(fork.outcome?.status).toBe('plausible');
    expect(fork.forkOf).toEqual({ runId: parent.runId, step: 3 });
    expect(fork.runId).not.toBe(parent.runId);
    expect(events).toContain('run-finished');
    expect(describeFork(fork)).toBe(`run ${fork.runId}: fork of ${parent.runId} at step 3; steps replayed with identical prompts. plausible — ${fork.outcome?.reason}`);

    // the record says so, and the Runs list names the parent
    expect((await runs.get(fork.runId))?.forkOf).toEqual({ runId: parent.runId, step: 3 });
    expect((await runs.list()).find((r) => r.runId === fork.runId)?.forkOf).toEqual({ runId: parent.runId, step: 3 });
    expect((await runs.list()).find((r) => r.runId === parent.runId)?.forkOf).toBeUndefined();
  });

  it('a strategy edit that changes the replayed prompts is recorded at its step; the recorded replies and the workspace are the parent’s', { timeout: 240_000 }, async () => {
    const system = (parent.config.strategy as { prompt: { system: string } }).prompt.system;
    const { model } = await scriptedOverHttp([recordedReply(5)]);
    const fork = await runs.forkRun({ runId: parent.runId, atStep: 4, overrides: { prompt: { system: `${system}\nKeep every thought to one sentence.` } }, model, runner }, () => undefined);

    expect(fork.forkOf?.step).toBe(4);
    expect(fork.forkOf?.promptDiverged?.step).toBe(1);
    expect(fork.forkOf?.promptDiverged?.message).toMatch(/step 1 differs from run .*message #0 \(system\)/);
    expect(fork.steps[0]!.prompt.messages[0]!.content).toContain('Keep every thought to one sentence.');
    expect(fork.steps[0]!.response?.meta?.diverged).toBe(true);
    expect(describeFork(fork)).toContain(`fork of ${parent.runId} at step 4; the prompt diverged at step 1 (the recorded reply was used)`);
    // the recorded replies all the same, so the same tools ran: step 4's write_fix left the parent's workspace
    expect(fork.steps.slice(0, 4).map((s) => s.response?.content)).toEqual(parent.steps.slice(0, 4).map((s) => s.response?.content));
    expect(fork.steps.slice(0, 4).map((s) => s.overlayChange)).toEqual(parent.steps.slice(0, 4).map((s) => s.overlayChange));
    expect(fork.config.overrides).toEqual({ prompt: { system: `${system}\nKeep every thought to one sentence.` } });
    expect(fork.outcome?.status).toBe('plausible');
    expect(fork.outcome?.finalPatch).toBe(parent.outcome?.finalPatch);
  });

  it('a fork interrupted during its replay is continued: the rest of the replay, then its own model from its first reply', { timeout: 240_000 }, async () => {
    const replies = [READ_MORE, recordedReply(4), recordedReply(5)];
    const { model } = await scriptedOverHttp(replies);
    let forkId = '';
    // pause after step 2 (the loop saves the run as paused), then leave that engine as a reload would
    const first = runs.forkRun({ runId: parent.runId, atStep: 3, model, runner }, (e) => {
      if (e.type === 'run-started') forkId = e.runId;
      if (e.type === 'step' && (e.step as { index: number }).index === 1) void runs.pause(forkId);
    });
    void first;
    while ((await runs.get(forkId).catch(() => undefined))?.status !== 'paused') await new Promise((r) => setTimeout(r, 50));
    const saved = (await runs.get(forkId))!;
    expect(saved.steps).toHaveLength(2);

    const afterReload = new RunManager(new Engine(createNodePlatform({ root: home })), initJavaForNode);
    const { model: again } = await scriptedOverHttp(replies);
    const fork = await afterReload.continueRun(forkId, { model: again, runner }, () => undefined);
    expect(fork.runId).toBe(forkId);
    expect(fork.steps.slice(0, 3).map(comparableStep)).toEqual(parent.steps.slice(0, 3).map(comparableStep));
    expect(fork.steps[3]!.response?.content).toBe(READ_MORE);
    expect(fork.forkOf).toEqual({ runId: parent.runId, step: 3 });
    expect(fork.outcome?.status).toBe('plausible');
  });

  it('refuses bad input with an error naming it, before any run starts', async () => {
    const model: ModelSettings = { kind: 'scripted', replies: [] };
    const before = (await runs.list()).length;
    await expect(runs.forkRun({ runId: 'run-nope', atStep: 1, model, runner }, () => undefined)).rejects.toThrow(/There is no saved run run-nope to fork/);
    await expect(runs.forkRun({ runId: parent.runId, atStep: 6, model, runner }, () => undefined)).rejects.toThrow(new RegExp(`Run ${parent.runId} has 5 steps: it cannot be forked at step 6; give a step from 1 to 5`));
    await expect(runs.forkRun({ runId: parent.runId, atStep: 0, model, runner }, () => undefined)).rejects.toThrow(/Fork step 0: give a whole number from 1 to 5/);
    await expect(runs.forkRun({ runId: parent.runId, atStep: 2, overrides: { budgets: { nope: 1 } }, model, runner }, () => undefined)).rejects.toThrow(/overrides/);
    expect((await runs.list()).length).toBe(before);

    // a run whose model never answered has no reply to replay
    const [silent] = await runs.start({ bugId: 'textkit-1', preset: 'oneshot', model: { kind: 'scripted', replies: [] }, runner }, () => undefined);
    expect(silent!.steps[0]!.response).toBeUndefined();
    await expect(runs.forkRun({ runId: silent!.runId, atStep: 1, model, runner }, () => undefined)).rejects.toThrow(new RegExp(`Run ${silent!.runId} has no recorded model reply at step 1`));
  });
});
