// Replaying a bundle: every counted run of its cells again, through the replay provider with its own cassette (no
// key, no model), on a real runner, and compared with the recorded run — outcome and every step, leaving out only
// what legitimately differs between two runs (times, latencies, provider metadata: comparableStep).
import type { BundleFile } from '../contracts/bundle.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { RunRequest } from '../contracts/runs.ts';
import { recordingOf } from '../contracts/run-settings.ts';
import { canonicalJson } from '../llm/prompt-hash.ts';
import { comparableStep } from '../records/cassette-from-trajectory.ts';

export interface ReplayResult {
  runId: string;
  bugId: string;
  variant: string;
  sample: number;
  /** equal: the same outcome and steps; different: see detail; failed: the replay could not run; skipped: not the agent's run, or not replayable */
  result: 'equal' | 'different' | 'failed' | 'skipped';
  recorded: string;
  replayed?: string;
  detail: string;
}

/** Starts one run (RunManager.start with the caller's runner) and gives its trajectory. */
export type StartReplay = (request: Omit<RunRequest, 'runner'>) => Promise<Trajectory>;

/** What differs between a recorded run and its replay, or undefined when nothing does. */
export function runDifference(recorded: Trajectory, replayed: Trajectory): string | undefined {
  const a = recorded.steps.map(comparableStep);
  const b = replayed.steps.map(comparableStep);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i >= a.length) return `the replay made more steps (${b.length}, recorded ${a.length})`;
    if (i >= b.length) return `the replay made fewer steps (${b.length}, recorded ${a.length})`;
    if (canonicalJson(a[i]) !== canonicalJson(b[i])) {
      const fields = Object.keys({ ...a[i], ...b[i] }).filter((k) => canonicalJson((a[i] as Record<string, unknown>)[k]) !== canonicalJson((b[i] as Record<string, unknown>)[k]));
      return `step ${i + 1} differs (${fields.join(', ')})`;
    }
  }
  const outcome = (t: Trajectory) => (t.outcome ? { ...t.outcome, recheck: undefined, totals: { ...t.outcome.totals, wallMs: 0 } } : null);
  if (canonicalJson(outcome(recorded)) !== canonicalJson(outcome(replayed))) return `the outcome differs (recorded ${recorded.outcome?.status ?? 'none'}, replayed ${replayed.outcome?.status ?? 'none'})`;
  return undefined;
}

/** Replays each cell's counted run in cell order; `onResult` hears each as it ends. */
export async function replayBundle(bundle: BundleFile, start: StartReplay, onResult: (r: ReplayResult) => void = () => {}): Promise<ReplayResult[]> {
  const runs = new Map(bundle.content.runs.map((r) => [r.trajectory.runId, r]));
  const out: ReplayResult[] = [];
  for (const cell of bundle.content.cells) {
    if (!cell.runId) continue;
    const { trajectory: t, cassette } = runs.get(cell.runId)!;
    const base = { runId: t.runId, bugId: t.bug.id, variant: cell.variant, sample: cell.sample, recorded: t.outcome?.status ?? t.status };
    let result: ReplayResult;
    if (cell.status === 'infrastructure-error') {
      result = { ...base, result: 'skipped', detail: 'infrastructure ended it (not the agent): nothing to replay' };
    } else if (t.steps.some((s) => s.auxiliary)) {
      // RepairAgent's write_fix variants and generate_method_body ask a second model; those replies are not steps
      result = { ...base, result: 'skipped', detail: "its tools asked a second model, whose replies are not recorded: it cannot be replayed exactly" };
    } else {
      try {
        const replayed = await start({
          bugId: t.bug.id,
          preset: t.config.preset,
          variants: t.config.variants,
          overrides: t.config.overrides,
          // the replay's record names the recording the run replayed (a demo recording keeps its name), else the run
          model: { kind: 'replay', cassette, strict: true, name: recordingOf(t.config.model)?.name ?? `run ${t.runId}` },
          ...(t.config.prices ? { prices: t.config.prices as RunRequest['prices'] } : {}),
        });
        const difference = runDifference(t, replayed);
        result = { ...base, result: difference ? 'different' : 'equal', replayed: replayed.outcome?.status ?? replayed.status, detail: difference ?? 'same outcome and steps' };
      } catch (e) {
        // e.g. a bug this catalogue does not have (an imported repository): say so and go on with the others
        result = { ...base, result: 'failed', detail: `the replay could not run: ${(e as Error).message}` };
      }
    }
    out.push(result);
    onResult(result);
  }
  return out;
}
