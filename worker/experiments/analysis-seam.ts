// The seam between the report (report.ts) and its analyses (analyses.ts): what an analysis reads, the functions the
// report calls, and what the metrics analysis returns. Types only, so neither side imports the other.
import type { CellRecord, ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { LabelSet } from '../contracts/patch-labels.ts';
import type { MetricsReport } from './metrics/index.ts';
import type { Agreement } from './label-agreement.ts';

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

/** The experiment's patch labels (those of its runs' patches), their agreement, and what still waits for review. */
export interface LabelSummary extends LabelSet {
  agreement: Agreement;
  /** distinct (bug, normalised patch) among the plausible runs */
  plausiblePatches: number;
  /** of those, the ones no exact or AST match decides: the review queue */
  toReview: number;
  /** of those, the ones with no resolved label yet, and the runs that end with them */
  unlabelledPatches: number;
  unlabelledRuns: number;
}

export interface ExperimentMetrics extends MetricsReport {
  excludedCells: Exclusions;
  /** absent in reports written before labels existed (bundles keep their report) */
  labels?: LabelSummary;
}
