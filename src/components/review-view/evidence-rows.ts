// The Review tab's evidence beside an item (read-only; docs/formats/labels.md "Evidence"): one row per later revision
// of a test class run on the candidate and the developers' fix. Evidence helps the rater; it is never a label.
import type { PatchEvidence } from '../../../worker/contracts/patch-evidence.ts';

export interface EvidenceRow {
  /** "StringsTest @ abc1234" */
  where: string;
  commit: string;
  subject: string;
  /** after the fix (a descendant of its commit), or on a branch beside it */
  afterFix: boolean;
  kind: 'overfitting-evidence' | 'no-difference' | 'not-applicable';
  /** "fix passes 12, candidate fails 2" or "not applicable" */
  summary: string;
  /** the failing tests' method names with their first failure line, or the compiler's message */
  details: string[];
}

export function evidenceRows(evidence: readonly PatchEvidence[] | undefined): EvidenceRow[] {
  return (evidence ?? []).map((e) => {
    const where = `${e.testClass.split('.').pop()} @ ${e.commit.slice(0, 7)}`;
    const common = { where, commit: e.commit, subject: e.subject, afterFix: e.afterFix };
    if (e.status === 'not-applicable') return { ...common, kind: 'not-applicable', summary: 'not applicable', details: [e.reason ?? "does not compile against the developers' fix"] };
    return {
      ...common,
      kind: e.candidateFails.length ? 'overfitting-evidence' : 'no-difference',
      summary: `fix passes ${e.fixPasses}, candidate fails ${e.candidateFails.length}${e.fixFails.length ? ` (the fix fails ${e.fixFails.length} of its own)` : ''}`,
      details: e.candidateFails.map((f) => `${f.id.split('::')[1] ?? f.id}: ${f.status}${f.message ? ` — ${f.message}` : ''}`),
    };
  });
}
