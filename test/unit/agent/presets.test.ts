// Each preset's transitions and tool gating, its prompt, and its ablations — through the real loop with
// the scripted provider, fake tools (real definitions) and the fake workspace/validator.
import { describe, expect, it } from 'vitest';
import { runAgent, type RunAgentOptions } from '../../../worker/agent/loop.ts';
import { listPresets, resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { historyRequest } from '../../../worker/history/run-context.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import type { CompletionRequest, LlmProvider } from '../../../worker/contracts/llm.ts';
import { demoBug, demoWorkspace, FakeValidator, SRC } from './fixtures.ts';
import { fakeToolkit } from './fake-tools.ts';

const cmd = (name: string, args: Record<string, unknown> = {}, thoughts = 'next') => JSON.stringify({ thoughts, command: { name, args } });

function capture(replies: string[]): LlmProvider & { requests: CompletionRequest[] } {
  const inner = createScriptedProvider(replies);
  const requests: CompletionRequest[] = [];
  return { id: 'scripted', requests, complete: (r) => (requests.push(r), inner.complete(r)) };
}

async function run(preset: string, replies: string[], opts: { variants?: string[]; overrides?: Record<string, unknown>; plausibleFixes?: number[]; context?: Record<string, unknown>; output?: (n: string, a: Record<string, unknown>) => string } = {}) {
  const strategy = resolveStrategy(preset, { variants: opts.variants, overrides: opts.overrides });
  const kit = fakeToolkit(strategy.toolkit as 'repairagent', { plausibleFixes: opts.plausibleFixes, output: opts.output });
  const llm = capture(replies);
  const runOpts: RunAgentOptions = { strategy, bug: demoBug, workspace: demoWorkspace(), validator: new FakeValidator(), llm, tools: kit.tools, recheck: false, context: opts.context };
  const traj = await runAgent(runOpts);
  return { traj, calls: kit.calls, llm };
}

describe('preset list', () => {
  it('lists the three agents, one-shot, and their ablations', () => {
    const presets = listPresets();
    expect(presets.map((p) => p.id).sort()).toEqual(['hafixagent', 'oneshot', 'passerine', 'repairagent']);
    const ra = presets.find((p) => p.id === 'repairagent')!;
    expect(ra.variants.map((v) => v.id)).toEqual(expect.arrayContaining(['no-search-tools', 'no-state-machine', 'single-cycle-memory', 'realistic-fl', 'stop-rules', 'enforced-states', 'write-fix-variants']));
    expect(() => resolveStrategy('repairagent', { variants: ['nope'] })).toThrow(/no variant "nope"/);
    expect(() => resolveStrategy('nope')).toThrow(/unknown preset "nope"/);
    expect(() => resolveStrategy('oneshot', { overrides: { startState: 'ghost' } })).toThrow(/unknown state\(s\) ghost/);
  });

  it('carries the papers\' budgets and sampling', () => {
    expect(resolveStrategy('repairagent').budgets.maxSteps).toBe(40);
    const h = resolveStrategy('hafixagent');
    expect([h.budgets.maxSteps, h.budgets.maxCostUsd, h.budgets.maxWallMs]).toEqual([50, 1, 3_600_000]);
    expect(h.observation).toEqual({ maxChars: 15000, head: 7500, tail: 7500 });
    const p = resolveStrategy('passerine');
    expect([p.budgets.maxSteps, p.sampling.temperature, p.sampling.topP, p.sampling.trajectories]).toEqual([25, 0.2, 0.95, 20]);
  });
});

describe('repairagent', () => {
  const S1 = 'collect information to understand the bug';
  const S2 = 'collect information to fix the bug';
  const S3 = 'trying out candidate fixes';

  it('moves S1 → S2 → S3 → S1 … → done on the paper\'s transitions', async () => {
    const { traj, calls } = await run('repairagent', [
      cmd('extract_tests', { test_file_path: 'src/test/java/org/demo/ClampTest.java' }),
      cmd('express_hypothesis', { hypothesis: 'upper bound off by one' }),
      cmd('write_fix', { changes: [] }),
      cmd('discard_hypothesis', { reason: 'wrong line' }),
      cmd('express_hypothesis', { hypothesis: 'return hi - 1 should be return hi' }),
      cmd('write_fix', { changes: [1] }),
      cmd('goal_accomplished', { reason: 'tests pass' }),
    ], { plausibleFixes: [2] });
    expect(traj.steps.map((s) => [s.state, s.stateAfter])).toEqual([
      [S1, S1], [S1, S2], [S2, S3], [S3, S1], [S1, S2], [S2, S3], [S3, 'done'],
    ]);
    // run_tests runs once before the first cycle (paper §III-D), then the model's commands
    expect(calls.map((c) => c.name)).toEqual(['run_tests', 'extract_tests', 'express_hypothesis', 'write_fix', 'discard_hypothesis', 'express_hypothesis', 'write_fix', 'goal_accomplished']);
    expect(traj.startup.map((s) => s.name)).toEqual(['run_tests']);
    expect(traj.steps[0]!.prompt.messages[1]!.content).toContain('### Test runs\n- run_tests() (before the first cycle):');
    expect(traj.outcome?.reason).toMatch(/the agent finished/);
    // dynamic prompt of the last cycle: state, its tools only, hypotheses marked, fixes tried, cycles left
    const prompt = traj.steps[6]!.prompt.messages[1]!.content;
    expect(prompt).toContain(`## Current state: ${S3}`);
    expect(prompt).toContain('- goal_accomplished(');
    expect(prompt).not.toContain('- search_code_base(');
    expect(prompt).toContain('- [refuted] upper bound off by one');
    expect(prompt).toContain('- [current] return hi - 1 should be return hi');
    expect(prompt).toContain('### Fixes tried');
    expect(prompt).toContain('Cycles used: 6 of 40 (34 left).');
    expect(prompt).toContain('## Last command and result\nwrite_fix');
    expect(traj.steps[0]!.prompt.messages[0]!.content).toContain('Typical fixes: change a comparison operator');
  });

  it('states are advisory by default and enforced as a variant', async () => {
    const advisory = await run('repairagent', [cmd('write_fix', { changes: [] })], { overrides: { budgets: { maxSteps: 1 } } });
    expect(advisory.calls.map((c) => c.name)).toEqual(['run_tests', 'write_fix']);
    expect(advisory.traj.steps[0]!.stateAfter).toBe(S3);
    const enforced = await run('repairagent', [cmd('write_fix', { changes: [] })], { variants: ['enforced-states'], overrides: { budgets: { maxSteps: 1 } } });
    expect(enforced.calls.map((c) => c.name)).toEqual(['run_tests']);
    expect(enforced.traj.steps[0]!.status).toBe('refused');
    expect(enforced.traj.steps[0]!.rectifications[0]).toMatchObject({ kind: 'state-refused', from: 'write_fix' });
    expect(enforced.traj.steps[0]!.feedback).toMatch(/not available in state "collect information to understand the bug"/);
  });

  it('no-state-machine offers every tool in one state; no-search-tools removes the search tools', async () => {
    const flat = await run('repairagent', [cmd('search_code_base', { key_words: ['clamp'] })], { variants: ['no-state-machine', 'enforced-states'], overrides: { budgets: { maxSteps: 1 } } });
    expect(flat.calls.map((c) => c.name)).toEqual(['run_tests', 'search_code_base']);
    const nosearch = resolveStrategy('repairagent', { variants: ['no-search-tools'] });
    expect(nosearch.states.flatMap((s) => s.tools)).not.toContain('search_code_base');
    expect(nosearch.states.flatMap((s) => s.tools)).not.toContain('find_similar_api_calls');
  });

  it('single-cycle memory shows only the last cycle\'s gathered information', async () => {
    const replies = [cmd('read_range', { filepath: SRC, startline: 1, endline: 3 }), cmd('extract_tests', { test_file_path: 'src/test/java/org/demo/ClampTest.java' }), cmd('read_range', { filepath: SRC, startline: 5, endline: 6 })];
    const output = (n: string, a: Record<string, unknown>) => `result of ${n} ${JSON.stringify(a)}`;
    const full = await run('repairagent', replies, { output, overrides: { budgets: { maxSteps: 3 } } });
    const single = await run('repairagent', replies, { output, variants: ['single-cycle-memory'], overrides: { budgets: { maxSteps: 3 } } });
    const lastFull = full.traj.steps[2]!.prompt.messages[1]!.content;
    const lastSingle = single.traj.steps[2]!.prompt.messages[1]!.content;
    expect(lastFull).toContain('read_range(filepath="src/main/java/org/demo/Clamp.java", startline=1, endline=3) (cycle 1)');
    expect(lastSingle).not.toContain('(cycle 1)');
    expect(lastSingle).toContain('(cycle 2)');
  });

  it('lists commands that do not exist as banned', async () => {
    const { traj } = await run('repairagent', [cmd('fix_everything_now', {}), cmd('read_range', { filepath: SRC, startline: 1, endline: 2 })], { overrides: { budgets: { maxSteps: 2 } } });
    expect(traj.steps[0]!.status).toBe('format-error');
    expect(traj.steps[1]!.prompt.messages[1]!.content).toContain('### Commands that do not exist (do not use them)\nfix_everything_now');
  });

  it('realistic-fl hides perfect fault localization from the prompt', async () => {
    const perfect = await run('repairagent', ['{}'], { overrides: { budgets: { maxSteps: 1 } } });
    const ochiai = await run('repairagent', ['{}'], { variants: ['realistic-fl'], overrides: { budgets: { maxSteps: 1 } } });
    expect(perfect.traj.steps[0]!.prompt.messages[1]!.content).toContain(`- ${SRC} line 13 in clamp (modify)`);
    expect(ochiai.traj.steps[0]!.prompt.messages[1]!.content).not.toContain(`${SRC} line 13`);
    expect(ochiai.traj.steps[0]!.prompt.messages[1]!.content).toContain('call run_fault_localization');
  });

  it('write-fix-variants turns on variant sampling in the tool settings', () => {
    expect(resolveStrategy('repairagent').toolSettings.sampleVariants).toBe(false);
    expect(resolveStrategy('repairagent', { variants: ['write-fix-variants'] }).toolSettings).toMatchObject({ sampleVariants: true, variants: 30 });
  });
});

describe('hafixagent', () => {
  it('runs one bash block per reply, injects the history context and ends on the completion sentinel', async () => {
    const { traj, calls } = await run('hafixagent', [
      'THOUGHT: look\n\n```bash\ngrep -n "hi - 1" src/main/java/org/demo/Clamp.java\n```',
      'THOUGHT: done\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```',
    ], { variants: ['fn_pair'], context: { history_context: 'Commit abc (2020-01-01) "Tighten clamp"\n- before: return hi;' } });
    expect(calls.map((c) => c.args.command)).toEqual(['grep -n "hi - 1" src/main/java/org/demo/Clamp.java', 'echo COMPLETE_REPAIR_SIGNAL']);
    expect(traj.outcome?.reason).toMatch(/signalled completion \(COMPLETE_REPAIR_SIGNAL\)|the agent finished/);
    const instance = traj.steps[0]!.prompt.messages[1]!.content;
    expect(instance).toContain('## Historical context (fn_pair)');
    expect(instance).toContain('Tighten clamp');
    expect(instance).toContain(`- ${SRC}, line 13, method clamp, class Clamp (modify)`);
    expect(traj.steps[0]!.prompt.messages[0]!.content).toContain('echo COMPLETE_REPAIR_SIGNAL');
  });

  it('the code variant uses the released sentinel, and history from one blamed line with a history variant', async () => {
    const s = resolveStrategy('hafixagent', { variants: ['code'] });
    expect(s.middleware.completionSentinel).toBe('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
    expect(s.budgets.maxCostUsd).toBe(0.5);
    expect(historyRequest(resolveStrategy('hafixagent', { variants: ['code', 'fn_pair'] }).toolSettings)?.options.mode).toBe('code');
    expect(historyRequest(resolveStrategy('hafixagent', { variants: ['fn_pair'] }).toolSettings)?.options.mode).toBe('paper');
  });

  it('trims long observations to head + tail', async () => {
    const long = 'x'.repeat(10_000) + 'MIDDLE' + 'y'.repeat(10_000);
    const { traj } = await run('hafixagent', ['```bash\ncat big.txt\n```'], { output: () => long, overrides: { budgets: { maxSteps: 1 } } });
    const shown = traj.steps[0]!.tool!.shown;
    expect(shown).not.toContain('MIDDLE');
    expect(shown).toMatch(/characters elided/);
    expect(traj.steps[0]!.tool!.output).toContain('MIDDLE');
  });

  it('has no history section in the non-history configuration', async () => {
    const { traj } = await run('hafixagent', ['```bash\nls\n```'], { overrides: { budgets: { maxSteps: 1 } } });
    expect(traj.steps[0]!.prompt.messages[1]!.content).not.toContain('Historical context');
  });
});

describe('passerine', () => {
  it('parses THOUGHT/ACTION with a multi-line edit, keeps the full history, samples at T=0.2 top_p=0.95', async () => {
    const { traj, calls, llm } = await run('passerine', [
      'THOUGHT: read it\nACTION: cat src/main/java/org/demo/Clamp.java',
      'THOUGHT: fix the bound\nACTION: edit src/main/java/org/demo/Clamp.java 13 13\n            return hi;',
      'THOUGHT: check\nACTION: test',
      'THOUGHT: good\nACTION: finish success',
    ], { plausibleFixes: [1] });
    expect(calls.map((c) => c.name)).toEqual(['cat', 'edit', 'test', 'finish']);
    expect(calls[1]!.args).toEqual({ file: SRC, start: 13, end: 13, replacement: '            return hi;' });
    expect(traj.outcome?.reason).toMatch(/the agent finished \(success\)/);
    expect(llm.requests[3]!.messages).toHaveLength(2 + 3 * 2);
    expect(llm.requests[0]).toMatchObject({ temperature: 0.2, topP: 0.95 });
    expect(traj.steps[2]!.verdict?.plausible).toBe(true);
  });
});
