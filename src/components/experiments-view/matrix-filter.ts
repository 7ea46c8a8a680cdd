// promptfoo's result views over an experiment's matrix, one row per bug: all bugs; failures (a sample ended without a
// plausible patch: not plausible, out of budget, or in an infrastructure error — an error is not a success, so a bug
// the endpoint could not serve is a failure the matrix shows, as the rates count it); errors (a sample in an
// infrastructure error: what Retry would run again); passes (a sample is plausible); and the bugs where the variants
// differ (some variant fixes the bug, i.e. has a plausible sample, and some other does not — the UpSet plot's sets
// other than "none" and "all").
import type { CellRecord } from '../../../worker/contracts/experiment.ts';

export const MATRIX_VIEWS = ['all', 'failures', 'errors', 'passes', 'differ'] as const;
export type MatrixView = (typeof MATRIX_VIEWS)[number];

export const VIEW_LABEL: Record<MatrixView, string> = { all: 'All', failures: 'Failures', errors: 'In error', passes: 'Passes', differ: 'Variants differ' };

const FAILED = new Set<CellRecord['status']>(['not-plausible', 'budget', 'infrastructure-error']);

/** The bugs (in the given order) the view shows. */
export function bugsInView(bugIds: readonly string[], variants: readonly string[], cells: readonly CellRecord[], view: MatrixView): string[] {
  if (view === 'all') return [...bugIds];
  const byBug = new Map<string, CellRecord[]>();
  for (const c of cells) byBug.set(c.bugId, [...(byBug.get(c.bugId) ?? []), c]);
  const keep = (bug: string): boolean => {
    const mine = byBug.get(bug) ?? [];
    if (view === 'failures') return mine.some((c) => FAILED.has(c.status));
    if (view === 'errors') return mine.some((c) => c.status === 'infrastructure-error');
    if (view === 'passes') return mine.some((c) => c.status === 'plausible');
    const fixing = variants.filter((v) => mine.some((c) => c.variant === v && c.status === 'plausible')).length;
    return fixing > 0 && fixing < variants.length;
  };
  return bugIds.filter(keep);
}
