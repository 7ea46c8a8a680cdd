// The input every test shares: a table with one row per bug and one column per variant (the shape of
// `repairlab stats` and of an experiment's paired results). Checks name the row, the column and what to give instead.

/** Bad input to a statistic (a malformed table, or data on which the statistic is undefined). */
export class StatisticsInputError extends Error {
  override name = 'StatisticsInputError';
}

export type Table = readonly (readonly number[])[];

export interface TableShape {
  /** the test's name, for messages */
  test: string;
  /** exact number of columns, or a minimum */
  columns: { exactly: number } | { atLeast: number };
  /** values must be 0 or 1 (plausible or not) */
  binary?: boolean;
}

/** Checks `data` against `shape` and returns it typed; throws StatisticsInputError naming the first problem. */
export function checkTable(data: unknown, shape: TableShape): number[][] {
  const wanted = 'exactly' in shape.columns ? `exactly ${shape.columns.exactly}` : `at least ${shape.columns.atLeast}`;
  const hint = `one row per bug, ${wanted} columns (one per variant)${shape.binary ? ', each value 0 or 1' : ''}`;
  if (!Array.isArray(data)) throw new StatisticsInputError(`${shape.test}: data must be an array of rows (${hint}); got ${describe(data)}.`);
  if (data.length === 0) throw new StatisticsInputError(`${shape.test}: data has no rows; give ${hint}.`);
  const rows: number[][] = [];
  data.forEach((row: unknown, i) => {
    const where = `data[${i}] (row ${i + 1})`;
    if (!Array.isArray(row)) throw new StatisticsInputError(`${shape.test}: ${where} is ${describe(row)}, not a row; give ${hint}.`);
    const first = (data[0] as unknown[]).length;
    if (i > 0 && row.length !== first) throw new StatisticsInputError(`${shape.test}: ${where} has ${row.length} columns but row 1 has ${first}; every row needs one value per variant.`);
    const n = row.length;
    if ('exactly' in shape.columns ? n !== shape.columns.exactly : n < shape.columns.atLeast) {
      throw new StatisticsInputError(`${shape.test}: ${where} has ${n} column${n === 1 ? '' : 's'}; the test needs ${hint}.`);
    }
    row.forEach((v: unknown, j) => {
      const cell = `data[${i}][${j}] (row ${i + 1}, column ${j + 1})`;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new StatisticsInputError(`${shape.test}: value ${describe(v)} at ${cell} is not a finite number.`);
      if (shape.binary && v !== 0 && v !== 1) throw new StatisticsInputError(`${shape.test}: value ${v} at ${cell} is not 0/1 (1 = plausible, 0 = not).`);
    });
    rows.push(row as number[]);
  });
  return rows;
}

/** Column `j` of a checked table. */
export const column = (rows: Table, j: number): number[] => rows.map((r) => r[j]!);

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
