// write_fix variant sampling (RepairAgent's released code: "mutants"). Before the agent's own fix is tested, a separate
// prompt asks the auxiliary model for N variants of the fix over the same target lines; each variant is parsed,
// deduplicated against the agent's fix and earlier variants, and validated on its own fork of the workspace — all in
// one batch request when the validator takes one (the runner then compiles variants of one method together), else a
// few in parallel. Results go to ToolResult.data only: the agent never sees them.
import { jsonrepair } from 'jsonrepair';
import type { ToolContext } from '../../contracts/tools.ts';
import { failingFirst, splitText } from '../common.ts';
import { canonicalPatch, parseChanges, PATCH_EXAMPLE, type FileChange, type WriteFixMode } from './patch.ts';
import { applyPatch } from './apply-patch.ts';

export const DEFAULT_VARIANTS = 30;
const DEFAULT_CONCURRENCY = 4;
const CONTEXT_LINES = 3;

export interface VariantOutcome {
  index: number;
  changes?: FileChange[];
  /** 'duplicate' and 'invalid' variants are not run */
  status: 'tested' | 'duplicate' | 'invalid' | 'does-not-apply' | 'error';
  plausible: boolean;
  compiled?: boolean;
  failingTests?: string[];
  error?: string;
}

async function targetLines(ctx: ToolContext, changes: FileChange[]): Promise<string> {
  const parts: string[] = [];
  for (const change of changes) {
    const lines = splitText(await ctx.workspace.read(change.file_name)).lines;
    const touched = [...change.deletions, ...change.modifications.map((m) => m.line_number), ...change.insertions.map((i) => i.line_number)];
    const from = Math.max(1, Math.min(...touched) - CONTEXT_LINES);
    const to = Math.min(lines.length, Math.max(...touched) + CONTEXT_LINES);
    parts.push(`${change.file_name}, lines ${from}-${to}:`, ...lines.slice(from - 1, to).map((l, i) => `${from + i}: ${l}`));
  }
  return parts.join('\n');
}

export function variantPrompt(n: number, target: string, fix: FileChange[], failingTests: string[]): { system: string; user: string } {
  return {
    system: 'You write alternative candidate patches for a Java bug. Answer with JSON only.',
    user: [
      `Failing tests: ${failingTests.join(', ')}`,
      'The code around the buggy lines:',
      target,
      '',
      'A candidate fix in write_fix format (line numbers refer to the original file):',
      JSON.stringify({ changes: fix }),
      '',
      `Write ${n} different variants of this fix that change the same lines in other plausible ways (other operators, operands, ` +
        'conditions, inserted checks). Use the same format and the same original line numbers. ' +
        `Answer with a JSON list of ${n} objects, each like ${PATCH_EXAMPLE}`,
    ].join('\n'),
  };
}

/** Extract a list of patches from the model's reply (tolerates fences, prose around the JSON and broken JSON). */
export function parseVariantList(reply: string): unknown[] {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply)?.[1] ?? reply;
  const start = fenced.indexOf('[');
  const text = start >= 0 ? fenced.slice(start, fenced.lastIndexOf(']') + 1 || undefined) : fenced;
  try {
    const value: unknown = JSON.parse(jsonrepair(text));
    if (Array.isArray(value)) return value;
    if (value && typeof value === 'object' && Array.isArray((value as { variants?: unknown }).variants)) return (value as { variants: unknown[] }).variants;
    return [value];
  } catch {
    return [];
  }
}

export async function sampleVariants(ctx: ToolContext, fix: FileChange[], mode: WriteFixMode): Promise<VariantOutcome[]> {
  const llm = ctx.auxiliaryLlm;
  if (!llm) return [];
  const n = typeof ctx.settings.variants === 'number' && ctx.settings.variants > 0 ? Math.floor(ctx.settings.variants) : DEFAULT_VARIANTS;
  const concurrency = typeof ctx.settings.variantConcurrency === 'number' && ctx.settings.variantConcurrency > 0 ? Math.floor(ctx.settings.variantConcurrency) : DEFAULT_CONCURRENCY;
  const prompt = variantPrompt(n, await targetLines(ctx, fix), fix, ctx.bug.failingTests);
  const reply = await llm.complete({
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    purpose: 'write_fix-variants',
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });

  const seen = new Set([canonicalPatch(fix)]);
  const outcomes: VariantOutcome[] = parseVariantList(reply.content).slice(0, n).map((raw, index) => {
    try {
      const changes = parseChanges(raw);
      const key = canonicalPatch(changes);
      if (seen.has(key)) return { index, changes, status: 'duplicate', plausible: false };
      seen.add(key);
      return { index, changes, status: 'tested', plausible: false };
    } catch (err) {
      return { index, status: 'invalid', plausible: false, error: err instanceof Error ? err.message : String(err) };
    }
  });

  const tested = outcomes.filter((o) => o.status === 'tested');
  const record = (o: VariantOutcome, result: { plausible: boolean; compiled: boolean; failingTests: string[] }) => {
    o.plausible = result.plausible;
    o.compiled = result.compiled;
    o.failingTests = result.failingTests;
  };
  const failed = (o: VariantOutcome, err: unknown) => {
    if (ctx.signal?.aborted) throw err;
    o.status = 'error';
    o.error = err instanceof Error ? err.message : String(err);
  };
  // every variant on its own fork of the workspace
  const forks = new Map<VariantOutcome, ReturnType<typeof ctx.workspace.fork>>();
  for (const o of tested) {
    const fork = ctx.workspace.fork();
    try {
      await applyPatch(fork, o.changes!, mode, ctx);
      forks.set(o, fork);
    } catch (err) {
      o.status = 'does-not-apply';
      o.error = err instanceof Error ? err.message : String(err);
    }
  }
  const runnable = [...forks.keys()];
  // one batch request when the validator takes one (the runner compiles variants of one method together)
  if (ctx.validator.validateMany && runnable.length > 1) {
    try {
      const results = await ctx.validator.validateMany(runnable.map((o) => forks.get(o)!), failingFirst(ctx), { signal: ctx.signal });
      runnable.forEach((o, i) => record(o, results[i]!));
    } catch (err) {
      for (const o of runnable) failed(o, err);
    }
    return outcomes;
  }
  const queue = [...runnable];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      try {
        record(next, await ctx.validator.validate(forks.get(next)!, failingFirst(ctx), { signal: ctx.signal }));
      } catch (err) {
        failed(next, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return outcomes;
}
