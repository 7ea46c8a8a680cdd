// RepairAgent's write_fix patch format and its two application behaviours.
//
// Format: {changes: [{file_name, insertions: [{line_number, new_lines[]}], deletions: [n], modifications: [{line_number, modified_line}]}]}
// Every line number refers to the file as it was before this patch (the "original" numbering).
//
// 'paper' mode: deletions remove lines, modifications replace them, insertions go before the given original line
//   (line count + 1 appends); the result is built in one pass over the original numbering.
// 'code' mode (sola-st/RepairAgent as released): deletions replace the line with an empty line, then modifications are
//   applied but skipped silently when their fuzzy similarity to the original line is below 70, then insertions sorted
//   by line number are applied with a running offset.
import { jsonrepair } from 'jsonrepair';
import { ToolRefusal, joinText, splitText } from '../common.ts';

export interface Insertion {
  line_number: number;
  new_lines: string[];
}
export interface Modification {
  line_number: number;
  modified_line: string;
}
export interface FileChange {
  file_name: string;
  insertions: Insertion[];
  deletions: number[];
  modifications: Modification[];
}
export type WriteFixMode = 'paper' | 'code';

export const PATCH_EXAMPLE = `{"changes": [{"file_name": "src/main/java/org/Foo.java", "insertions": [{"line_number": 12, "new_lines": ["if (x == null) {", "    return 0;", "}"]}], "deletions": [20], "modifications": [{"line_number": 15, "modified_line": "    return a >= b;"}]}]}`;

/** The released code's similarity threshold (fuzzywuzzy ratio, 0–100) below which a modification is skipped. */
export const CODE_MODE_SIMILARITY_THRESHOLD = 70;

/**
 * Parse the model's `changes` argument: an array, an object holding `changes`, or a JSON string of either
 * (repaired with jsonrepair, as the released code repairs JSON). Refuses with the expected shape on anything else.
 */
export function parseChanges(raw: unknown): FileChange[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(jsonrepair(value));
    } catch {
      throw new ToolRefusal(`'changes' is not valid JSON. Expected: ${PATCH_EXAMPLE}`);
    }
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && 'changes' in value) value = (value as { changes: unknown }).changes;
  if (value && typeof value === 'object' && !Array.isArray(value) && 'file_name' in value) value = [value];
  if (!Array.isArray(value) || value.length === 0) throw new ToolRefusal(`'changes' must be a non-empty list of file changes. Expected: ${PATCH_EXAMPLE}`);
  return value.map((change, i) => parseFileChange(change, i));
}

function parseFileChange(raw: unknown, index: number): FileChange {
  const where = `changes[${index}]`;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ToolRefusal(`${where} must be an object with file_name, insertions, deletions, modifications. Expected: ${PATCH_EXAMPLE}`);
  const obj = raw as Record<string, unknown>;
  const fileName = obj.file_name ?? obj.filepath ?? obj.file_path ?? obj.file;
  if (typeof fileName !== 'string' || fileName.trim() === '') throw new ToolRefusal(`${where}.file_name is missing; give the repo-relative path of the file to change.`);
  const insertions = listOf(obj.insertions, `${where}.insertions`).map((ins, j) => {
    const at = `${where}.insertions[${j}]`;
    if (!ins || typeof ins !== 'object') throw new ToolRefusal(`${at} must be {"line_number": n, "new_lines": ["..."]}.`);
    const rec = ins as Record<string, unknown>;
    const newLines = typeof rec.new_lines === 'string' ? rec.new_lines.split(/\r?\n/) : rec.new_lines;
    if (!Array.isArray(newLines) || newLines.some((l) => typeof l !== 'string')) throw new ToolRefusal(`${at}.new_lines must be a list of strings (one per line).`);
    return { line_number: lineNumber(rec.line_number, `${at}.line_number`), new_lines: newLines as string[] };
  });
  const deletions = listOf(obj.deletions, `${where}.deletions`).map((d, j) => lineNumber(d, `${where}.deletions[${j}]`));
  const modifications = listOf(obj.modifications, `${where}.modifications`).map((mod, j) => {
    const at = `${where}.modifications[${j}]`;
    if (!mod || typeof mod !== 'object') throw new ToolRefusal(`${at} must be {"line_number": n, "modified_line": "..."}.`);
    const rec = mod as Record<string, unknown>;
    if (typeof rec.modified_line !== 'string') throw new ToolRefusal(`${at}.modified_line must be a string (the whole new line).`);
    if (rec.modified_line.includes('\n')) throw new ToolRefusal(`${at}.modified_line spans several lines; modify one line and add the others as insertions.`);
    return { line_number: lineNumber(rec.line_number, `${at}.line_number`), modified_line: rec.modified_line };
  });
  if (insertions.length + deletions.length + modifications.length === 0) throw new ToolRefusal(`${where} for ${fileName} changes nothing: give insertions, deletions or modifications.`);
  return { file_name: fileName.trim(), insertions, deletions, modifications };
}

