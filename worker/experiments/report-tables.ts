// The computed report sections as tables: Markdown for reading (`--md`), CSV rows for a spreadsheet (`--csv --table`).
// Only presentation: every number comes from the metrics and statistics results as they are.
import type { CellRecord } from '../contracts/experiment.ts';
import type { ExperimentMetrics } from './analysis-seam.ts';
import type { MetricsReport, SummaryRow } from './metrics/index.ts';
import { SMELLS } from './metrics/index.ts';
import type { PairRow, StatisticsTable } from './report-statistics.ts';

export type Cell = string | number | boolean | null | undefined;
export interface Table {
  columns: string[];
  rows: Cell[][];
}

/** A number for reading — the Markdown, HTML and page tables alike: integers as they are, tiny values (p-values) in exponent form, the rest to 4 places. */
export function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : Math.abs(v) < 0.001 ? v.toExponential(2) : v.toFixed(4);
}

/** A table cell for reading: numbers as formatNumber, an empty cell as a dash. */
export function formatCell(v: Cell): string {
  return v === null || v === undefined || v === '' ? '—' : typeof v === 'number' ? formatNumber(v) : String(v);
}
const pFmt = (p: number | null | undefined): string => (p === null || p === undefined ? '—' : p < 0.001 ? p.toExponential(2) : p.toFixed(4));

