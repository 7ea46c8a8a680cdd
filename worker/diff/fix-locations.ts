// Perfect fault localization from a ground-truth fix diff, in the buggy version's line numbers:
// a hunk that changes or removes lines → kind modify/delete with those lines; an insert-only hunk →
// kind insert with the line after which code is missing (HAFixAgent's blameless case).
// Pure: no Node APIs.
import type { FaultLocation } from '../contracts/bug.ts';
import { isDefaultProgramFile } from './fix-classification.ts';
import { changeBlocks, filePath, parseUnifiedDiff } from './unified-diff-parse.ts';

export interface FaultLocalizationOptions {
  isProgramFile?: (path: string) => boolean;
  /** buggy file contents by path, to name the enclosing class and method of each hunk */
  readBuggyFile?: (path: string) => string | undefined;
}

export function faultLocalizationFromDiff(diff: string, options: FaultLocalizationOptions = {}): FaultLocation[] {
  const isProgram = options.isProgramFile ?? isDefaultProgramFile;
  const out: FaultLocation[] = [];
  for (const file of parseUnifiedDiff(diff)) {
    const path = filePath(file);
    if (!isProgram(path)) continue;
    // a file the fix creates has no buggy lines: point at its would-be first line
    const source = file.oldPath ? options.readBuggyFile?.(path) : undefined;
    for (const block of changeBlocks(file)) {
      let location: FaultLocation;
      if (block.removed.length > 0) {
        location = {
          file: path,
          lines: block.removed.map((l) => l.oldLine),
          kind: block.added.length > 0 ? 'modify' : 'delete',
        };
      } else {
        location = { file: path, lines: [Math.max(1, block.oldAnchor)], kind: 'insert' };
      }
      if (source !== undefined) Object.assign(location, enclosingJavaMember(source, location.lines[0]!));
      out.push(location);
    }
  }
  return out;
}

/**
 * Names the innermost class and method around a line by scanning declarations and brace depth.
 * A lightweight heuristic (no parser) that is right for ordinary formatted Java; fields give no method.
 */
export function enclosingJavaMember(source: string, line: number): { className?: string; method?: string } {
  const lines = source.split('\n');
  const stack: { kind: 'class' | 'method' | 'block'; name?: string; depth: number }[] = [];
  let depth = 0;
  let pending: { kind: 'class' | 'method'; name: string } | null = null;
  const classDecl = /\b(class|interface|enum|record)\s+([A-Za-z_$][\w$]*)/;
  const methodDecl = /^\s*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default)\s+)*(?:<[^>]+>\s+)?[\w$<>[\],.?\s]+?\s+([a-z_$][\w$]*)\s*\([^;]*$/;
  const ctorDecl = /^\s*(?:(?:public|protected|private)\s+)?([A-Z][\w$]*)\s*\([^;]*$/;
  for (let i = 0; i < lines.length && i < line; i++) {
    const text = lines[i]!.replace(/\/\/.*$/, '').replace(/"(?:\\.|[^"\\])*"/g, '""').replace(/'(?:\\.|[^'\\])'/g, "''");
    const cls = classDecl.exec(text);
    if (cls && !/^\s*(\*|\/\*)/.test(text)) pending = { kind: 'class', name: cls[2]! };
    else {
      const m = methodDecl.exec(text) ?? ctorDecl.exec(text);
      if (m && !/^\s*(if|for|while|switch|catch|return|new|else)\b/.test(text) && !/\b(if|for|while|switch|catch)\s*\(/.test(text)) {
        pending = { kind: 'method', name: m[1]! };
      }
    }
    for (const ch of text) {
      if (ch === '{') {
        depth++;
        stack.push(pending ? { ...pending, depth } : { kind: 'block', depth });
        pending = null;
      } else if (ch === '}') {
        while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
        depth--;
      }
    }
    if (text.includes(';')) pending = pending?.kind === 'class' ? pending : null;
  }
  const className = [...stack].reverse().find((s) => s.kind === 'class')?.name;
  const method = [...stack].reverse().find((s) => s.kind === 'method')?.name;
  const result: { className?: string; method?: string } = {};
  if (className) result.className = className;
  if (method) result.method = method;
  return result;
}
