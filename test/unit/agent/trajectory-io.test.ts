// Export/import of trajectories, and conversion of mini-swe-agent and SWE-agent files for viewing.
import { describe, expect, it } from 'vitest';
import { exportTrajectory, importTrajectoryFile } from '../../../worker/records/trajectory-io.ts';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF } from './fixtures.ts';
import { MINI_SWE_AGENT_SAMPLE } from '../../helpers/trajectory-samples.ts';

describe('trajectory files', () => {
  it('exports and imports a RepairLab trajectory unchanged', async () => {
    const t = await runAgent({ strategy: resolveStrategy('oneshot'), bug: demoBug, workspace: demoWorkspace(), validator: new FakeValidator(), llm: createScriptedProvider([fence(GOOD_DIFF)]), tools: [applyPatchTool] });
    const text = exportTrajectory(t);
    const back = importTrajectoryFile(text, 'run.json');
    expect(back.format).toBe('repairlab');
    expect(back.trajectory).toEqual(JSON.parse(JSON.stringify(t)));
  });

  it('converts a mini-swe-agent trajectory: one step per assistant message', () => {
    const { format, trajectory } = importTrajectoryFile(JSON.stringify(MINI_SWE_AGENT_SAMPLE), 'django-1.traj.json');
    expect(format).toBe('mini-swe-agent');
    expect(trajectory.steps).toHaveLength(2);
    expect(trajectory.steps[0]!.prompt.messages.map((m) => m.content)).toEqual(['sys', 'task']);
    expect(trajectory.steps[0]!.parsed?.command).toEqual({ name: 'bash', args: { command: 'ls -la' } });
    expect(trajectory.steps[0]!.feedback).toContain('<returncode>0</returncode>');
    expect(trajectory.steps[1]!.status).toBe('format-error');
    expect(trajectory.outcome).toMatchObject({ status: 'unknown', finalPatch: 'diff --git a/x b/x\n', plausible: null, totals: { costUsd: 0.12 } });
    expect(trajectory.imported?.format).toBe('mini-swe-agent');
  });

  it('converts a SWE-agent .traj', () => {
    const file = {
      trajectory: [
        { response: 'I will open it', thought: 'open the file', action: 'open src/a.py', observation: '[File: src/a.py]', execution_time: 0.5, query: [{ role: 'system', content: 's' }] },
        { response: 'submit', thought: '', action: 'submit', observation: 'diff', execution_time: 0.1 },
      ],
      info: { exit_status: 'submitted', submission: 'diff' },
    };
    const { format, trajectory } = importTrajectoryFile(JSON.stringify(file), 'x.traj');
    expect(format).toBe('swe-agent');
    expect(trajectory.steps.map((s) => s.parsed?.command?.name)).toEqual(['open', 'submit']);
    expect(trajectory.steps[0]!.latencyMs.tool).toBe(500);
    expect(trajectory.steps[0]!.prompt.messages).toEqual([{ role: 'system', content: 's' }]);
  });

  it('refuses other files with a message naming the file', () => {
    expect(() => importTrajectoryFile('nope', 'a.txt')).toThrow(/a.txt is not JSON/);
    expect(() => importTrajectoryFile('{"x":1}', 'b.json')).toThrow(/b.json is JSON but not a trajectory RepairLab knows/);
    expect(() => importTrajectoryFile('{"kind":"repairlab-trajectory","schemaVersion":1}', 'c.json')).toThrow(/c.json is not a RepairLab trajectory/);
  });
});
