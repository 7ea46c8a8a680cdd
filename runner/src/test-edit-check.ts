// The request's testEdits policy, checked before anything is compiled or run: an overlay may not change the tests
// that define the bug unless the caller says it may (worker/contracts/test-edits.ts has the rule).
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import { describeTestEdit, refusedTestEdits, type TestEdits } from '../../worker/contracts/test-edits.ts';
import { HttpError } from './errors.ts';

/** Throws 400 `test-edit` naming each refused file, why, and what the caller can do instead. */
export function checkTestEdits(overlay: Record<string, string | null>, layout: ProjectLayout, basePaths: ReadonlySet<string>, policy: TestEdits): void {
  const refused = refusedTestEdits(overlay, layout, basePaths, policy);
  if (refused.length === 0) return;
  const shadowOnly = refused.every((r) => r.kind === 'shadow');
  const allowed =
    policy === 'add'
      ? 'under testEdits "add" a patch may add test files of its own, but not edit, delete, replace or hide existing ones'
      : 'under testEdits "none" (the default) a patch may change program files only, and no new file may take the name of a test';
  const advice = shadowOnly
    ? 'Give the new file a name no existing class or resource has.'
    : policy === 'none'
      ? 'Leave the tests as they are; send testEdits "add" to add new test files, or "any" only for a trusted patch (a person\'s own, never a model\'s).'
      : 'Leave the existing tests as they are; send testEdits "any" only for a trusted patch (a person\'s own, never a model\'s).';
  throw new HttpError(
    400,
    'test-edit',
    `The overlay ${refused.map(describeTestEdit).join('; ')}. The tests define the bug: ${allowed}. ${advice}`,
    { files: refused },
  );
}
