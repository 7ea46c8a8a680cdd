// How long an experiment keeps its runners busy: its validations (experiment-estimate.ts bounds them per run) times a
// validation's measured duration on the bug's project, and the wall clock that takes with a given number of
// validations at once. The durations are measured, never guessed: each verdict a saved run recorded (its startup
// commands, its steps, its final re-check) says how long the runner took (`timingsMs.total`). A cached verdict took no
// runner time and is left out. A project without a measurement takes the mean over the measured ones, and with none
// at all a stated default is used — the output labels either.
import type { Trajectory } from '../contracts/trajectory.ts';
import type { ExperimentSpec } from '../contracts/experiment.ts';
import type { ExperimentEstimate } from './experiment-estimate.ts';
import { median } from './statistics/median.ts';

/** what the estimate assumes for a validation when nothing was measured (labelled as such wherever it is used) */
export const DEFAULT_VALIDATION_MS = 30_000;

export interface ProjectTimes {
  /** validations measured */
  n: number;
  meanMs: number;
  medianMs: number;
}

export interface MeasuredTimes {
  /** where the measurements come from (e.g. "the 12 runs under /home/me/.repairlab") */
  source: string;
  perProject: Record<string, ProjectTimes>;
}

type Measured = Pick<Trajectory, 'bug' | 'steps' | 'startup' | 'outcome'>;

/** Every uncached verdict of the runs, by the bug's project (its library). */
export function measureValidationTimes(runs: Iterable<Measured>, source: string): MeasuredTimes {
  const byProject = new Map<string, number[]>();
  for (const t of runs) {
    const verdicts = [...t.startup.map((s) => s.verdict), ...t.steps.map((s) => s.verdict), t.outcome?.recheck];
    for (const v of verdicts) {
      if (!v || v.cached || !(v.timingsMs.total > 0)) continue;
      const list = byProject.get(t.bug.library) ?? [];
      list.push(v.timingsMs.total);
      byProject.set(t.bug.library, list);
    }
  }
  const perProject: Record<string, ProjectTimes> = {};
  for (const [project, ms] of [...byProject].sort((a, b) => a[0].localeCompare(b[0]))) {
    perProject[project] = { n: ms.length, meanMs: ms.reduce((s, x) => s + x, 0) / ms.length, medianMs: median(ms)! };
  }
  return { source, perProject };
}

export interface RunnerTimeEstimate {
  /** the validations' upper bound (experiment-estimate.ts) */
  validations: number;
  /** runner time those validations take at the measured mean durations */
  runnerHours: number;
  /** validations at once: the runners' total capacity, lowered by the runs in flight (concurrency.modelCalls) */
  parallelism: number;
  /** where the capacity comes from ("pool default: 2 runners", "--runners 4") */
  capacitySource: string;
  /** runnerHours / parallelism: the wall clock of the validations alone (model calls come on top) */
  wallClockHours: number;
  /** per project: bugs, validations, the duration used and where it comes from */
  projects: { project: string; bugs: number; validations: number; msPerValidation: number; basis: 'measured' | 'mean of measured projects' | 'default (nothing measured)'; measurements: number }[];
  source: string;
  measurements: number;
  method: string[];
}

/**
 * `bugs`: the experiment's bugs with their projects (in the spec's selection); `capacity`: validations the runners
 * take at once in total (a pool's summed capacities, or runners × concurrency.validations).
 */
export function estimateRunnerTime(
  spec: Pick<ExperimentSpec, 'samples' | 'concurrency'>,
  estimate: Pick<ExperimentEstimate, 'variants'>,
  bugs: readonly { id: string; library: string }[],
  times: MeasuredTimes,
  capacity: { total: number; source: string },
): RunnerTimeEstimate {
  if (!(capacity.total > 0)) throw new Error(`${capacity.source}: the runners take no validation at once (capacity ${capacity.total}); give a capacity of 1 or more.`);
  /** validations one bug may take: every variant's samples, each at most its runs' bound */
  const perBug = estimate.variants.reduce((n, v) => n + spec.samples * v.maxValidationsPerRun, 0);
  const measured = Object.values(times.perProject);
  const measurements = measured.reduce((n, p) => n + p.n, 0);
  const overallMean = measurements ? measured.reduce((s, p) => s + p.meanMs * p.n, 0) / measurements : null;
  const byProject = new Map<string, number>();
  for (const b of bugs) byProject.set(b.library, (byProject.get(b.library) ?? 0) + 1);
  const projects = [...byProject].sort((a, b) => a[0].localeCompare(b[0])).map(([project, n]) => {
    const own = times.perProject[project];
    const basis: RunnerTimeEstimate['projects'][number]['basis'] = own ? 'measured' : overallMean !== null ? 'mean of measured projects' : 'default (nothing measured)';
    return { project, bugs: n, validations: n * perBug, msPerValidation: own ? own.meanMs : (overallMean ?? DEFAULT_VALIDATION_MS), basis, measurements: own?.n ?? 0 };
  });
  const validations = projects.reduce((n, p) => n + p.validations, 0);
  const runnerHours = projects.reduce((h, p) => h + (p.validations * p.msPerValidation) / 3_600_000, 0);
  const parallelism = Math.max(1, Math.min(capacity.total, spec.concurrency.modelCalls));
  const method = [
    `Validations: at most ${perBug} per bug (each variant's samples × its runs' bound), ${validations} in all.`,
    `Runner time: each project's validations × its mean measured validation time (${measurements} measurements from ${times.source}; cached verdicts left out).`,
  ];
  const unmeasured = projects.filter((p) => p.basis !== 'measured').map((p) => p.project);
  if (unmeasured.length && overallMean !== null) method.push(`No measurement for ${unmeasured.join(', ')}: the mean over the measured projects (${(overallMean / 1000).toFixed(1)} s) is used.`);
  if (overallMean === null) method.push(`Nothing measured: every validation is ASSUMED to take ${DEFAULT_VALIDATION_MS / 1000} s (a default, not a measurement); run a few cells first for a measured estimate.`);
  method.push(
    `Wall clock: runner time over ${parallelism} validations at once (${capacity.source}: capacity ${capacity.total}${capacity.total > spec.concurrency.modelCalls ? `, lowered to the spec's concurrency.modelCalls ${spec.concurrency.modelCalls}` : ''}); model calls and a bug's cells kept on one runner add to it.`,
  );
  return { validations, runnerHours, parallelism, capacitySource: capacity.source, wallClockHours: runnerHours / parallelism, projects, source: times.source, measurements, method };
}
