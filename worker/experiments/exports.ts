// An experiment's results as files for other tools: CSV per cell and per bug (spreadsheets, pandas), the report as
// JSON, and SWE-bench-style predictions (JSON Lines). Pure functions over the report and the runs it points at; the
// CLI writes them to disk, the page offers them as downloads. Numbers are the report's own (no second computation).
import type { Trajectory } from '../contracts/trajectory.ts';
import type { ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import { predictions, type AnalysisInput, type ExperimentReport } from './report.ts';
import { csvTable, type Table } from './report-tables.ts';
import { isAttempted } from './report-denominators.ts';
import { runModel } from './provenance.ts';

export const EXPORT_FORMATS = ['cells-csv', 'bugs-csv', 'json', 'predictions'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFile {
  fileName: string;
  mediaType: string;
  text: string;
}

type LoadTrajectory = AnalysisInput['trajectory'];

/**
 * One row per cell: what it ran and what came of it. `status` is the cell's (the report counts these); `model` names who
 * answered — the demo recording a replayed run came from (`recording_source`: hand-authored, model or mixed), else the
 * model asked; tokens come from the counted run's totals (empty when the cell has no run); cost, calls and steps from
 * the cell record, failed attempts included, as in the report.
 */
export async function cellsCsvTable(report: ExperimentReport, trajectory: LoadTrajectory): Promise<Table> {
  const rows: Table['rows'] = [];
  for (const c of report.cells) {
    const t = c.runId ? await trajectory(c.runId) : undefined;
    const totals = t?.outcome?.totals;
    // who answered: the recording a demo run replayed (and who wrote it), else the model asked
    const m = runModel(t, report.experiment.model);
    rows.push([
      c.index,
      c.variant,
      c.bugId,
      c.sample,
      c.status,
      t?.outcome?.status ?? null,
      c.runId ?? null,
      m.recording?.name ?? m.model,
      m.recording?.source ?? null,
      c.costUsd,
      totals ? totals.inputTokens : null,
      totals ? totals.outputTokens : null,
      c.steps,
      c.calls,
      c.attempts.length,
      c.reason || null,
    ]);
  }
  return { columns: ['index', 'variant', 'bug', 'sample', 'status', 'run_outcome', 'run', 'model', 'recording_source', 'cost_usd', 'input_tokens', 'output_tokens', 'steps', 'calls', 'retried_attempts', 'reason'], rows };
}

/**
 * One row per bug: per variant, how many samples were plausible, how many were attempted (the denominator: ended with
 * a verdict or in an infrastructure error, as in plausible@1) and how many of those were in error (not plausible).
 */
export function bugsCsvTable(report: ExperimentReport): Table {
  const variants = report.variants.map((v) => v.variant);
  const bugs = [...new Set(report.cells.map((c) => c.bugId))];
  return {
    columns: ['bug', ...variants.flatMap((v) => [`${v} plausible`, `${v} attempted`, `${v} in error`])],
    rows: bugs.map((bug) => [
      bug,
      ...variants.flatMap((v) => {
        const mine = report.cells.filter((c) => c.bugId === bug && c.variant === v);
        return [mine.filter((c) => c.status === 'plausible').length, mine.filter(isAttempted).length, mine.filter((c) => c.status === 'infrastructure-error').length];
      }),
    ]),
  };
}

/** SWE-bench's predictions file: one JSON object per line (instance_id, model_name_or_path, model_patch). */
export async function predictionsJsonl(experiment: ExperimentRecord, spec: ExperimentSpec, report: ExperimentReport, trajectory: LoadTrajectory): Promise<string> {
  const preds = await predictions(experiment, spec, report.cells, trajectory);
  return preds.map((p) => JSON.stringify(p)).join('\n') + (preds.length ? '\n' : '');
}

/** The file of one export format, named after the experiment. */
export async function exportExperiment(format: ExportFormat, input: { experiment: ExperimentRecord; spec: ExperimentSpec; report: ExperimentReport; trajectory: LoadTrajectory }): Promise<ExportFile> {
  const id = input.report.experiment.id;
  switch (format) {
    case 'cells-csv':
      return { fileName: `${id}.cells.csv`, mediaType: 'text/csv', text: csvTable(await cellsCsvTable(input.report, input.trajectory)) };
    case 'bugs-csv':
      return { fileName: `${id}.bugs.csv`, mediaType: 'text/csv', text: csvTable(bugsCsvTable(input.report)) };
    case 'json':
      return { fileName: `${id}.report.json`, mediaType: 'application/json', text: `${JSON.stringify(input.report, null, 2)}\n` };
    case 'predictions':
      return { fileName: `${id}.predictions.jsonl`, mediaType: 'application/jsonl', text: await predictionsJsonl(input.experiment, input.spec, input.report, input.trajectory) };
  }
}

/** Refuses a format name that is none, naming the ones there are. */
export function parseExportFormat(name: string): ExportFormat {
  const f = EXPORT_FORMATS.find((x) => x === name);
  if (!f) throw new Error(`export format ${JSON.stringify(name)}: not one RepairLab writes; use one of ${EXPORT_FORMATS.join(', ')}.`);
  return f;
}

/** The runs of the report's cells, in cell order (a cell without a run or whose record is gone is skipped). */
export async function reportTrajectories(report: ExperimentReport, trajectory: LoadTrajectory): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (const c of report.cells) {
    if (!c.runId) continue;
    const t = await trajectory(c.runId);
    if (t) out.push(t);
  }
  return out;
}