function listOf(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ToolRefusal(`${where} must be a list (use [] when empty).`);
  return value;
}

function lineNumber(value: unknown, where: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new ToolRefusal(`${where} must be a positive line number, got ${JSON.stringify(value)}.`);
  return n;
}

/** Refuse changes that address lines outside the file or edit the same original line twice. */
export function checkChange(change: FileChange, lineCount: number): void {
  const file = change.file_name;
  for (const d of change.deletions) if (d > lineCount) throw new ToolRefusal(`deletion of line ${d} in ${file}: the file has ${lineCount} lines.`);
  for (const m of change.modifications) if (m.line_number > lineCount) throw new ToolRefusal(`modification of line ${m.line_number} in ${file}: the file has ${lineCount} lines.`);
  for (const ins of change.insertions) {
    if (ins.line_number > lineCount + 1) throw new ToolRefusal(`insertion at line ${ins.line_number} in ${file}: the file has ${lineCount} lines (use ${lineCount + 1} to append).`);
  }
  const touched = new Map<number, string>();
  const claim = (line: number, what: string): void => {
    const earlier = touched.get(line);
    if (earlier) throw new ToolRefusal(`line ${line} of ${file} is changed twice (${earlier} and ${what}); give each original line at most one deletion or modification.`);
    touched.set(line, what);
  };
  for (const d of change.deletions) claim(d, 'a deletion');
  for (const m of change.modifications) claim(m.line_number, 'a modification');
  const insertAt = new Set<number>();
  for (const ins of change.insertions) {
    if (insertAt.has(ins.line_number)) throw new ToolRefusal(`two insertions at line ${ins.line_number} of ${file}; merge their new_lines into one insertion.`);
    insertAt.add(ins.line_number);
  }
}

export interface ApplyOutcome {
  content: string;
  /** modifications the released code would skip (similarity < 70); only in 'code' mode */
  skippedModifications: (Modification & { similarity: number; original: string })[];
}

/** Apply one file's change to its content. Assumes checkChange passed. */
export function applyChange(content: string, change: FileChange, mode: WriteFixMode): ApplyOutcome {
  const text = splitText(content);
  const original = text.lines;
  const skippedModifications: ApplyOutcome['skippedModifications'] = [];
  if (mode === 'paper') {
    const deleted = new Set(change.deletions);
    const modified = new Map(change.modifications.map((m) => [m.line_number, m.modified_line]));
    const inserted = new Map(change.insertions.map((ins) => [ins.line_number, ins.new_lines]));
    const out: string[] = [];
    for (let n = 1; n <= original.length + 1; n++) {
      out.push(...(inserted.get(n) ?? []));
      if (n > original.length || deleted.has(n)) continue;
      out.push(modified.get(n) ?? original[n - 1]!);
    }
    return { content: joinText({ ...text, lines: out, trailingNewline: text.trailingNewline || original.length === 0 }), skippedModifications };
  }
  const lines = [...original];
  for (const d of change.deletions) lines[d - 1] = '';
  for (const m of change.modifications) {
    const before = original[m.line_number - 1] ?? '';
    const similarity = fuzzRatio(before.trim(), m.modified_line.trim());
    if (similarity < CODE_MODE_SIMILARITY_THRESHOLD) {
      skippedModifications.push({ ...m, similarity, original: before });
      continue;
    }
    lines[m.line_number - 1] = m.modified_line;
  }
  let offset = 0;
  for (const ins of [...change.insertions].sort((a, b) => a.line_number - b.line_number)) {
    lines.splice(ins.line_number - 1 + offset, 0, ...ins.new_lines);
    offset += ins.new_lines.length;
  }
  return { content: joinText({ ...text, lines, trailingNewline: text.trailingNewline || original.length === 0 }), skippedModifications };
}

/**
 * fuzzywuzzy's `fuzz.ratio`: round(100 · 2·M / (|a| + |b|)) where M is the number of matching characters.
 * M is computed here as the longest common subsequence, which equals python-Levenshtein's indel-based ratio.
 */
export function fuzzRatio(a: string, b: string): number {
  if (a.length + b.length === 0) return 100;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    }
    prev = row;
  }
  return Math.round((200 * prev[b.length]!) / (a.length + b.length));
}

/** A canonical string for deduplicating patches (sorted, whitespace-trimmed lines). */
export function canonicalPatch(changes: FileChange[]): string {
  const norm = changes
    .map((c) => ({
      f: c.file_name,
      i: [...c.insertions].sort((a, b) => a.line_number - b.line_number).map((x) => [x.line_number, x.new_lines.map((l) => l.trim())]),
      d: [...new Set(c.deletions)].sort((a, b) => a - b),
      m: [...c.modifications].sort((a, b) => a.line_number - b.line_number).map((x) => [x.line_number, x.modified_line.trim()]),
    }))
    .sort((a, b) => (a.f < b.f ? -1 : a.f > b.f ? 1 : 0));
  return JSON.stringify(norm);
}
