// Passerine's localization measure: the distance between two files as nodes of the repository's directory tree —
// the number of edges on the path between them (up from one file to the deepest common directory, down to the
// other). The same file is 0, two files of one directory 2, `a/X.java` and `a/b/Y.java` 3.

function segments(path: string): string[] {
  return path.replace(/^\.?\/+/, '').split('/').filter(Boolean);
}

export function fileDistance(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  let common = 0;
  while (common < x.length && common < y.length && x[common] === y[common]) common++;
  return x.length - common + (y.length - common);
}

export interface LocalizationDistance {
  /** distance from the edited file closest to a fixed file (0: the agent edited a file the developers fixed) */
  min: number;
  /** mean over the edited files of the distance to the nearest fixed file */
  mean: number;
}

/** null when the agent edited nothing or the fix's files are unknown. */
export function localizationDistance(edited: readonly string[], fixed: readonly string[]): LocalizationDistance | null {
  if (!edited.length || !fixed.length) return null;
  const nearest = edited.map((e) => Math.min(...fixed.map((f) => fileDistance(e, f))));
  return { min: Math.min(...nearest), mean: nearest.reduce((s, d) => s + d, 0) / nearest.length };
}
