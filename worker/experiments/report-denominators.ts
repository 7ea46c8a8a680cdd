// Per variant: the counts the cell records give directly, each with its denominator, and the rule that makes them.
//
// THE RULE. A rate is over the cells *attempted*: those that ended plausible, not plausible, on a budget — or in an
// infrastructure error. An error cell is attempted and is NOT a success, so it counts as not plausible: the papers
// report over every bug attempted, and leaving an error out of the denominator raised a variant's rate for a bug
// nobody fixed (one bug fixed, one the endpoint could not serve, read as plausible@1 = 1). The errors are counted and
// named beside every rate, and listed cell by cell, so a reader sees what they cost. Cells not run or still running
// were not attempted: they leave the denominators, and the variant is marked incomplete.
//
// Plain functions over plain data (no engine import), so the page, the CLI and the HTML report say the same words.
import type { CellRecord, CellStatus, ExperimentSpec } from '../contracts/experiment.ts';
import type { Table } from './report-tables.ts';

export const CELL_STATUSES: readonly CellStatus[] = ['plausible', 'not-plausible', 'budget', 'infrastructure-error', 'not-run'];

/** The statuses of an attempted cell: it ended, with the agent's verdict or in an infrastructure error. */
export const ATTEMPTED_STATUSES: readonly CellStatus[] = ['plausible', 'not-plausible', 'budget', 'infrastructure-error'];
const ATTEMPTED = new Set<string>(ATTEMPTED_STATUSES);
export const isAttempted = (c: Pick<CellRecord, 'status'>): boolean => ATTEMPTED.has(c.status);

export interface VariantRow {
  variant: string;
  preset: string;
  presetVariants: string[];
  /** cells planned: bugs × samples */
  cells: number;
  /** cells attempted: ended plausible, not plausible, on a budget, or in an infrastructure error (the denominator of `plausible`) */
  attempted: number;
  /** planned cells that have not ended: not run, running, or never started; a variant with any is incomplete */
  unfinished: number;
  /** cells running now (a report of a running experiment) */
  running: number;
  /** plausible first samples over the first samples attempted (an error counts as not plausible); null: none attempted */
  plausibleAt1: number | null;
  /** first samples attempted: the denominator of plausibleAt1 (one per bug attempted) */
  firstSamples: number;
  /** of those, the plausible ones: the numerator of plausibleAt1 */
  firstPlausible: number;
  /** of those, the ones in an infrastructure error (in the denominator, never plausible) */
  firstSampleErrors: number;
  /** cells with a plausible patch (every sample), of `attempted` */
  plausible: number;
  /** bugs with at least one plausible sample, of `bugsAttempted` */
  bugsFixed: number;
  /** bugs with an attempted cell: the denominator of bugsFixed */
  bugsAttempted: number;
  statuses: Record<CellStatus, number>;
  /** every run's cost, failed attempts included (null: a model without a price) */
  costUsd: number | null;
  calls: number;
}

/** The rule every rate follows, in one sentence (docs/formats/experiment.md, "Which cells count"). */
export const DENOMINATOR_RULE =
  'Rates are over the cells attempted: a cell in an infrastructure error is attempted and counts as not plausible (it is never a success); cells not run or still running are not attempted and leave the denominators, and their variant is marked incomplete.';

type SpecVariants = Pick<ExperimentSpec, 'variants' | 'samples'>;

/** Sum of costs where null (unknown: a model without a price) wins. */
const addCost = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

