// Perfect fault localization for run_fault_localization (RepairAgent's default). The Ochiai alternative ranks lines
// with worker/runner-client/ochiai.ts over the runner's coverage (see index.ts).
import type { ToolContext } from '../../contracts/tools.ts';
import { requireJava } from '../../java/loader.ts';
import { splitText } from '../common.ts';

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
        const entry = `${location.file}, class ${method.className}, lines ${method.start}-${method.end}: ${method.signature}`;
        if (!methods.includes(entry)) methods.push(entry);
      }
    }
  }
  if (methods.length) out.push('', 'Buggy method(s):', ...methods);
  return { text: out.join('\n'), lines };
}
