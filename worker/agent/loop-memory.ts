// What the loop remembers between cycles, and how a record keeps it so a saved run can be continued.
import type { StrategySpec } from '../contracts/strategy.ts';
import type { Overlay } from '../contracts/workspace.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { PromptMemory } from '../strategies/prompt.ts';

/** Why the loop ended (the outcome's status and reason are made from it). */
export type End = { kind: 'finished' | 'budget' | 'stuck' | 'error' | 'user-stop'; reason: string };

/** Arrays here only grow and their entries are not changed after being pushed (see memorySnapshot). */
export interface LoopMemory extends PromptMemory {
  state: string;
  formatErrors: number;
  validations: number;
  lastErrorSignature?: string;
  seenCommands: string[];
  /** the best validated candidate, for tools that validate and revert (RepairAgent's write_fix) */
  plausibleOverlay?: Overlay;
  wallMsBefore: number;
  /** set when the loop has decided to end, before its last record: a run continued from that record only finishes */
  ended?: End;
  /** the startup commands have yet to run (the runner was unavailable during them) */
  startupPending?: boolean;
}

/** A fresh memory, or the one a saved run left off with. */
export function startMemory(spec: StrategySpec, resume: Trajectory | undefined): LoopMemory & { bannedCommands: string[] } {
  const memory: LoopMemory = resume?.resume
    ? { ...(structuredClone(resume.resume.memory) as unknown as LoopMemory), state: resume.resume.state }
    : { state: spec.startState, history: [], gathered: [], bannedCommands: [], formatErrors: 0, validations: 0, seenCommands: [], wallMsBefore: 0 };
  memory.bannedCommands ??= [];
  return memory as LoopMemory & { bannedCommands: string[] };
}

/**
 * The memory as the record keeps it. Its arrays only grow and their entries are never changed once pushed (objects
 * in it are replaced, not edited), so copying the arrays — not a deep clone — keeps the snapshot as it was.
 */
export function memorySnapshot(memory: LoopMemory, wallMs: number): LoopMemory {
  return {
    ...memory,
    history: [...memory.history],
    gathered: [...memory.gathered],
    seenCommands: [...memory.seenCommands],
    ...(memory.bannedCommands ? { bannedCommands: [...memory.bannedCommands] } : {}),
    wallMsBefore: wallMs,
  };
}