export function variantRows(spec: SpecVariants, cells: readonly CellRecord[], bugs: number): VariantRow[] {
  return spec.variants.map((v) => {
    const mine = cells.filter((c) => c.variant === v.name);
    const statuses = Object.fromEntries(CELL_STATUSES.map((s) => [s, mine.filter((c) => c.status === s).length])) as Record<CellStatus, number>;
    const attempted = mine.filter(isAttempted);
    const first = attempted.filter((c) => c.sample === 0);
    let cost: number | null = 0;
    for (const c of mine) cost = addCost(cost, c.costUsd);
    const planned = bugs * spec.samples;
    return {
      variant: v.name,
      preset: v.preset,
      presetVariants: v.variants,
      cells: planned,
      attempted: attempted.length,
      unfinished: planned - attempted.length,
      running: mine.filter((c) => c.status === 'running').length,
      plausibleAt1: first.length ? first.filter((c) => c.status === 'plausible').length / first.length : null,
      firstSamples: first.length,
      firstPlausible: first.filter((c) => c.status === 'plausible').length,
      firstSampleErrors: first.filter((c) => c.status === 'infrastructure-error').length,
      plausible: statuses.plausible,
      bugsFixed: new Set(mine.filter((c) => c.status === 'plausible').map((c) => c.bugId)).size,
      bugsAttempted: new Set(attempted.map((c) => c.bugId)).size,
      statuses,
      costUsd: cost,
      calls: mine.reduce((n, c) => n + c.calls, 0),
    };
  });
}

/** The per-variant table (`report --csv`, the HTML report, the page): each count beside its denominator. */
export const VARIANT_COLUMNS = [
  'variant',
  'preset',
  'cells',
  'attempted',
  'unfinished',
  'plausible@1',
  'first_samples',
  'first_samples_in_error',
  'plausible',
  'bugs_fixed',
  'bugs_attempted',
  ...CELL_STATUSES.map((s) => `status: ${s}`),
  'complete',
  'cost_usd',
  'calls',
] as const;

export function variantTable(rows: readonly VariantRow[]): Table {
  return {
    columns: [...VARIANT_COLUMNS],
    rows: rows.map((r) => [
      r.variant,
      [r.preset, ...r.presetVariants].join('+'),
      r.cells,
      r.attempted,
      r.unfinished,
      r.plausibleAt1,
      r.firstSamples,
      r.firstSampleErrors,
      r.plausible,
      r.bugsFixed,
      r.bugsAttempted,
      ...CELL_STATUSES.map((s) => r.statuses[s]),
      r.unfinished ? 'no' : 'yes',
      r.costUsd,
      r.calls,
    ]),
  };
}

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** Why a variant is incomplete ('' when every planned cell ended). */
export function incompleteNote(r: VariantRow): string {
  if (!r.unfinished) return '';
  const notStarted = r.unfinished - r.statuses['not-run'] - r.running;
  const parts = [r.statuses['not-run'] ? `${r.statuses['not-run']} not run` : '', r.running ? `${r.running} running` : '', notStarted > 0 ? `${notStarted} not started` : ''].filter(Boolean);
  return `incomplete: ${r.unfinished} of ${plural(r.cells, 'cell')} ${r.unfinished === 1 ? 'has' : 'have'} not ended (${parts.join(', ')})`;
}

/**
 * Each rate of a variant in words, with its denominator and the errors in it:
 * `plausible@1 = 0.50 (1 of 2 bugs; 1 cell in error counted as not plausible)`.
 */
export function variantDenominators(r: VariantRow): string[] {
  const errorsIn = (n: number) => (n ? `; ${plural(n, 'cell')} in error counted as not plausible` : '');
  const out = [
    r.plausibleAt1 === null
      ? 'plausible@1 = — (no first sample attempted yet)'
      : `plausible@1 = ${r.plausibleAt1.toFixed(2)} (${r.firstPlausible} of ${plural(r.firstSamples, 'bug')}${errorsIn(r.firstSampleErrors)})`,
    `bugs fixed = ${r.bugsFixed} of ${plural(r.bugsAttempted, 'bug')} attempted`,
    `plausible cells = ${r.plausible} of ${r.attempted} attempted${r.statuses['infrastructure-error'] ? ` (${r.statuses['infrastructure-error']} in error)` : ''}`,
  ];
  const incomplete = incompleteNote(r);
  if (incomplete) out.push(incomplete);
  return out;
}

/** The cells in an infrastructure error, in cell order: what a Retry runs again. */
export function errorCells(cells: readonly CellRecord[]): CellRecord[] {
  return cells.filter((c) => c.status === 'infrastructure-error').sort((a, b) => a.index - b.index);
}
