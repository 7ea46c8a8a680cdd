// write_fix: apply a RepairAgent patch, validate it on the runner, keep it only when plausible (0 failing tests).
// Settings (ctx.settings):
//   writeFixMode: 'code' (default, released code) | 'paper'            — see patch.ts
//   requireFaultLines: boolean (default: true in 'code' mode with perfect FL) — refuse fixes that leave a perfect-FL line untouched
//   sampleVariants: boolean (default false); variants: number (default 30); variantConcurrency (default 4) — see variants.ts
import type { ToolContext, ToolResult } from '../../contracts/tools.ts';
import { ToolRefusal, failingFirst, formatValidation, normalizePath, splitText } from '../common.ts';
import { parseChanges, type FileChange, type WriteFixMode } from './patch.ts';
import { applyPatch } from './apply-patch.ts';
import { sampleVariants, type VariantOutcome } from './fix-variants.ts';

export function writeFixMode(ctx: ToolContext): WriteFixMode {
  return ctx.settings.writeFixMode === 'paper' ? 'paper' : 'code';
}

/** Perfect-FL lines the fix does not touch (the released code refuses such fixes). */
function untouchedFaultLines(ctx: ToolContext, changes: FileChange[]): { file: string; line: number; kind: string }[] {
  const missing: { file: string; line: number; kind: string }[] = [];
  for (const location of ctx.bug.faultLocalization) {
    const change = changes.find((c) => normalizePath(c.file_name) === location.file);
    const touched = new Set<number>();
    if (change) {
      change.deletions.forEach((d) => touched.add(d));
      change.modifications.forEach((m) => touched.add(m.line_number));
      // an insertion before line n touches the gap after line n-1 (where a fault of omission sits) and line n
      change.insertions.forEach((i) => (touched.add(i.line_number), touched.add(i.line_number - 1)));
    }
    for (const line of location.lines) if (!touched.has(line)) missing.push({ file: location.file, line, kind: location.kind });
  }
  return missing;
}

async function fillInTemplate(ctx: ToolContext, missing: { file: string; line: number; kind: string }[]): Promise<string> {
  const byFile = new Map<string, typeof missing>();
  for (const m of missing) byFile.set(m.file, [...(byFile.get(m.file) ?? []), m]);
  const changes = [];
  for (const [file, lines] of byFile) {
    const source = splitText(await ctx.workspace.read(file)).lines;
    changes.push({
      file_name: file,
      insertions: lines.filter((l) => l.kind === 'insert').map((l) => ({ line_number: l.line + 1, new_lines: ['<missing code>'] })),
      deletions: [],
      modifications: lines.filter((l) => l.kind !== 'insert').map((l) => ({ line_number: l.line, modified_line: source[l.line - 1] ?? '' })),
    });
  }
  return JSON.stringify({ changes }, null, 1);
}

export async function runWriteFix(args: Record<string, unknown>, ctx: ToolContext): Promise<Omit<ToolResult, 'shown'>> {
  const raw = 'changes' in args ? args.changes : 'file_name' in args ? args : undefined;
  if (raw === undefined) throw new ToolRefusal(`missing argument 'changes'.`);
  const changes = parseChanges(raw);
  const mode = writeFixMode(ctx);
  const perfectFl = ctx.settings.faultLocalization !== 'ochiai';
  const requireFaultLines = typeof ctx.settings.requireFaultLines === 'boolean' ? ctx.settings.requireFaultLines : mode === 'code' && perfectFl;
  if (requireFaultLines) {
    const missing = untouchedFaultLines(ctx, changes);
    if (missing.length) {
      const list = missing.map((m) => `${m.file} line ${m.line}`).join(', ');
      throw new ToolRefusal(
        `the fix must change every buggy line from fault localization; it leaves ${list} untouched. ` +
          `Fill in this template (keep the lines you need, change the code) and call write_fix again:\n${await fillInTemplate(ctx, missing)}`,
        { untouched: missing },
      );
    }
  }

  const before = ctx.workspace.overlay();
  // check the patch on a fork first so variants are sampled only for a patch that applies
  const probe = ctx.workspace.fork();
  await applyPatch(probe, changes, mode, ctx);

  let variants: VariantOutcome[] | undefined;
  let variantNote: string | undefined;
  if (ctx.settings.sampleVariants === true) {
    if (!ctx.auxiliaryLlm) variantNote = 'variant sampling skipped: no auxiliary model configured';
    else {
      // variants are a by-product for the experiment log: a failing auxiliary model must not block the agent's own fix
      try {
        variants = await sampleVariants(ctx, changes, mode);
      } catch (err) {
        if (ctx.signal?.aborted) throw err;
        variantNote = `variant sampling failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }

  const applied = await applyPatch(ctx.workspace, changes, mode, ctx);
  const validation = await ctx.validator.validate(ctx.workspace, failingFirst(ctx), { signal: ctx.signal });
  const kept = validation.plausible;
  if (!kept) ctx.workspace.setOverlay(before);
  const output = [
    `Patch applied to ${applied.length} file(s):`,
    ...applied.map((a) => a.diff),
    '',
    'Test results:',
    formatValidation(validation),
    '',
    kept
      ? 'The fix is plausible: all tests pass. It stays in the workspace.'
      : 'The fix did not make all tests pass, so it was reverted: the files are back to their state before this write_fix.',
  ].join('\n');
  return {
    ok: true,
    output,
    validation,
    data: {
      fix: changes,
      mode,
      plausible: kept,
      kept,
      failingTests: validation.failingTests,
      compiled: validation.compiled,
      diff: applied.map((a) => a.diff).join('\n'),
      // the released code skips these silently; recorded here, never shown to the model
      skippedModifications: applied.flatMap((a) => a.skippedModifications.map((s) => ({ file: a.path, ...s }))),
      ...(variants ? { variants, plausibleVariants: variants.filter((v) => v.plausible).length } : {}),
      ...(variantNote ? { variantNote } : {}),
    },
  };
}
