// Several independent trajectories of one strategy on one bug (Passerine samples 20 at temperature 0.2),
// each on a clean fork of the buggy workspace, and the plausible@k they give.
import type { Trajectory } from '../contracts/trajectory.ts';
import { runAgent, type RunAgentOptions } from './loop.ts';

export interface RunTrajectoriesOptions extends Omit<RunAgentOptions, 'trajectoryIndex' | 'resumeFrom' | 'runId'> {
  /** default: strategy.sampling.trajectories */
  count?: number;
  onTrajectory?: (t: Trajectory, index: number) => void;
}

export async function runTrajectories(opts: RunTrajectoriesOptions): Promise<Trajectory[]> {
  const count = opts.count ?? opts.strategy.sampling.trajectories;
  const out: Trajectory[] = [];
  for (let i = 0; i < count; i++) {
    if (opts.signal?.aborted || opts.control?.stopRequested) break;
    const workspace = opts.workspace.fork();
    workspace.revert();
    const t = await runAgent({ ...opts, workspace, trajectoryIndex: i });
    out.push(t);
    opts.onTrajectory?.(t, i);
  }
  return out;
}

/** Unbiased plausible@k (Chen et al. pass@k): 1 − C(n−c, k) / C(n, k) for n trajectories of which c are plausible. */
export function plausibleAtK(n: number, c: number, k: number): number {
  if (k > n) throw new Error(`plausible@${k} needs at least ${k} trajectories (have ${n})`);
  if (n - c < k) return 1;
  let ratio = 1;
  for (let i = n - c + 1; i <= n; i++) ratio *= 1 - k / i;
  return 1 - ratio;
}
