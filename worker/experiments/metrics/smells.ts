// Passerine's four trajectory smells (Rondon et al., "Evaluating Agent-based Program Repair at Google", §IV), over
// the agent's own commands (steps whose reply held a command; a reply without one neither extends nor breaks a run;
// the strategy's startup commands are not the agent's and are not looked at). Definitions: docs/metrics.md.
import type { FileRead, ReadPart, StepCommand } from './commands.ts';

export const SMELLS = ['NO_TEST', 'NO_OP_CAT', 'CONSECUTIVE_SEARCH', 'CONSECUTIVE_EDITS'] as const;
export type Smell = (typeof SMELLS)[number];

/** How often each smell occurred in one trajectory (0: absent). */
export type SmellCounts = Record<Smell, number>;

/** A run of this many commands in a row makes CONSECUTIVE_SEARCH / CONSECUTIVE_EDITS (the paper's "at least three"). */
export const CONSECUTIVE_THRESHOLD = 3;

function covers(earlier: ReadPart, later: ReadPart): boolean {
  if (earlier.kind === 'all') return true;
  if (earlier.kind === 'lines' && later.kind === 'lines') return earlier.start <= later.start && earlier.end >= later.end;
  return earlier.kind === 'named' && later.kind === 'named' && earlier.name === later.name;
}

/**
 * NO_TEST: no command ran tests (a test command refused before running does not count). NO_OP_CAT: number of reads that showed nothing new — the same file (or a part of it
 * an earlier read already showed) read again with no change to that file in between. CONSECUTIVE_SEARCH: number of
 * maximal runs of ≥ 3 search commands in a row. CONSECUTIVE_EDITS: number of maximal runs of ≥ 3 commands in a row
 * that each edit one same file.
 */
export function trajectorySmells(commands: readonly StepCommand[]): SmellCounts {
  const cmds = commands.filter((c) => c.isCommand);
  const counts: SmellCounts = { NO_TEST: cmds.some((c) => c.ran && c.kinds.has('test')) ? 0 : 1, NO_OP_CAT: 0, CONSECUTIVE_SEARCH: 0, CONSECUTIVE_EDITS: 0 };

  // reads since each file's last change
  const shown = new Map<string, FileRead[]>();
  for (const c of cmds) {
    if (c.ok) {
      for (const read of c.reads) {
        const before = shown.get(read.file) ?? [];
        if (before.some((r) => covers(r.part, read.part))) counts.NO_OP_CAT++;
        shown.set(read.file, [...before, read]);
      }
    }
    for (const file of c.changed) shown.delete(file);
  }

  let searchRun = 0;
  let editRuns = new Map<string, number>();
  for (const c of cmds) {
    searchRun = c.kinds.has('search') ? searchRun + 1 : 0;
    if (searchRun === CONSECUTIVE_THRESHOLD) counts.CONSECUTIVE_SEARCH++;
    const next = new Map<string, number>();
    for (const file of c.edits) {
      const run = (editRuns.get(file) ?? 0) + 1;
      next.set(file, run);
      if (run === CONSECUTIVE_THRESHOLD) counts.CONSECUTIVE_EDITS++;
    }
    editRuns = next;
  }
  return counts;
}
