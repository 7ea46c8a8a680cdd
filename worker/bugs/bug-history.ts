// The history explorer's worker side: blame of one of a bug's fault-localized files at the revision HAFixAgent's
// history reads (the history base: the buggy commit, or the original revision a reconstructed buggy commit stands
// on), and the HAFixAgent history sections exactly as a run's prompt gets them — the strategy is resolved as a run
// resolves it and its toolSettings go through historyRequest + historyContext, the two calls of the run's
// contextProvider (worker/history/run-context.ts).
import type { Engine } from './engine.ts';
import type { BugSpec } from '../contracts/bug.ts';
import { resolveStrategy } from '../strategies/presets/index.ts';
import { blame } from '../history/blame.ts';
import { describeCommit, type BlameCommit } from '../history/extractor.ts';
import { HistoryBase } from '../history/history-base.ts';
import { HISTORY_HEURISTICS, historyContext, type HistoryHeuristic } from '../history/heuristics.ts';
import { historyRequest } from '../history/run-context.ts';

/** The preset whose history sections the explorer shows. */
export const HISTORY_PRESET = 'hafixagent';

export interface BlameGutterLine {
  /** 1-based line at the history base */
  line: number;
  text: string;
  commit: string;
  /** the file's path in `commit` (differs across renames): the path commitDetails needs */
  path: string;
  origLine: number;
}

export interface BugFileBlame {
  bugId: string;
  repoId: string;
  /** the revision blamed: the bug's history base */
  revision: string;
  buggyCommit: string;
  /** the bug's fault-localized files, in fault-localization order */
  files: string[];
  file: string;
  lines: BlameGutterLine[];
  /** every commit the gutter names, by oid */
  commits: Record<string, BlameCommit>;
  /** fault-localized lines of `file`, as lines of the history base (lines the reconstruction added are left out) */
  faultLines: number[];
}

export interface HistorySectionView {
  heuristic: HistoryHeuristic;
  /** the section as the prompt's `history_context` gets it ('' when there is none) */
  text: string;
  emptyReason?: string;
  /** the blame commit the section describes */
  commit?: BlameCommit;
}

type EngineParts = Pick<Engine, 'catalog' | 'ensureRepository'>;

function faultFiles(bug: BugSpec): string[] {
  return [...new Set(bug.faultLocalization.map((f) => f.file))];
}

/** Blame of `file` (default: the first fault-localized file) of bug `bugId` at its history base. */
export async function blameBugFile(engine: EngineParts, bugId: string, file?: string): Promise<BugFileBlame> {
  const bug = await engine.catalog.bug(bugId);
  const files = faultFiles(bug);
  const chosen = file ?? files[0];
  if (!chosen) throw new Error(`Bug ${bugId} has no fault-localized file, so the history explorer has nothing to blame.`);
  if (!files.includes(chosen)) throw new Error(`${chosen} is not a fault-localized file of bug ${bugId}: choose one of ${files.join(', ')}.`);
  const session = await engine.ensureRepository(bug);
  const base = new HistoryBase(session, bug);
  const bytes = await session.readFileAt(base.revision, chosen);
  if (!bytes) throw new Error(`${chosen} does not exist at ${bugId}'s history base ${base.revision.slice(0, 12)}, so it has no blame.`);
  const texts = new TextDecoder().decode(bytes).split('\n');
  const blamed = await blame(session, chosen, base.revision);
  const commits: Record<string, BlameCommit> = {};
  for (const oid of new Set(blamed.map((b) => b.commit))) commits[oid] = describeCommit(await session.readCommit(oid));
  const faultLines = new Set<number>();
  for (const fl of bug.faultLocalization.filter((f) => f.file === chosen)) {
    for (const line of fl.lines) {
      const mapped = await base.mapLine(chosen, line);
      if (mapped !== undefined) faultLines.add(mapped);
    }
  }
  return {
    bugId,
    repoId: bug.repoId,
    revision: base.revision,
    buggyCommit: bug.buggyCommit,
    files,
    file: chosen,
    lines: blamed.map((b) => ({ line: b.line, text: texts[b.line - 1] ?? '', commit: b.commit, path: b.path, origLine: b.origLine })),
    commits,
    faultLines: [...faultLines].sort((a, b) => a - b),
  };
}

/**
 * One HAFixAgent history section of bug `bugId` as a run of the preset with `variants` (e.g. ['code'], the released
 * code's one blamed line) plus the heuristic's own variant would put it in its prompt. `ensureJava` loads the Java
 * parser fn_all and fn_pair need.
 */
export async function historySection(
  engine: EngineParts,
  ensureJava: () => Promise<unknown>,
  bugId: string,
  heuristic: HistoryHeuristic,
  variants: string[] = [],
): Promise<HistorySectionView> {
  if (!HISTORY_HEURISTICS.includes(heuristic)) throw new Error(`Unknown history heuristic ${JSON.stringify(heuristic)}: use one of ${HISTORY_HEURISTICS.join(', ')}.`);
  const strategy = resolveStrategy(HISTORY_PRESET, { variants: [...variants, heuristic] });
  const request = historyRequest(strategy.toolSettings);
  if (!request) throw new Error(`The ${HISTORY_PRESET} variants ${JSON.stringify(variants)} turn the history section off: leave them out.`);
  const bug = await engine.catalog.bug(bugId);
  const [session] = await Promise.all([engine.ensureRepository(bug), ensureJava()]);
  const context = await historyContext(session, bug, request.heuristic, request.options);
  return {
    heuristic,
    text: context.text,
    ...(context.emptyReason ? { emptyReason: context.emptyReason } : {}),
    ...(context.extraction.primary ? { commit: context.extraction.primary.commit } : {}),
  };
}
