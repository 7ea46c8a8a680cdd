// The fork's plain-data helpers: the fork panel's strategy edit as ForkRequest fields (bad JSON named), the Runs
// list's "fork of …" cell (and its text filter), and the CLI's `fork <runId> --at k --overrides …` flags.
import { describe, expect, it } from 'vitest';
import { describeForkModel, forkEdit } from '../../../src/components/fork-panel/fork-choices.ts';
import { cellText, filterRuns } from '../../../src/components/runs-view/run-rows.ts';
import { forkRequestFromFlags } from '../../../worker/cli/fork-flags.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';

const run = (runId: string, forkOf?: RunSummary['forkOf']): RunSummary => ({
  runId,
  bugId: 'textkit-1',
  preset: 'repairagent',
  variants: [],
  overrides: { budgets: { maxSteps: 9 } },
  model: 'human',
  costUsd: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  steps: 5,
  status: 'stopped',
  reason: '',
  interrupted: false,
  ...(forkOf ? { forkOf } : {}),
});

describe('fork panel choices', () => {
  it('turns the strategy edit into the request fields: none, a saved variant, JSON overrides', () => {
    expect(forkEdit({ kind: 'none' })).toEqual({});
    expect(forkEdit({ kind: 'variant', variant: { name: 'short', preset: 'oneshot', overrides: { budgets: { maxSteps: 2 } }, savedAt: '' } })).toEqual({
      strategy: { preset: 'oneshot', overrides: { budgets: { maxSteps: 2 } } },
    });
    expect(forkEdit({ kind: 'overrides', text: ' {"budgets": {"maxSteps": 3}} ' })).toEqual({ overrides: { budgets: { maxSteps: 3 } } });
  });

  it('names what is wrong with the overrides typed', () => {
    expect(() => forkEdit({ kind: 'overrides', text: '' })).toThrow(/Fork overrides: write a JSON object/);
    expect(() => forkEdit({ kind: 'overrides', text: '{budgets' })).toThrow(/Fork overrides: not valid JSON/);
    expect(() => forkEdit({ kind: 'overrides', text: '[1]' })).toThrow(/Fork overrides: write a JSON object/);
  });

  it('says which model goes on', () => {
    expect(describeForkModel({ kind: 'human' })).toBe('you play the model');
    expect(describeForkModel({ kind: 'openai', baseURL: 'http://127.0.0.1:1/v1', model: 'm' })).toBe('m at http://127.0.0.1:1/v1');
  });
});

describe('the Runs list names a fork’s parent', () => {
  it('in the variants / overrides cell, which the text filter searches', () => {
    const fork = run('run-b', { runId: 'run-a', step: 3 });
    expect(cellText(fork, 'config')).toBe('fork of run-a at step 3 · budgets.maxSteps=9');
    expect(cellText(run('run-a'), 'config')).toBe('budgets.maxSteps=9');
    expect(filterRuns([run('run-a'), fork], { text: 'fork of run-a', status: '', preset: '' }).map((r) => r.runId)).toEqual(['run-b']);
  });
});

describe('repairlab fork flags', () => {
  it('reads --at and --overrides', () => {
    expect(forkRequestFromFlags('run-a', { at: '3' })).toEqual({ runId: 'run-a', atStep: 3 });
    expect(forkRequestFromFlags('run-a', { at: '2', overrides: '{"budgets":{"maxSteps":4}}' })).toEqual({ runId: 'run-a', atStep: 2, overrides: { budgets: { maxSteps: 4 } } });
  });

  it('refuses a bad step or bad overrides, naming the flag', () => {
    for (const at of ['0', '-1', '2.5', 'three', '']) expect(() => forkRequestFromFlags('run-a', { at })).toThrow(/--at .*give the number of steps to replay/);
    expect(() => forkRequestFromFlags('run-a', { at: '1', overrides: '{' })).toThrow(/--overrides: not JSON/);
    expect(() => forkRequestFromFlags('run-a', { at: '1', overrides: '"x"' })).toThrow(/--overrides: give a JSON object/);
  });
});
