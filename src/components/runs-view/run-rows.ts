// The Runs list's rows as data: how a run's configuration reads, and sorting and filtering by column.
// Kept apart from the element so the rules are tested without a browser.
import type { RunSummary } from '../../../worker/contracts/runs.ts';

export type RunColumn = 'bug' | 'preset' | 'config' | 'model' | 'status' | 'outcome' | 'steps' | 'cost' | 'started';

export const RUN_COLUMNS: { id: RunColumn; label: string }[] = [
  { id: 'bug', label: 'Bug' },
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

/** A fork's parent, as the Runs list names it: "fork of run-… at step 3". */
export function forkLabel(forkOf: NonNullable<RunSummary['forkOf']>): string {
  return `fork of ${forkOf.runId} at step ${forkOf.step}`;
}

/** The text a column shows for a run (also what the text filter searches). */
export function cellText(r: RunSummary, column: RunColumn): string {
  switch (column) {
    case 'bug': return r.bugId;
    case 'preset': return r.preset;
    case 'config': return r.forkOf ? `${forkLabel(r.forkOf)} · ${configSummary(r)}` : configSummary(r);
    case 'model': return r.model;
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
