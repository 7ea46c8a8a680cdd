// An experiment's report and exports as files, for the page (a download) and the CLI (`experiment report --html`,
// `experiment export --csv/--predictions`): the same functions over the same records, so the file a browser saves and
// the one the CLI writes hold the same numbers as `experiment report --json`.
import { parseExperimentSpec, type ExperimentRecord } from '../contracts/experiment.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { ExperimentReport } from './report.ts';
import type { ExperimentsApi } from './experiments-api.ts';
import { EXPORT_FORMATS, exportExperiment, parseExportFormat, reportTrajectories, type ExportFile, type ExportFormat } from './exports.ts';
import { renderExperimentReportHtml, type ReportHtmlOptions } from './report-html.ts';

export type ReportFileKind = 'html' | ExportFormat;

export interface ReportFileInput {
  experiment: ExperimentRecord;
  report: ExperimentReport;
  trajectory: (runId: string) => Promise<Trajectory | undefined>;
}

/** The self-contained HTML report (docs/formats/report.md), with every cell's run. */
export async function experimentReportHtml(input: ReportFileInput, options: ReportHtmlOptions = {}): Promise<ExportFile> {
  const html = renderExperimentReportHtml(input.report, await reportTrajectories(input.report, input.trajectory), options);
  return { fileName: `${input.report.experiment.id}.report.html`, mediaType: 'text/html', text: html };
}

/** One file: the HTML report or an export (cells-csv, bugs-csv, json, predictions); a bad kind is named. */
export async function experimentFile(input: ReportFileInput, kind: string): Promise<ExportFile> {
  if (kind === 'html') return experimentReportHtml(input);
  if (!(EXPORT_FORMATS as readonly string[]).includes(kind)) throw new Error(`report file ${JSON.stringify(kind)}: not one RepairLab writes; use one of html, ${EXPORT_FORMATS.join(', ')}.`);
  const spec = parseExperimentSpec(input.experiment.spec, `the spec recorded with experiment ${input.experiment.id}`);
  return exportExperiment(parseExportFormat(kind), { ...input, spec });
}

/** The page's path (worker-entry `experimentFile`): the experiment and its report as the Experiments tab reads them. */
export async function experimentFileOf(experiments: Pick<ExperimentsApi, 'get' | 'report'>, trajectory: ReportFileInput['trajectory'], id: string, kind: string): Promise<ExportFile> {
  const [{ record }, report] = await Promise.all([experiments.get(id), experiments.report(id)]);
  return experimentFile({ experiment: record, report, trajectory }, kind);
}
