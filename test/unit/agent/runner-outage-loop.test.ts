// The loop's side of a runner outage, against a real HTTP client and a real port on 127.0.0.1 that refuses
// connections (nothing listens there): the user's stop and the wall-time budget end the wait, the run then ends as
// stopped / out of budget — never with the outage shown to the model as the tool's result — and the outage is on
// record, unresolved, with the reply whose tool call could not finish.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { RunControl } from '../../../worker/agent/run-control.ts';
import { RunnerClient, runnerValidator } from '../../../worker/runner-client/client.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { demoBug, demoWorkspace, fence, GOOD_DIFF } from './fixtures.ts';

/** a port on 127.0.0.1 that was just free: connections to it are refused */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function runAgainstDeadRunner(over: Record<string, unknown>, onWaiting: (stop: () => void) => void) {
  const port = await refusingPort();
  const client = new RunnerClient({ url: `http://127.0.0.1:${port}`, token: 't', retries: 0 });
  const control = new RunControl();
  const abort = new AbortController();
  const records: Trajectory[] = [];
  const events: string[] = [];
  const ws = demoWorkspace();
  const traj = await runAgent({
    strategy: resolveStrategy('oneshot', { overrides: over }),
    bug: demoBug,
    workspace: ws,
    validator: runnerValidator(client, demoBug.layout),
    llm: createScriptedProvider([fence(GOOD_DIFF)]),
    tools: [applyPatchTool],
    control,
    signal: abort.signal,
    recheck: false,
    // many retries, long delays: only the stop or the budget can end this wait
    runnerWait: { maxRetries: 1000, firstDelayMs: 60_000, maxDelayMs: 60_000 },
    record: async (t) => {
      records.push(structuredClone(t));
    },
    onEvent: (e) => {
      events.push(e.type);
      if (e.type === 'waiting-for-runner') onWaiting(() => {
        // what RunManager.stop does: end the run after the step, and cancel what is in flight
        control.stop();
        abort.abort();
      });
    },
  });
  return { traj, records, events, ws };
}

describe('a wait for the runner', () => {
  it('ends when the user stops the run: stopped, the outage recorded unresolved, nothing shown to the model', async () => {
    const { traj, records, events, ws } = await runAgainstDeadRunner({}, (stop) => stop());
    expect(events).toContain('waiting-for-runner');
    expect(traj.outcome?.status).toBe('stopped');
    expect(traj.steps).toHaveLength(0);
    expect(traj.runnerOutages).toHaveLength(1);
    expect(traj.runnerOutages![0]).toMatchObject({ phase: 'step', stepIndex: 0, resolved: false, lastError: { code: 'unreachable' } });
    expect(traj.runnerOutages![0]!.abandonedStep?.reply).toContain('return hi;');
    // the patch the abandoned step applied is not left in the workspace
    expect(ws.overlay()).toEqual({});
    // while it waited, the record said so
    expect(records.some((r) => r.status === 'waiting-for-runner')).toBe(true);
  });

  it('ends at the wall-time budget: out of budget, not an error of the agent', async () => {
    const { traj } = await runAgainstDeadRunner({ budgets: { maxWallMs: 1500 } }, () => undefined);
    expect(traj.outcome?.status).toBe('implausible');
    expect(traj.outcome?.reason).toMatch(/wall-time budget reached .* while waiting for the runner/);
    expect(traj.steps).toHaveLength(0);
    expect(traj.runnerOutages?.[0]?.resolved).toBe(false);
  });
});
