// Tools the engine itself provides (no toolkit needed): apply_patch for the one-shot strategy.
import type { AgentTool } from './agent-tool.ts';
import { applyUnifiedDiff, PatchApplyError } from '../diff/apply-diff.ts';
import { testEditRefusalSince } from './common.ts';
import { summarizeValidation } from './validation-summary.ts';

/** Apply a unified diff to the overlay (from the buggy version unless settings.revertBeforeApply is false) and run the failing tests first. */
export const applyPatchTool: AgentTool = {
  definition: {
    name: 'apply_patch',
    toolkit: 'engine',
    description: 'Apply a unified diff to the buggy version and run the tests (failing tests first).',
    args: [{ name: 'diff', type: 'string', description: 'unified diff with --- a/<path>, +++ b/<path> and @@ hunks', required: true }],
    follows: 'RepairLab one-shot baseline',
  },
  async run(args, ctx) {
    const diff = typeof args.diff === 'string' ? args.diff : '';
    if (ctx.settings.revertBeforeApply !== false) ctx.workspace.revert();
    const before = ctx.workspace.overlay();
    let files: string[];
    let rectifications: unknown[];
    try {
      ({ files, rectifications } = await applyUnifiedDiff(ctx.workspace, diff));
      // a diff that changes the bug's tests is not applied (ctx.testEdits; the runner would refuse it too)
      const refused = await testEditRefusalSince(ctx, before);
      if (refused) {
        ctx.workspace.setOverlay(before);
        throw new PatchApplyError(refused);
      }
    } catch (err) {
      if (err instanceof PatchApplyError) {
        const msg = `The patch was not applied: ${err.message}`;
        return { ok: false, output: msg, shown: msg, data: { applyError: err.message } };
      }
      throw err;
    }
    const validation = await ctx.validator.validate(ctx.workspace, { mode: 'failing-first', tests: ctx.bug.failingTests }, { signal: ctx.signal });
    const summary = summarizeValidation(validation);
    const output = `Patch applied to ${files.join(', ')}.\n${summary}\n\n${validation.report}`.trim();
    return {
      ok: true,
      output,
      shown: `Patch applied to ${files.join(', ')}.\n${summary}`,
      validation,
      data: { files, rectifications },
    };
  },
};
