// Trajectory files imported AND stored (worker/records/trajectory-import.ts): a mini-swe-agent or SWE-agent file becomes a
// run in the real record store (JSON files under a temporary home), listed by the real RunManager beside RepairLab's
// own runs, loadable for viewing and comparing, and marked as imported with its source format.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { importTrajectoryAsRun } from '../../../worker/records/trajectory-import.ts';
import { exportTrajectory } from '../../../worker/records/trajectory-io.ts';
import { MINI_SWE_AGENT_SAMPLE } from '../../helpers/trajectory-samples.ts';

const SWE_AGENT_SAMPLE = {
  trajectory: [
    { response: 'open it', thought: 'look at the file', action: 'open src/x.py', observation: '1: import os', execution_time: 0.5, query: [{ role: 'system', content: 's' }] },
    { response: 'submit', thought: '', action: 'submit', observation: 'diff', execution_time: 0.1 },
  ],
  info: { exit_status: 'submitted', submission: 'diff --git a/y b/y\n', instance_id: 'astropy__astropy-12907' },
};

let engine: Engine;
let runs: RunManager;
beforeEach(() => {
  engine = new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-traj-import-')) }));
  runs = new RunManager(engine, async () => undefined);
});

describe('importing a trajectory file stores it as a run', () => {
  it('a mini-swe-agent file (format 1.1) appears in the Runs list, marked imported, and loads with its steps', async () => {
    const { format, trajectory, stored } = await importTrajectoryAsRun(engine.platform.records, JSON.stringify(MINI_SWE_AGENT_SAMPLE), 'django-1.traj.json');
    expect([format, stored]).toEqual(['mini-swe-agent', true]);
    expect(trajectory.runId).toMatch(/^imported-mini-swe-agent-[0-9a-f]{16}$/);
    const listed = await runs.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ runId: trajectory.runId, preset: 'imported:mini-swe-agent', model: 'gpt-4o', steps: 2, status: 'unknown', costUsd: 0.12, interrupted: false });
    const loaded = await runs.get(trajectory.runId);
    expect(loaded?.imported).toEqual({ format: 'mini-swe-agent', file: 'django-1.traj.json', info: MINI_SWE_AGENT_SAMPLE.info });
    expect(loaded?.steps.map((s) => s.parsed?.command?.args)).toEqual([{ command: 'ls -la' }, undefined]);
    expect(loaded?.outcome?.finalPatch).toBe('diff --git a/x b/x\n');
  });

  it('a SWE-agent file is stored too, under its instance id', async () => {
    const { format, trajectory } = await importTrajectoryAsRun(engine.platform.records, JSON.stringify(SWE_AGENT_SAMPLE), 'astropy.traj');
    expect(format).toBe('swe-agent');
    expect(await runs.list()).toMatchObject([{ runId: trajectory.runId, bugId: 'astropy__astropy-12907', preset: 'imported:swe-agent', steps: 2 }]);
    expect((await runs.get(trajectory.runId))?.imported?.format).toBe('swe-agent');
  });

  it('the run id comes from the content: the same file twice is one run, another file of the same name a second', async () => {
    const text = JSON.stringify(MINI_SWE_AGENT_SAMPLE);
    const a = await importTrajectoryAsRun(engine.platform.records, text, 'run.traj.json');
    const again = await importTrajectoryAsRun(engine.platform.records, text, 'run.traj.json');
    expect(again.trajectory.runId).toBe(a.trajectory.runId);
    const other = await importTrajectoryAsRun(engine.platform.records, JSON.stringify({ ...MINI_SWE_AGENT_SAMPLE, messages: MINI_SWE_AGENT_SAMPLE.messages.slice(0, 4) }), 'run.traj.json');
    expect(other.trajectory.runId).not.toBe(a.trajectory.runId);
    expect((await runs.list()).map((r) => r.steps).sort()).toEqual([1, 2]);
  });

  it('a RepairLab trajectory file is stored under its run id, and never overwrites a stored run', async () => {
    const { trajectory } = await importTrajectoryAsRun(engine.platform.records, JSON.stringify(MINI_SWE_AGENT_SAMPLE), 'm.traj.json');
    const exported = JSON.parse(exportTrajectory(trajectory)) as typeof trajectory;
    const fresh = new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-traj-import-')) }));
    const first = await importTrajectoryAsRun(fresh.platform.records, JSON.stringify(exported), 'x.trajectory.json');
    expect([first.format, first.stored]).toEqual(['repairlab', true]);
    expect((await new RunManager(fresh, async () => undefined).list()).map((r) => r.runId)).toEqual([trajectory.runId]);
    const changed = { ...exported, steps: exported.steps.slice(0, 1) };
    const second = await importTrajectoryAsRun(fresh.platform.records, JSON.stringify(changed), 'x.trajectory.json');
    expect(second.stored).toBe(false);
    expect((await new RunManager(fresh, async () => undefined).get(trajectory.runId))?.steps).toHaveLength(2);
  });

  it("no key in the file's config reaches the record store: key-named fields and key-shaped values are redacted", async () => {
    const canary = 'sk-canary0123456789abcdef';
    const info = { ...MINI_SWE_AGENT_SAMPLE.info, config: { model: { model_name: 'gpt-4o', model_kwargs: { api_key: 'plain-secret-value', temperature: 0 }, headers: [`Bearer ${canary}`, canary] } } };
    const { trajectory } = await importTrajectoryAsRun(engine.platform.records, JSON.stringify({ ...MINI_SWE_AGENT_SAMPLE, info }), 'keyed.traj.json');
    const records = engine.platform.records;
    const stored = JSON.stringify([
      ...(await Promise.all((await records.list('trajectories')).map((id) => records.get('trajectories', id)))),
      ...(await Promise.all((await records.list('trajectory-steps')).map((id) => records.get('trajectory-steps', id)))),
    ]);
    expect(stored).not.toContain(canary);
    expect(stored).not.toContain('plain-secret-value');
    const config = (await runs.get(trajectory.runId))?.imported?.info.config as { model: { headers: string[] } };
    expect(config).toMatchObject({ model: { model_name: 'gpt-4o', model_kwargs: { api_key: '[redacted]', temperature: 0 } } });
    expect(config.model.headers[0]).toMatch(/^Bearer \[redacted/);
    expect(config.model.headers[1]).toBe('[redacted]');
  });

  it('a file that is no trajectory is named and nothing is stored', async () => {
    await expect(importTrajectoryAsRun(engine.platform.records, '{"x": 1}', 'notes.json')).rejects.toThrow('notes.json is JSON but not a trajectory RepairLab knows');
    expect(await runs.list()).toEqual([]);
  });
});
