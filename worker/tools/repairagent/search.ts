// search_code_base in its two matching modes.
// 'paper' (RepairAgent paper §III-D): each keyword is split into subtokens on camelCase, '_' and '.'; a method matches a
//   keyword when all of the keyword's subtokens occur (case-insensitively, anywhere, in any order) in the method's code or
//   class name —
//   an approximate match that tolerates reformatting and partial identifiers.
// 'code' (sola-st/RepairAgent as released): the keyword's last dotted segment is split on '_', lower-cased, and each piece is
//   substring-matched against method NAMES only (the released code's camelCase split is commented out).
// Both return file → class → method → matched keywords, plus files whose names match a keyword.
import type { JavaAnalyzer } from '../../java/analyzer.ts';
import type { SourceFile } from '../corpus.ts';

export type SearchMode = 'paper' | 'code';
export type SearchMatches = Record<string, Record<string, Record<string, string[]>>>;

export function subtokens(keyword: string): string[] {
  return keyword
    .split(/[._\s]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[^A-Za-z0-9$]+/)
    .map((t) => t.toLowerCase())
    .filter((t, _i, all) => t.length > 1 || all.length === 1); // single letters (x, i) would match nearly every method
}

/** File names match a keyword's dotted segments (both modes): "MathUtil.difference" → mathutil, difference. */
function fileNameSegments(keyword: string): string[] {
  return keyword.split(/[./\s(),;]+/).map((s) => s.toLowerCase()).filter((s) => s.length >= 3);
}

function codeModeTokens(keyword: string): string[] {
  const last = keyword.split('.').pop() ?? keyword;
  return last.split('_').map((t) => t.toLowerCase().trim()).filter(Boolean);
}

export function searchCodeBase(
  java: JavaAnalyzer,
  files: SourceFile[],
  keywords: string[],
  mode: SearchMode,
): { matches: SearchMatches; matchingFiles: string[] } {
  const prepared = keywords.map((keyword) => ({ keyword, tokens: mode === 'paper' ? subtokens(keyword) : codeModeTokens(keyword) })).filter((k) => k.tokens.length);
  const matches: SearchMatches = {};
  const matchingFiles: string[] = [];
  for (const file of files) {
    const fileBase = (file.path.split('/').pop() ?? '').replace(/\.java$/, '').toLowerCase();
    if (prepared.some((k) => fileNameSegments(k.keyword).some((seg) => fileBase.includes(seg)))) matchingFiles.push(file.path);
    // cheap text pre-filter before parsing: a matching method needs its tokens somewhere in the file
    const lowered = file.content.toLowerCase();
    const candidates = prepared.filter((k) => (mode === 'paper' ? k.tokens.every((t) => lowered.includes(t) || file.path.toLowerCase().includes(t)) : k.tokens.some((t) => lowered.includes(t))));
    if (candidates.length === 0) continue;
    const lines = file.content.split('\n');
    for (const method of java.methods(file.content)) {
      // paper mode: the method's code plus its class name, so "Class.method" keywords find the method itself
      const haystack = mode === 'paper' ? `${method.className}\n${lines.slice(method.start - 1, method.end).join('\n')}`.toLowerCase() : method.name.toLowerCase();
      const hit = candidates
        .filter((k) => (mode === 'paper' ? k.tokens.every((t) => haystack.includes(t)) : k.tokens.some((t) => haystack.includes(t))))
        .map((k) => k.keyword);
      if (hit.length === 0) continue;
      const byClass = (matches[file.path] ??= {});
      const byMethod = (byClass[method.className] ??= {});
      const key = byMethod[method.name] ? `${method.name} (line ${method.start})` : method.name; // overloads stay apart
      byMethod[key] = hit;
    }
  }
  return { matches, matchingFiles };
}
