// The Runs list's rows as data: how a run's configuration reads, and sorting and filtering by column.
// Kept apart from the element so the rules are tested without a browser.
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import { RECORDING_SOURCE_WORDS } from '../../../worker/contracts/run-settings.ts';

export type RunColumn = 'run' | 'bug' | 'experiment' | 'preset' | 'config' | 'model' | 'status' | 'outcome' | 'steps' | 'cost' | 'started';

export const RUN_COLUMNS: { id: RunColumn; label: string }[] = [
  { id: 'run', label: 'Run' },
  { id: 'bug', label: 'Bug' },
  { id: 'experiment', label: 'Experiment' },
  { id: 'preset', label: 'Preset' },
  { id: 'config', label: 'Variants / overrides' },
  { id: 'model', label: 'Model' },
  { id: 'status', label: 'Status' },
  { id: 'outcome', label: 'Outcome' },
  { id: 'steps', label: 'Steps' },
  { id: 'cost', label: 'Cost' },
  { id: 'started', label: 'Started' },
];

export interface RunSort {
  column: RunColumn;
  descending: boolean;
}

export interface RunFilter {
  /** matched, case-insensitively, against every column's text */
  text: string;
  /** '' for any */
  status: string;
  preset: string;
}

/** The variants and overrides a run used, in one line: "fn_all · budgets.maxSteps=5", or "—" for the bare preset. */
export function configSummary(r: Pick<RunSummary, 'variants' | 'overrides'>): string {
  const parts = [...r.variants, ...flattenOverrides(r.overrides)];
  return parts.length ? parts.join(' · ') : '—';
}

/** Overrides as `path=value` items, nested objects by dotted path; long values cut to keep the cell short. */
function flattenOverrides(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) return flattenOverrides(v as Record<string, unknown>, path);
    const text = JSON.stringify(v) ?? String(v);
    return [`${path}=${text.length > 40 ? `${text.slice(0, 39)}…` : text}`];
  });
}

/**
 * A run id short enough for a column: the random part of a loop-made id (`run-<time>-<random>`: runs started in the
 * same second share the time part, never the random one), its first 7 characters like a short commit hash; any other
 * id (an imported file's) cut to 12. The full id is the cell's title and what Copy copies.
 */
export function shortRunId(runId: string): string {
  const random = /^run-[a-z0-9]+-([a-z0-9]+)$/.exec(runId)?.[1];
  if (random) return random.slice(0, 7);
  return runId.length > 12 ? `${runId.slice(0, 11)}…` : runId;
}

/** The experiment cell a run belongs to, in one line: "layout-check · oneshot · #2" ("" for a run of no experiment). */
export function experimentLabel(r: Pick<RunSummary, 'experiment'>): string {
  const e = r.experiment;
  if (!e) return '';
  return `${e.experimentName ?? e.experimentId} · ${e.variant} · #${e.sample + 1}${e.attempt ? ' (set-aside attempt)' : ''}`;
}

/**
 * The model a run used, and the recording it replayed with who wrote its replies — so a demo run says
 * "repairlab-demo-scripted · textkit-1.oneshot.wrong (replies written by hand)", not only the model's name.
 */
export function modelLabel(r: Pick<RunSummary, 'model' | 'recording'>): string {
  return r.recording ? `${r.model} · ${r.recording.name} (${RECORDING_SOURCE_WORDS[r.recording.source]})` : r.model;
}

/** A fork's parent, as the Runs list names it: "fork of run-… at step 3". */
export function forkLabel(forkOf: NonNullable<RunSummary['forkOf']>): string {
  return `fork of ${forkOf.runId} at step ${forkOf.step}`;
}

/** The text a column shows for a run (also what the text filter searches). */
export function cellText(r: RunSummary, column: RunColumn): string {
  switch (column) {
    case 'run': return r.runId;
    case 'bug': return r.bugId;
    case 'experiment': return experimentLabel(r);
    case 'preset': return r.preset;
    case 'config': return r.forkOf ? `${forkLabel(r.forkOf)} · ${configSummary(r)}` : configSummary(r);
    case 'model': return modelLabel(r);
    case 'status': return r.status;
    case 'outcome': return r.reason;
    case 'steps': return `${r.steps} step${r.steps === 1 ? '' : 's'}`;
    case 'cost': return r.costUsd === null ? '—' : `$${r.costUsd.toFixed(4)}`;
    case 'started': return new Date(r.createdAt).toLocaleString();
  }
}

function sortKey(r: RunSummary, column: RunColumn): string | number {
  if (column === 'steps') return r.steps;
  // an unpriced run sorts below every priced one
  if (column === 'cost') return r.costUsd ?? -1;
  if (column === 'started') return r.createdAt;
  // by experiment, then variant, then sample as a number (#10 after #9)
  if (column === 'experiment') return r.experiment ? [r.experiment.experimentName ?? r.experiment.experimentId, r.experiment.variant, String(r.experiment.sample).padStart(6, '0')].join(' ').toLowerCase() : '';
  return cellText(r, column).toLowerCase();
}

/** A stable sort by one column (ties keep the newest first). */
export function sortRuns(runs: readonly RunSummary[], sort: RunSort): RunSummary[] {
  const sign = sort.descending ? -1 : 1;
  return [...runs].sort((a, b) => {
    const x = sortKey(a, sort.column);
    const y = sortKey(b, sort.column);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c !== 0 ? sign * c : b.createdAt.localeCompare(a.createdAt);
  });
}

export function filterRuns(runs: readonly RunSummary[], f: RunFilter): RunSummary[] {
  const text = f.text.trim().toLowerCase();
  return runs.filter(
    (r) =>
      (!f.status || r.status === f.status) &&
      (!f.preset || r.preset === f.preset) &&
      (!text || RUN_COLUMNS.some((c) => cellText(r, c.id).toLowerCase().includes(text))),
  );
}
