// The results of an experiment as tables, from the engine's report (worker/experiments/report.ts) and its cell
// records. The per-variant table and its denominators (report-denominators.ts) and every chart with its table
// (report-charts.ts) are the engine's — the same functions the CLI and the HTML report use — so the page only shows
// them; what is here is how a table reads and exports.
import type { ExperimentReport } from '../../../worker/experiments/report.ts';
import { variantTable as variantRowsTable } from '../../../worker/experiments/report-denominators.ts';
import type { Cell, Table } from '../../../worker/experiments/report-tables.ts';

export type { Cell, Table };
export { costVsSuccess, paretoFrontier, plausibleAtK } from '../../../worker/experiments/report-charts.ts';

/** The report's per-variant rows, number for number, each count beside its denominator. */
export function variantTable(report: ExperimentReport): Table {
  return variantRowsTable(report.variants);
}

/** RFC 4180 CSV (a field with a comma, quote or line break is quoted, its quotes doubled); null is an empty field. */
export function tableCsv(t: Table): string {
  const field = (v: Cell) => {
    if (v === null || v === undefined) return '';
    const text = String(v);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [t.columns, ...t.rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}

/** How a number reads in a table: shares and costs to 4 decimals, counts as they are, null as a dash. */
/** Which columns hold numbers (every value a number or empty, one at least): right-aligned in tabular figures. */
export function numericColumns(table: Table): boolean[] {
  const empty = (v: Cell) => v === null || v === undefined || v === '';
  return table.columns.map((_, i) => table.rows.some((r) => typeof r[i] === 'number') && table.rows.every((r) => typeof r[i] === 'number' || empty(r[i]!)));
}

export function formatCell(v: Cell): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'number' && !Number.isInteger(v)) return v.toFixed(4);
  return String(v);
}
