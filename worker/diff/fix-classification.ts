// HAFixAgent's bug categories and blameability, derived from a fix's unified diff.
//   SL   — the fix edits exactly one line (one hunk, one file)
//   SH   — one contiguous hunk in one file, two or more line changes
//   SFMH — two or more hunks, all in one file
//   MFMH — hunks in two or more files
//   blameable — at least one fixed line is a deletion/modification of a buggy line (git blame applies);
//   blameless — the fix only inserts lines or files.
// Only program files count (test changes are not part of the fix). Pure: runs in the browser and Node.
import type { BugCategory } from '../contracts/bug.ts';
import { changeBlocks, filePath, parseUnifiedDiff, type ChangeBlock } from './unified-diff-parse.ts';

export interface ClassifyOptions {
  /** Decides which files are program files. Default: `.java` files outside test directories. */
  isProgramFile?: (path: string) => boolean;
}

export interface Classification {
  category: BugCategory;
  blameable: boolean;
  files: string[];
  hunks: number;
  /** per hunk: max(removed, added) — the number of edited lines */
  lineChanges: number[];
}

const TEST_DIR = /(^|\/)(src\/test|test|tests)\//;

export function isDefaultProgramFile(path: string): boolean {
  return path.endsWith('.java') && !TEST_DIR.test(path);
}

export class ClassifyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClassifyError';
  }
}

export function classifyFix(diff: string, options: ClassifyOptions = {}): Classification {
  const isProgram = options.isProgramFile ?? isDefaultProgramFile;
  const perFile: { path: string; blocks: ChangeBlock[] }[] = [];
  for (const file of parseUnifiedDiff(diff)) {
    const path = filePath(file);
    if (!isProgram(path)) continue;
    const blocks = changeBlocks(file);
    if (blocks.length > 0) perFile.push({ path, blocks });
  }
  if (perFile.length === 0) {
    throw new ClassifyError('the fix diff changes no program file (only tests or nothing): cannot classify it');
  }
  const blocks = perFile.flatMap((f) => f.blocks);
  const lineChanges = blocks.map((b) => Math.max(b.removed.length, b.added.length));
  const blameable = blocks.some((b) => b.removed.length > 0);
  let category: BugCategory;
  if (perFile.length > 1) category = 'MFMH';
  else if (blocks.length > 1) category = 'SFMH';
  else category = lineChanges[0] === 1 ? 'SL' : 'SH';
  return { category, blameable, files: perFile.map((f) => f.path), hunks: blocks.length, lineChanges };
}
