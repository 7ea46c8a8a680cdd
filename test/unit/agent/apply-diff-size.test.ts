// A model's diff that would make an overlay the runner refuses (over worker/contracts/overlay-limits.ts) is refused
// when it is applied, naming the limit, the size and what to do, and the workspace stays as it was (issue 27).
import { describe, expect, it } from 'vitest';
import { applyUnifiedDiff, PatchApplyError } from '../../../worker/diff/apply-diff.ts';
import { MAX_OVERLAY_BYTES, MAX_OVERLAY_FILE_BYTES } from '../../../worker/contracts/overlay-limits.ts';
import { demoWorkspace, GOOD_DIFF, SRC, SRC_TEXT } from './fixtures.ts';

/** A diff that adds `lines` lines of 100 characters after the class's first line. */
function addingLines(lines: number): string {
  const added = Array.from({ length: lines }, (_, i) => `+// ${String(i).padEnd(96, 'x')}`);
  return [`--- a/${SRC}`, `+++ b/${SRC}`, `@@ -1,1 +1,${lines + 1} @@`, ' package org.demo;', ...added, ''].join('\n');
}

describe('applyUnifiedDiff: size limits', () => {
  it('refuses a diff over the overlay limit before parsing it, and changes nothing', async () => {
    const ws = demoWorkspace();
    const diff = addingLines(Math.ceil(MAX_OVERLAY_BYTES / 100) + 10);
    const err = await applyUnifiedDiff(ws, diff).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PatchApplyError);
    expect((err as Error).message).toMatch(/the diff is 8\.\d MB \(\d+ bytes\), over the 8 MB a patch may change; write a diff of only the lines to change/);
    expect(await ws.read(SRC)).toBe(SRC_TEXT);
  });

  it('refuses a diff that makes a file over the per-file limit, naming the file', async () => {
    const ws = demoWorkspace();
    const err = await applyUnifiedDiff(ws, addingLines(Math.ceil(MAX_OVERLAY_FILE_BYTES / 100) + 10)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PatchApplyError);
    expect((err as Error).message).toContain(`the patched files are too large to validate: the overlay's file "${SRC}" is 2.0 MB`);
    expect((err as Error).message).toContain('over the limit of 2 MB per changed file');
    expect(await ws.read(SRC)).toBe(SRC_TEXT);
  });

  it('applies ordinary diffs, including ones that add a few hundred KB', async () => {
    const ws = demoWorkspace();
    await applyUnifiedDiff(ws, GOOD_DIFF);
    const big = demoWorkspace();
    await applyUnifiedDiff(big, addingLines(4000));
    expect((await big.read(SRC)).length).toBeGreaterThan(400_000);
  });
});
