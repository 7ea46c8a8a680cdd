// javac's (and ecj's -Xemacs) command-line output → structured diagnostics (file, line, column, kind, message).
import type { Diagnostic } from '../../worker/contracts/runner-api.ts';

const HEADER = /^(.+?\.java):(\d+): (error|warning): (.*)$/;

/**
 * Parses javac's default format: `path:line: error: message`, optional extra message lines, the source line, then a
 * caret line whose position gives the column. `relativize` maps javac's paths back to repo paths.
 */
export function parseJavacOutput(output: string, relativize: (file: string) => string): Diagnostic[] {
  const lines = output.split(/\r?\n/);
  const out: Diagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = HEADER.exec(lines[i]!);
    if (!m) continue;
    const message = [m[4]!];
    let column: number | undefined;
    for (let j = i + 1; j < lines.length && !HEADER.test(lines[j]!); j++) {
      const caret = /^(\s*)\^+\s*$/.exec(lines[j]!);
      if (caret) {
        column = caret[1]!.length + 1;
        // lines between the header and the source line continue the message (e.g. "symbol: …", "location: …")
        message.push(...lines.slice(i + 1, j - 1).map((l) => l.trim()).filter(Boolean));
        // javac prints details such as "symbol: variable c" / "location: class Calc" after the caret, indented
        let k = j + 1;
        while (k < lines.length && /^\s{2,}\S/.test(lines[k]!) && !HEADER.test(lines[k]!)) message.push(lines[k++]!.trim());
        i = k - 1;
        break;
      }
    }
    const d: Diagnostic = {
      file: relativize(m[1]!),
      line: Number(m[2]),
      kind: m[3] === 'error' ? 'error' : 'warning',
      message: message.join('\n'),
    };
    if (column !== undefined) d.column = column;
    out.push(d);
  }
  return out;
}

/** How much of a compiler's raw output a diagnostic carries when none of it could be parsed. */
export const RAW_OUTPUT_CHARS = 2000;

/**
 * The diagnostics of a failed compile with at least one error: when the compiler failed without an error the
 * runner could read (output the parser does not know, a crash, memory, the wall clock), one error without a file
 * says why, so a report never reads "Compilation failed: 0 error(s)" with nothing after it.
 */
export function withFailureReason(diagnostics: Diagnostic[], reason: string): Diagnostic[] {
  if (diagnostics.some((d) => d.kind === 'error')) return diagnostics;
  return [...diagnostics, { file: '', line: 0, kind: 'error', message: reason }];
}

/** Why a compile failed when it left no error to show: from how the run stopped. */
export function compileFailureReason(answer: { stopped: string; crashReason?: string }): string {
  if (answer.stopped === 'wall-clock') return 'compilation did not finish within the wall clock: raise limits.wallClockMs, or make the patch smaller';
  if (answer.crashReason) return `the compiler failed: ${answer.crashReason.slice(0, RAW_OUTPUT_CHARS)}`;
  return 'the compiler failed without reporting an error the runner could read (an internal compiler failure, e.g. a source too large or too deeply nested for it); validate with path "cold" to see the compiler\'s own output';
}