export function markdownTable(t: Table): string {
  return [`| ${t.columns.join(' | ')} |`, `|${t.columns.map(() => '---').join('|')}|`, ...t.rows.map((r) => `| ${r.map(formatCell).join(' | ')} |`)].join('\n');
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; null is an empty field. */
export function csvTable(t: Table): string {
  const field = (v: Cell) => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [t.columns, ...t.rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}

/** One row per (variant, category): the papers' headline numbers. */
export function summaryTable(m: MetricsReport): Table {
  const ks = m.ks;
  // plausible@1 is its own column (the mean of c/n, equal to the unbiased pass@1)
  const kAbove1 = ks.filter((k) => k > 1);
  return {
    columns: ['variant', 'category', 'bugs', 'runs', 'samples_in_error', '#pass', '#unique_pass', 'plausible@1', ...kAbove1.map((k) => `plausible@${k}`), ...ks.map((k) => `valid@${k}`), 'exact_match_bugs', 'ast_match_bugs', 'steps_median_success', 'steps_median_failure', 'cost_median_success', 'cost_median_failure', 'tokens_mean', 'wall_s_mean', 'llm_calls_per_run'],
    rows: m.summary.map((s: SummaryRow) => [
      s.variant,
      s.category,
      s.bugs,
      s.trajectories,
      s.samplesInError,
      s.pass,
      s.uniquePass,
      s.plausibleAt1,
      ...kAbove1.map((k) => s.plausibleAtK[k] ?? null),
      ...ks.map((k) => s.validAtK[k] ?? null),
      s.exactMatchBugs,
      s.astMatchBugs,
      s.steps.success.median,
      s.steps.failure.median,
      s.costUsd.success.median,
      s.costUsd.failure.median,
      s.tokens.all.mean,
      s.wallMs.all.mean === null ? null : s.wallMs.all.mean / 1000,
      s.llmCallsPerTrajectory,
    ]),
  };
}

/** One row per (variant, category): correct@k, #correct, #unique correct and what still waits for a label (docs/metrics.md, *Correct*). */
export function correctnessTable(m: MetricsReport): Table {
  const ks = m.ks.filter((k) => k > 1);
  return {
    columns: ['variant', 'category', 'bugs', '#pass', '#correct', '#unique_correct', 'correct@1', ...ks.map((k) => `correct@${k}`), 'unlabelled_runs', 'unlabelled_patches'],
    rows: m.summary.map((s) => [s.variant, s.category, s.bugs, s.pass, s.correctBugs, s.uniqueCorrect, s.correctAt1, ...ks.map((k) => s.correctAtK[k] ?? null), s.unlabelledTrajectories, s.unlabelledPatches]),
  };
}

/** Every label of the experiment's patches: each rater's, then the resolutions (rater column 'resolved by …'). */
export function labelsTable(m: ExperimentMetrics): Table {
  return {
    columns: ['bug', 'patch', 'rater', 'label', 'note', 'at'],
    rows: [
      ...(m.labels?.raterLabels ?? []).map((l) => [l.bugId, l.patchKey, l.rater, l.label, l.note ?? null, l.at]),
      ...(m.labels?.resolved ?? []).map((r) => [r.bugId, r.patchKey, `resolved by ${r.by}`, r.label, r.note ?? null, r.at]),
    ],
  };
}

/** The patches whose raters disagree: each rater's label, and the resolution once made. */
export function disagreementTable(m: ExperimentMetrics): Table {
  const raters = m.labels?.agreement.raters ?? [];
  return {
    columns: ['bug', 'patch', ...raters, 'resolved'],
    rows: (m.labels?.agreement.disagreements ?? []).map((d) => [d.bugId, d.patchKey, ...raters.map((r) => d.labels[r] ?? null), d.resolved ?? null]),
  };
}

/** The labels in one sentence: agreement, and how many plausible patches still wait for review. */
export function labelsSentence(m: ExperimentMetrics): string {
  const l = m.labels;
  if (!l) return 'This report was made before patch labels: make it again to count them.';
  const a = l.agreement;
  const kappa = a.kappa?.kappa;
  const agreementWords = a.method && kappa !== null && kappa !== undefined
    ? `${a.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ = ${formatNumber(kappa)} over ${a.kappa!.items} patch${a.kappa!.items === 1 ? '' : 'es'} (${a.raters.join(', ')})`
    : `agreement: ${a.kappa?.note ?? a.note ?? '—'}`;
  const open = a.disagreements.filter((d) => !d.resolved).length;
  return (
    `${l.plausiblePatches} distinct plausible patch${l.plausiblePatches === 1 ? '' : 'es'}, ${l.plausiblePatches - l.toReview} decided by exact or AST match, ${l.toReview} to review; ` +
    `${l.unlabelledPatches} still unlabelled (${l.unlabelledRuns} run${l.unlabelledRuns === 1 ? '' : 's'}, counted as not correct). ${agreementWords}; ` +
    `${a.disagreements.length} disagreement${a.disagreements.length === 1 ? '' : 's'}${a.disagreements.length ? ` (${open} unresolved)` : ''}.`
  );
}

/** Share of runs with each smell, plausible vs not (Passerine's Table V), over all categories. */
export function smellTable(m: MetricsReport): Table {
  const rows = m.summary.filter((s) => s.category === 'all');
  return {
    columns: ['variant', ...SMELLS.flatMap((s) => [`${s} plausible`, `${s} not_plausible`])],
    rows: rows.map((s) => [s.variant, ...SMELLS.flatMap((x) => [s.smellIncidence.plausible[x], s.smellIncidence.notPlausible[x]])]),
  };
}

export function toolUseTable(m: MetricsReport): Table {
  return { columns: ['variant', 'tool', 'calls', 'runs_using_it'], rows: m.toolUse.filter((t) => t.category === 'all').map((t) => [t.variant, t.tool, t.count, t.trajectories]) };
}

/** One row per experiment cell, with its run's numbers (excluded cells keep their status and no numbers). */
export function cellTable(cells: readonly CellRecord[], m: MetricsReport | undefined): Table {
  const byRun = new Map((m?.trajectories ?? []).map((t) => [t.runId, t]));
  return {
    columns: ['index', 'bug', 'category', 'variant', 'sample', 'status', 'run', 'plausible', 'exact_match', 'ast_match', 'steps', 'tokens', 'cost_usd', 'wall_ms', 'llm_calls', ...SMELLS],
    rows: [...cells]
      .sort((a, b) => a.index - b.index)
      .map((c) => {
        const t = c.runId ? byRun.get(c.runId) : undefined;
        return [c.index, c.bugId, t?.category, c.variant, c.sample, c.status, c.runId, t?.plausible, t?.exactMatch, t?.astMatch, t?.steps, t?.tokens, t?.costUsd, t?.wallMs, t?.llmCalls, ...SMELLS.map((s) => t?.smells[s])];
      }),
  };
}

const pairLabel = (p: PairRow) => `${p.first} vs ${p.second}`;

/** Plausibility (or correctness): the omnibus test and its pairwise McNemar tests, one row per (category, pair). */
export function plausibilityTable(s: StatisticsTable, outcome: 'plausibility' | 'correctness' = 'plausibility'): Table {
  return {
    columns: ['category', 'test', 'N', 'statistic', 'p', 'pair', 'only_first', 'only_second', 'p_pair', 'p_bonferroni', 'p_holm', 'reading'],
    rows: (s[outcome] ?? []).flatMap((r) => {
      const head: Cell[] = [r.category, r.test, r.n, r.statistic, r.pvalue];
      if (!r.pairwise.length) return [[...head, null, null, null, null, null, null, r.reading]];
      return r.pairwise.map((p, i) => [...(i === 0 ? head : [r.category, '', '', '', '']), pairLabel(p), p.firstOnly, p.secondOnly, p.pvalue, p.bonferroni, p.holm, i === 0 ? r.reading : p.significant ? `pair significant at α = ${s.alpha} (Bonferroni)` : 'pair not significant (Bonferroni)']);
    }),
  };
}

/** HAFixAgent's Table 5: per category and metric, N, the omnibus p, and the pairwise p-values (— when not run). */
export function table5(s: StatisticsTable): Table {
  const pairs = s.variants.flatMap((a, i) => s.variants.slice(i + 1).map((b) => `${a} vs ${b}`));
  return {
    columns: ['category', 'metric', 'set', 'N', 'test', 'statistic', 'p', "Kendall's W", ...pairs.map((p) => `${p} (Bonferroni p)`), 'reading'],
    rows: s.measures.map((r) => [
      r.category,
      r.metric,
      r.set,
      r.n,
      r.test,
      r.statistic,
      r.pvalue,
      r.kendallW,
      ...pairs.map((label) => {
        const p = r.pairwise.find((x) => pairLabel(x) === label);
        return p ? `${pFmt(p.bonferroni)}${p.significant ? ' *' : ''}` : null;
      }),
      r.reading,
    ]),
  };
}

export function metricsMarkdown(m: ExperimentMetrics): string {
  const ex = m.excludedCells;
  return [
    '## Metrics per variant and category',
    '',
    markdownTable(summaryTable(m)),
    '',
    `Denominators: #pass, plausible@k and valid@k are over the \`bugs\` column (bugs with an attempted sample); a sample in an infrastructure error (\`samples_in_error\`, ${ex['infrastructure-error']} in all) is attempted and counts as not plausible and not valid. ` +
      `Steps, cost, tokens, wall time, smells and tool use are over the \`runs\` column (runs that ended with the agent's verdict); the paired tests take only (bug, sample) pairs every variant has a verdict for. ` +
      `Not attempted, left out of everything: ${ex['not-run']} not-run, ${ex.running} running cells${ex['missing-run'] ? `; ${ex['missing-run']} whose run record is missing` : ''}. #unique pass: bugs no other variant passes. Cost in USD, wall time in seconds.`,
    '',
    '## Correct patches',
    '',
    markdownTable(correctnessTable(m)),
    '',
    'Correct: plausible and an exact or AST match with the developers\' fix, or labelled correct (resolved label; `repairlab review`). ' + labelsSentence(m),
    ...(m.labels?.agreement.disagreements.length ? ['', '### Disagreements', '', markdownTable(disagreementTable(m))] : []),
    '',
    '## Trajectory smells (share of runs)',
    '',
    markdownTable(smellTable(m)),
    '',
    '## Tool use',
    '',
    markdownTable(toolUseTable(m)),
  ].join('\n');
}

export function statisticsMarkdown(s: StatisticsTable): string {
  return [
    `## Statistics (α = ${s.alpha})`,
    '',
    `Pairing: ${s.pairing}.`,
    '',
    '### Plausibility',
    '',
    markdownTable(plausibilityTable(s)),
    '',
    '### Correct patches',
    '',
    markdownTable(plausibilityTable(s, 'correctness')),
    '',
    "### Steps and cost (HAFixAgent's Table 5)",
    '',
    markdownTable(table5(s)),
    '',
    `\\* Bonferroni-adjusted p < ${s.alpha}. — : not run (the omnibus test was not significant, or two variants: the Wilcoxon test is the row's own).`,
  ].join('\n');
}
