// Just enough Java reading for prompts that need no toolkit (one-shot): the source of a test method
// and numbered excerpts around fault-localization lines. Brace matching skips strings and comments;
// the toolkits (worker/tools, worker/java) do the precise tree-sitter work.

/** `pkg.Outer$Inner::method` → `pkg/Outer.java` */
export function testClassFile(testId: string): { classPath: string; method: string } {
  const [cls = '', method = ''] = testId.split('::');
  const outer = cls.split('$')[0] ?? cls;
  return { classPath: `${outer.replace(/\./g, '/')}.java`, method };
}

export function numberLines(lines: readonly string[], firstLine: number, mark: ReadonlySet<number> = new Set()): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((l, i) => `${mark.has(firstLine + i) ? '>' : ' '}${String(firstLine + i).padStart(width)}: ${l}`).join('\n');
}

/** Index just past the `}` matching the `{` at `open`, ignoring braces in strings, chars and comments. */
function matchBrace(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      i = src.indexOf('\n', i);
      if (i < 0) return -1;
    } else if (c === '/' && n === '*') {
      i = src.indexOf('*/', i + 2) + 1;
      if (i <= 0) return -1;
    } else if (c === '"' || c === "'") {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

export interface MethodExcerpt {
  startLine: number;
  endLine: number;
  lines: string[];
}

/** The method `name` (first declaration found), with annotations and a Javadoc directly above it. */
export function findMethod(source: string, name: string): MethodExcerpt | undefined {
  const decl = new RegExp(`(^|[\\s>\\]])${name.replace(/\$/g, '\\$')}\\s*\\([^;{]*\\)\\s*(throws[^{;]*)?\\{`, 'm');
  const m = decl.exec(source);
  if (!m) return undefined;
  const open = source.indexOf('{', m.index + m[0].length - 1);
  const end = matchBrace(source, open);
  if (end < 0) return undefined;
  const all = source.split('\n');
  let startLine = source.slice(0, m.index + m[1]!.length).split('\n').length;
  // climb over modifiers on earlier lines, annotations and the Javadoc
  while (startLine > 1) {
    const above = all[startLine - 2]!.trim();
    if (above.startsWith('@') || above.startsWith('*') || above.startsWith('/**') || above.endsWith('*/')) startLine--;
    else break;
  }
  const endLine = source.slice(0, end).split('\n').length;
  return { startLine, endLine, lines: all.slice(startLine - 1, endLine) };
}

/** Lines `from..to` (1-based, clamped) of a file. */
export function sliceLines(source: string, from: number, to: number): MethodExcerpt {
  const all = source.split('\n');
  const startLine = Math.max(1, from);
  const endLine = Math.min(all.length, to);
  return { startLine, endLine, lines: all.slice(startLine - 1, endLine) };
}

/** The innermost method around `line`, found by scanning declarations; undefined when the line is outside any. */
export function enclosingMethod(source: string, line: number): MethodExcerpt | undefined {
  const decl = /(^|[\s>\]])([A-Za-z_$][\w$]*)\s*\([^;{()]*(\([^;{()]*\)[^;{()]*)*\)\s*(throws[^{;]*)?\{/gm;
  let best: MethodExcerpt | undefined;
  for (let m = decl.exec(source); m; m = decl.exec(source)) {
    const keyword = m[2]!;
    if (['if', 'for', 'while', 'switch', 'catch', 'synchronized', 'return', 'new', 'try'].includes(keyword)) continue;
    const open = source.indexOf('{', m.index + m[0].length - 1);
    const end = matchBrace(source, open);
    if (end < 0) continue;
    const startLine = source.slice(0, m.index + m[1]!.length).split('\n').length;
    const endLine = source.slice(0, end).split('\n').length;
    if (startLine <= line && line <= endLine && (!best || startLine >= best.startLine)) {
      best = { startLine, endLine, lines: source.split('\n').slice(startLine - 1, endLine) };
    }
  }
  return best;
}
