// `repairlab stats <test> [--json]`: one statistic on a table piped to stdin, for people checking a number.
// stdin: {"data": [[...], ...]} — one row per bug, one column per variant. Bad input (JSON, shape, values) is
// named on stderr with exit code 2. The statistics module is imported only when the command runs, so the
// CLI's start-up does not load it (or its @stdlib packages).
import type { Command } from 'commander';
import { print } from './flags.ts';
// types only: erased, so the module itself still loads only when the command runs
import type { CochranQResult, FriedmanResult, McNemarResult, WilcoxonResult } from '../experiments/statistics/index.ts';

const TESTS = ['mcnemar', 'cochran', 'friedman', 'wilcoxon'] as const;
type TestName = (typeof TESTS)[number];

const INPUT_HELP: Record<TestName, string> = {
  mcnemar: 'two columns of 0/1 (1 = plausible)',
  cochran: 'two or more columns of 0/1',
  friedman: 'three or more columns of numbers (steps, cost, …)',
  wilcoxon: 'two columns of numbers',
};

/** Bad input to `stats`: reported without a stack, exit code 2. */
class StatsUsageError extends Error {}

export function registerStatsCommand(program: Command): void {
  program
    .command('stats <test>')
    .description(`a paired test on {"data": [[...], ...]} from stdin, one row per bug and one column per variant: ${TESTS.join(' | ')}`)
    .option('--json', 'print JSON: {statistic, pvalue, n, method, …}')
    .addHelpText('after', `\nInput per test:\n${TESTS.map((t) => `  ${t.padEnd(9)} ${INPUT_HELP[t]}`).join('\n')}\nExample: echo '{"data": [[1,0],[1,0],[0,1],[1,1]]}' | repairlab stats mcnemar --json`)
    .action(async (test: string, opts: { json?: boolean }) => {
      const stats = await import('../experiments/statistics/index.ts');
      try {
        if (!(TESTS as readonly string[]).includes(test)) throw new StatsUsageError(`unknown test "${test}": use one of ${TESTS.join(', ')}.`);
        const name = test as TestName;
        const data = parseInput(await readStdin(), name);
        const result = { mcnemar: stats.mcnemar, cochran: stats.cochranQ, friedman: stats.friedman, wilcoxon: stats.wilcoxon }[name](data);
        print(!!opts.json, result, () => describe(result));
      } catch (e) {
        if (!(e instanceof StatsUsageError || e instanceof stats.StatisticsInputError)) throw e;
        console.error(`repairlab stats: ${e.message}`);
        process.exitCode = 2;
      }
    });
}

function parseInput(text: string, test: TestName): unknown {
  const example = `{"data": [[...], [...]]} with ${INPUT_HELP[test]}`;
  if (!text.trim()) throw new StatsUsageError(`stdin is empty: pipe ${example}.`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new StatsUsageError(`stdin is not JSON (${(e as Error).message}); pipe ${example}.`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !('data' in doc)) throw new StatsUsageError(`stdin has no "data" field; pipe ${example}.`);
  return (doc as { data: unknown }).data;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new StatsUsageError('nothing on stdin: pipe the table, e.g. echo \'{"data": [[1,0],[0,1],[1,0]]}\' | repairlab stats mcnemar.');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type AnyResult = McNemarResult | CochranQResult | FriedmanResult | WilcoxonResult;

const num = (v: number): string => String(Number(v.toPrecision(6)));
const p = (v: number): string => (v < 1e-4 ? v.toExponential(3) : v.toFixed(4));

function describe(r: AnyResult): string {
  switch (r.test) {
    case 'mcnemar':
      return `McNemar exact: statistic ${r.statistic}, p = ${p(r.pvalue)} (${r.n} pairs; discordant: ${r.discordant.firstOnly} only the first, ${r.discordant.secondOnly} only the second)`;
    case 'cochran':
      return `Cochran's Q = ${num(r.statistic)}, df ${r.df}, p = ${p(r.pvalue)} (χ² approximation; ${r.n} bugs × ${r.k} variants; successes ${r.successes.join(', ')})`;
    case 'friedman':
      return `Friedman χ² = ${num(r.statistic)}, df ${r.df}, p = ${p(r.pvalue)} (χ² approximation; ${r.n} bugs × ${r.k} variants); Kendall's W = ${num(r.kendallW)}; mean ranks ${r.meanRanks.map(num).join(', ')}`;
    case 'wilcoxon':
      return [
        `Wilcoxon signed-rank: T = ${num(r.statistic)}, p = ${p(r.pvalue)} (${r.method === 'exact' ? 'exact' : `normal approximation, z = ${num(r.z!)}`}: ${r.methodReason}; ${r.n} pairs, ${r.nonzero} nonzero differences)`,
        `effect sizes: matched-pairs rank-biserial r = ${num(r.effectSize.rankBiserial)}, Cliff's delta = ${num(r.effectSize.cliffsDelta)}`,
      ].join('\n');
  }
}
