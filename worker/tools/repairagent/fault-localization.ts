// Fault localization for run_fault_localization: perfect FL from the bug (RepairAgent's default) or
// spectrum-based Ochiai over the runner's per-test line coverage (the paper's "realistic FL" ablation used GZoltar).
import type { ValidationResult } from '../../contracts/runner-api.ts';
import type { ToolContext } from '../../contracts/tools.ts';
import { requireJava } from '../../java/loader.ts';
import { splitText } from '../common.ts';

export interface SuspiciousLine {
  file: string;
  line: number;
  score: number;
  /** failed tests covering the line / passed tests covering it */
  ef: number;
  ep: number;
}

/**
 * Ochiai suspiciousness: ef / sqrt(totalFailed · (ef + ep)). Lines never covered by a failing test score 0 and are dropped.
 * Ties keep file/line order so the ranking is deterministic.
 * (Implemented here because worker/runner-client/ had no Ochiai function when this was written.)
 */
export function ochiaiRanking(coverage: NonNullable<ValidationResult['coverage']>, isProgramFile: (path: string) => boolean = () => true): SuspiciousLine[] {
  const totalFailed = coverage.filter((c) => !c.passed).length;
  if (totalFailed === 0) return [];
  const counts = new Map<string, { ef: number; ep: number }>();
  for (const run of coverage) {
    for (const [file, lines] of Object.entries(run.lines)) {
      if (!isProgramFile(file)) continue;
      for (const line of new Set(lines)) {
        const key = `${file}\u0000${line}`;
        const entry = counts.get(key) ?? { ef: 0, ep: 0 };
        if (run.passed) entry.ep++;
        else entry.ef++;
        counts.set(key, entry);
      }
    }
  }
  const ranked: SuspiciousLine[] = [];
  for (const [key, { ef, ep }] of counts) {
    if (ef === 0) continue;
    const [file, line] = key.split('\u0000') as [string, string];
    ranked.push({ file, line: Number(line), ef, ep, score: ef / Math.sqrt(totalFailed * (ef + ep)) });
  }
  return ranked.sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** RepairAgent-style perfect FL: `file#line#code` per buggy line, `#FAULT_OF_OMISSION` for missing code, plus the buggy methods. */
export async function perfectFaultLocalization(ctx: ToolContext): Promise<{ text: string; lines: { file: string; line: number; omission: boolean }[] }> {
  const out: string[] = ['Fault localization (perfect: the lines the developer fix changed). Format: file#line#code'];
  const lines: { file: string; line: number; omission: boolean }[] = [];
  const methods: string[] = [];
  for (const location of ctx.bug.faultLocalization) {
    const source = await ctx.workspace.read(location.file);
    const fileLines = splitText(source).lines;
    for (const line of location.lines) {
      const omission = location.kind === 'insert';
      lines.push({ file: location.file, line, omission });
      const code = fileLines[line - 1] ?? '';
      out.push(`${location.file}#${line}#${code.trim()}${omission ? '#FAULT_OF_OMISSION (code is missing right after this line)' : ''}`);
    }
    if (location.file.endsWith('.java')) {
      const method = requireJava().enclosingMethod(source, location.lines[0]!, { outermost: true });
      if (method) {
        const entry = `${location.file}: ${method.className}.${method.signature} (lines ${method.start}-${method.end})`;
        if (!methods.includes(entry)) methods.push(entry);
      }
    }
  }
  if (methods.length) out.push('', 'Buggy method(s):', ...methods);
  return { text: out.join('\n'), lines };
}
