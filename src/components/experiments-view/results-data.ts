// The results of an experiment as tables, from the engine's report (worker/experiments/report.ts) and its cell
// records. The per-variant table and its denominators (report-denominators.ts) and every chart with its table
// (report-charts.ts) are the engine's — the same functions the CLI and the HTML report use — so the page only shows
// them; what is here is how a table reads and exports.
import type { ExperimentReport } from '../../../worker/experiments/report.ts';
import { variantTable as variantRowsTable } from '../../../worker/experiments/report-denominators.ts';
import type { Cell, Table } from '../../../worker/experiments/report-tables.ts';

export type { Cell, Table };
/** CSV (RFC 4180) and cells for reading: the engine's, so the page, the Markdown and the HTML report read alike */
export { csvTable as tableCsv, formatCell } from '../../../worker/experiments/report-tables.ts';
export { costVsSuccess, paretoFrontier, plausibleAtK } from '../../../worker/experiments/report-charts.ts';

/** The report's per-variant rows, number for number, each count beside its denominator. */
export function variantTable(report: ExperimentReport): Table {
  return variantRowsTable(report.variants);
}

/** Which columns hold numbers (every value a number or empty, one at least): right-aligned in tabular figures. */
export function numericColumns(table: Table): boolean[] {
  const empty = (v: Cell) => v === null || v === undefined || v === '';
  return table.columns.map((_, i) => table.rows.some((r) => typeof r[i] === 'number') && table.rows.every((r) => typeof r[i] === 'number' || empty(r[i]!)));
}
