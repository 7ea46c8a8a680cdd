// A bug as the pages list and open it: a row of the bug browser, and the bug page (report, failing test sources,
// fault-localized code). Never the ground truth: only PublicBug fields.
import type { BugCategory, PublicBug } from './bug.ts';

/** Where a bug comes from: shipped with the app, a BugSpec file imported, or made here from a stored repository. */
export type BugOrigin = 'bundled' | 'imported' | 'made';

export interface BugSummary {
  id: string;
  library: string;
  title: string;
  category: BugCategory;
  blameable: boolean;
  defectKinds: string[];
  failingTests: string[];
  /** the repository is already in the local store */
  imported: boolean;
  /** where the bug comes from (made and imported bugs can be deleted) */
  origin?: BugOrigin;
}

export interface CodeExcerpt {
  file: string;
  startLine: number;
  lines: string[];
  /** line numbers (in the file) that fault localization points at */
  highlight: number[];
}

export interface BugView {
  bug: PublicBug;
  failingTestSources: { test: string; file: string; excerpt?: CodeExcerpt; error?: string }[];
  buggyCode: CodeExcerpt[];
}
