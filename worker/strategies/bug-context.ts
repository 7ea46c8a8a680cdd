// The bug as prompt templates see it: report, failing tests with their source, fault localization
// with numbered code. Built once per run from the PublicBug and the workspace (never the ground truth).
import type { PublicBug } from '../contracts/bug.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { enclosingMethod, findMethod, numberLines, sliceLines, testClassFile } from './java-excerpts.ts';

export interface FailingTestContext {
  id: string;
  file?: string;
  startLine?: number;
  /** numbered source of the test method, or a note saying why it is missing */
  code: string;
  found: boolean;
}

export interface FaultContext {
  file: string;
  lines: number[];
  kind: string;
  method?: string;
  className?: string;
  /** the enclosing method (or ±5 lines) numbered, fault lines marked with '>' */
  code: string;
}

export interface BugContext {
  id: string;
  library: string;
  title: string;
  body: string;
  failing_tests: FailingTestContext[];
  fault_localization: FaultContext[];
}

async function findTestFile(bug: PublicBug, ws: Workspace, classPath: string): Promise<string | undefined> {
  for (const dir of bug.layout.testDirs) {
    const p = `${dir.replace(/\/+$/, '')}/${classPath}`;
    if (await ws.exists(p)) return p;
  }
  const suffix = `/${classPath}`;
  const all = await ws.listFiles();
  return all.find((f) => f.endsWith(suffix) || f === classPath);
}

export async function buildBugContext(bug: PublicBug, ws: Workspace, opts: { maxTests?: number } = {}): Promise<BugContext> {
  const failing_tests: FailingTestContext[] = [];
  for (const id of bug.failingTests.slice(0, opts.maxTests ?? 10)) {
    const { classPath, method } = testClassFile(id);
    const file = await findTestFile(bug, ws, classPath);
    if (!file) {
      failing_tests.push({ id, code: `(test file ${classPath} not found under ${bug.layout.testDirs.join(', ')})`, found: false });
      continue;
    }
    const m = findMethod(await ws.read(file), method);
    failing_tests.push(
      m
        ? { id, file, startLine: m.startLine, code: numberLines(m.lines, m.startLine), found: true }
        : { id, file, code: `(method ${method} not found in ${file}; it may be inherited)`, found: false },
    );
  }
  const fault_localization: FaultContext[] = [];
  for (const loc of bug.faultLocalization) {
    let code: string;
    try {
      const src = await ws.read(loc.file);
      const first = Math.min(...loc.lines);
      const last = Math.max(...loc.lines);
      const method = enclosingMethod(src, first);
      const region = method && method.endLine >= last && method.endLine - method.startLine < 120 ? method : sliceLines(src, first - 5, last + 5);
      code = numberLines(region.lines, region.startLine, new Set(loc.lines));
    } catch (err) {
      code = `(cannot read ${loc.file}: ${(err as Error).message})`;
    }
    fault_localization.push({
      file: loc.file,
      lines: loc.lines,
      kind: loc.kind,
      ...(loc.method ? { method: loc.method } : {}),
      ...(loc.className ? { className: loc.className } : {}),
      code,
    });
  }
  return { id: bug.id, library: bug.library, title: bug.report.title, body: bug.report.body, failing_tests, fault_localization };
}
