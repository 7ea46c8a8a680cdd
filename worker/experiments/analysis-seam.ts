// The seam between the report (report.ts) and its analyses (analyses.ts): what an analysis reads, the functions the
// report calls, and what the metrics analysis returns. Types only, so neither side imports the other.
import type { CellRecord, ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { MetricsReport } from './metrics/index.ts';

export interface AnalysisInput {
  experiment: ExperimentRecord;
  spec: ExperimentSpec;
  cells: CellRecord[];
  trajectory(runId: string): Promise<Trajectory | undefined>;
}

/**
 * THE SEAM for worker/experiments/metrics/ and worker/experiments/statistics/: each, once written, is a function of
 * AnalysisInput whose result the report carries as it is (and the CLI renders). Absent, the report says it is not
 * computed — no stand-in numbers.
 */
export interface ReportAnalyses {
  metrics?: (input: AnalysisInput) => Promise<unknown>;
  statistics?: (input: AnalysisInput) => Promise<unknown>;
}

/** Cells left out of every metric and test, by status. */
export interface Exclusions {
  'infrastructure-error': number;
  'not-run': number;
  running: number;
  /** counted status but its run record is missing */
  'missing-run': number;
}

export interface ExperimentMetrics extends MetricsReport {
  excludedCells: Exclusions;
}
