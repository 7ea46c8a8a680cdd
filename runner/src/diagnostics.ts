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
