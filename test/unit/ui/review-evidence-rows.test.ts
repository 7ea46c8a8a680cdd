// The Review tab's evidence rows (src/components/review-view/evidence-rows.ts): what the rater reads beside an item.
import { describe, expect, it } from 'vitest';
import { PatchEvidence } from '../../../worker/contracts/patch-evidence.ts';
import { evidenceRows } from '../../../src/components/review-view/evidence-rows.ts';

const base = { bugId: 'textkit-1', patchKey: '0123456789abcdef', subject: 'Test truncate', timestamp: 1, testFile: 'src/test/java/org/repairlab/textkit/StringsTest.java', testClass: 'org.repairlab.textkit.StringsTest', at: 'now' };

describe('evidence rows', () => {
  it('a later test the candidate fails is overfitting evidence, with the test and its failure', () => {
    const e = PatchEvidence.parse({ ...base, commit: 'a'.repeat(40), afterFix: true, status: 'compared', fixPasses: 7, fixFails: [], bothPass: ['x.Y::a'], candidateFails: [{ id: 'org.repairlab.textkit.StringsTest::fitsExactly', status: 'fail', message: 'org.junit.ComparisonFailure: expected:<wo[rld]>' }] });
    expect(evidenceRows([e])).toEqual([{ where: 'StringsTest @ aaaaaaa', commit: e.commit, subject: 'Test truncate', afterFix: true, kind: 'overfitting-evidence', summary: 'fix passes 7, candidate fails 1', details: ['fitsExactly: fail — org.junit.ComparisonFailure: expected:<wo[rld]>'] }]);
  });

  it('no difference, the fix failing its own, and a later test that does not compile against the fix', () => {
    const same = PatchEvidence.parse({ ...base, commit: 'b'.repeat(40), afterFix: false, status: 'compared', fixPasses: 3, fixFails: ['x.Y::b'], bothPass: ['x.Y::a', 'x.Y::c', 'x.Y::d'], candidateFails: [] });
    const na = PatchEvidence.parse({ ...base, commit: 'c'.repeat(40), afterFix: false, status: 'not-applicable', reason: 'the later StringsTest does not compile: cannot find symbol center', fixPasses: 0, fixFails: [], bothPass: [], candidateFails: [] });
    const [r1, r2] = evidenceRows([same, na]);
    expect(r1).toMatchObject({ kind: 'no-difference', summary: 'fix passes 3, candidate fails 0 (the fix fails 1 of its own)', details: [], afterFix: false });
    expect(r2).toMatchObject({ kind: 'not-applicable', summary: 'not applicable', details: ['the later StringsTest does not compile: cannot find symbol center'] });
    expect(evidenceRows(undefined)).toEqual([]);
  });
});
