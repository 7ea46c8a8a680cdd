// Replays a LibraryDefinition into a bare git repository through one `git fast-import` stream.
// main holds the ordinary (buggy) line of development; each bug adds
//   refs/repairlab/bugs/<id>  — the buggy commit: `at` + the tests that expose the bug
//   refs/repairlab/fixes/<id> — the ground-truth fix on top of the buggy commit (never on main)
// Feature branches are merged into main and then deleted, as after a pull request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BugDefinition, FileOp, LibraryDefinition, Person } from './history-dsl.ts';
import { git, initBareRepo } from './git.ts';

type Files = Map<string, string>;

interface BranchState {
  files: Files;
  mark: number;
  /** files at the commit the branch started from (merge base for a merge into main) */
  forkFiles: Files;
}

export interface ReplayedBug {
  id: string;
  atCommit: string;
  buggyCommit: string;
  fixedCommit: string;
  introducedByCommits: string[];
}

export interface ReplayedHistory {
  gitDir: string;
  /** label → commit id for every labelled main/branch commit */
  labels: Record<string, string>;
  bugs: ReplayedBug[];
  /** commits reachable from main (feature-branch commits included) */
  mainCommits: number;
}

export class HistoryError extends Error {
  constructor(library: string, where: string, message: string) {
    super(`benchmark library ${library}, ${where}: ${message}`);
    this.name = 'HistoryError';
  }
}

const SAFE_PATH = /^[\w.][\w.-]*(\/[\w.][\w.-]*)*$/;

export function applyOps(library: string, where: string, files: Files, ops: FileOp[]): Files {
  const next = new Map(files);
  const fail = (message: string): never => {
    throw new HistoryError(library, where, message);
  };
  const checkText = (path: string, text: string) => {
    if (!SAFE_PATH.test(path) || path.split('/').some((part) => part === '.' || part === '..')) fail(`path "${path}" must be a plain relative path`);
    if (text.includes('\r')) fail(`${path} contains CR characters; benchmark files use LF line endings`);
  };
  for (const op of ops) {
    switch (op.op) {
      case 'write':
        checkText(op.path, op.text);
        next.set(op.path, op.text.endsWith('\n') ? op.text : op.text + '\n');
        break;
      case 'edit': {
        const old = next.get(op.path) ?? fail(`edit of missing file ${op.path}`);
        const count = old.split(op.find).length - 1;
        if (count !== 1) fail(`edit of ${op.path}: expected the text to occur exactly once, found ${count}: ${JSON.stringify(op.find.slice(0, 80))}`);
        const text = old.replace(op.find, () => op.replace);
        checkText(op.path, text);
        next.set(op.path, text);
        break;
      }
      case 'editAll': {
        const old = next.get(op.path) ?? fail(`editAll of missing file ${op.path}`);
        if (!old.includes(op.find)) fail(`editAll of ${op.path}: text not found: ${JSON.stringify(op.find.slice(0, 80))}`);
        const text = old.split(op.find).join(op.replace);
        checkText(op.path, text);
        next.set(op.path, text);
        break;
      }
      case 'addMembers': {
        const old = next.get(op.path) ?? fail(`addMembers to missing file ${op.path}`);
        const close = old.lastIndexOf('}');
        if (close < 0) fail(`addMembers: ${op.path} has no closing brace`);
        const body = op.text.replace(/^\n+|\s+$/g, '');
        const text = old.slice(0, close).replace(/\s+$/, '') + '\n\n' + body + '\n' + old.slice(close);
        checkText(op.path, text);
        next.set(op.path, text);
        break;
      }
      case 'rename': {
        const old = next.get(op.from) ?? fail(`rename of missing file ${op.from}`);
        if (next.has(op.to)) fail(`rename target ${op.to} already exists`);
        checkText(op.to, old);
        next.delete(op.from);
        next.set(op.to, old);
        break;
      }
      case 'delete':
        if (!next.delete(op.path)) fail(`delete of missing file ${op.path}`);
        break;
    }
  }
  return next;
}

function touchedPaths(ops: FileOp[]): string[] {
  return ops.flatMap((op) => (op.op === 'rename' ? [op.from, op.to] : [op.path]));
}

const HOUR = 3600;

export function replayHistory(def: LibraryDefinition, gitDir: string): ReplayedHistory {
  const lib = def.id;
  const startSeconds = Math.floor(Date.parse(def.start) / 1000);
  if (!Number.isFinite(startSeconds)) throw new HistoryError(lib, 'start', `"${def.start}" is not an ISO date`);
  const chunks: string[] = [];
  const out = (s: string) => chunks.push(s);
  const data = (s: string) => out(`data ${Buffer.byteLength(s, 'utf8')}\n${s}\n`);
  let nextMark = 1;
  let clock = startSeconds;
  let tick = 0;
  const person = (key: string, where: string): Person => def.people[key] ?? (() => { throw new HistoryError(lib, where, `unknown author "${key}"`); })();

  const emitCommit = (ref: string, who: Person, when: number, message: string, parents: number[], files: Files): number => {
    const mark = nextMark++;
    const ident = `${who.name} <${who.email}> ${when} ${who.tz}`;
    out(`commit ${ref}\nmark :${mark}\nauthor ${ident}\ncommitter ${ident}\n`);
    data(message.endsWith('\n') ? message : message + '\n');
    if (parents[0] !== undefined) out(`from :${parents[0]}\n`);
    for (const p of parents.slice(1)) out(`merge :${p}\n`);
    out('deleteall\n');
    for (const path of [...files.keys()].sort()) {
      out(`M 100644 inline ${path}\n`);
      data(files.get(path)!);
    }
    out('\n');
    return mark;
  };
  // Commits land at varied but fixed intervals (6–45 h apart), like a part-time project.
  const nextTime = () => {
    tick++;
    clock += 6 * HOUR + ((tick * 7919) % 40) * HOUR + ((tick * 31) % 60) * 60;
    return clock;
  };

  const branches = new Map<string, BranchState>();
  const labels = new Map<string, { mark: number; files: Files; time: number }>();

  def.steps.forEach((step, index) => {
    const where = `step ${index + 1}${'label' in step && step.label ? ` (${step.label})` : ''}`;
    if (step.kind === 'branch') {
      const from = step.from ?? 'main';
      const base = branches.get(from) ?? (labels.has(from) ? { ...labels.get(from)!, forkFiles: labels.get(from)!.files } : undefined);
      if (!base) throw new HistoryError(lib, where, `branch from unknown branch/label "${from}"`);
      if (branches.has(step.name)) throw new HistoryError(lib, where, `branch ${step.name} exists`);
      branches.set(step.name, { files: base.files, mark: base.mark, forkFiles: base.files });
      return;
    }
    const when = nextTime();
    const main = branches.get('main');
    if (step.kind === 'commit') {
      const name = step.branch ?? 'main';
      const state = branches.get(name);
      if (!state && !(name === 'main' && index === 0)) throw new HistoryError(lib, where, `commit on unknown branch "${name}"`);
      const files = applyOps(lib, where, state?.files ?? new Map(), step.ops);
      const mark = emitCommit(`refs/heads/${name}`, person(step.author, where), when, step.message, state ? [state.mark] : [], files);
      branches.set(name, { files, mark, forkFiles: state?.forkFiles ?? new Map() });
      if (step.label) labels.set(step.label, { mark, files, time: when });
      return;
    }
    // merge into main: take each side's changes since the fork; the same file changed on both sides is an error
    const feature = branches.get(step.branch);
    if (!feature || !main) throw new HistoryError(lib, where, `merge of unknown branch "${step.branch}"`);
    const merged = new Map(main.files);
    const paths = new Set([...feature.files.keys(), ...feature.forkFiles.keys()]);
    for (const path of paths) {
      const base = feature.forkFiles.get(path);
      const theirs = feature.files.get(path);
      if (base === theirs) continue;
      if (main.files.get(path) !== base && main.files.get(path) !== theirs) {
        throw new HistoryError(lib, where, `merge conflict on ${path}: changed on main and on ${step.branch}`);
      }
      if (theirs === undefined) merged.delete(path);
      else merged.set(path, theirs);
    }
    const mark = emitCommit('refs/heads/main', person(step.author, where), when, step.message, [main.mark, feature.mark], merged);
    branches.set('main', { files: merged, mark, forkFiles: new Map() });
    branches.delete(step.branch);
    if (step.label) labels.set(step.label, { mark, files: merged, time: when });
  });
  const featureLeft = [...branches.keys()].filter((b) => b !== 'main');
  if (featureLeft.length > 0) throw new HistoryError(lib, 'end of history', `branches never merged: ${featureLeft.join(', ')}`);

  const bugMarks = def.bugs.map((bug) => emitBug(bug));
  function emitBug(bug: BugDefinition) {
    const where = `bug ${bug.id}`;
    const at = labels.get(bug.at) ?? (() => { throw new HistoryError(lib, where, `"at" names unknown label "${bug.at}"`); })();
    for (const label of bug.introducedBy) {
      if (!labels.has(label)) throw new HistoryError(lib, where, `introducedBy names unknown label "${label}"`);
    }
    const inDirs = (dirs: string[]) => (p: string) => dirs.some((d) => p.startsWith(d.endsWith('/') ? d : d + '/'));
    const bad = touchedPaths(bug.tests.ops).filter((p) => !inDirs(def.layout.testDirs)(p));
    if (bad.length) throw new HistoryError(lib, where, `the buggy commit may only add tests; it touches ${bad.join(', ')}`);
    const badFix = touchedPaths(bug.fix.ops).filter((p) => !inDirs(def.layout.sourceDirs)(p));
    if (badFix.length) throw new HistoryError(lib, where, `the fix may only touch program files; it touches ${badFix.join(', ')}`);
    const buggyFiles = applyOps(lib, `${where} tests`, at.files, bug.tests.ops);
    const buggy = emitCommit(`refs/repairlab/bugs/${bug.id}`, person(bug.tests.author, where), at.time + 2 * HOUR, bug.tests.message, [at.mark], buggyFiles);
    const fixedFiles = applyOps(lib, `${where} fix`, buggyFiles, bug.fix.ops);
    const fixed = emitCommit(`refs/repairlab/fixes/${bug.id}`, person(bug.fix.author, where), at.time + 5 * HOUR, bug.fix.message, [buggy], fixedFiles);
    return { at: at.mark, buggy, fixed };
  }
  out('done\n');

  initBareRepo(gitDir);
  const marksFile = join(gitDir, 'repairlab-marks');
  git(gitDir, ['fast-import', '--quiet', '--done', '--date-format=raw', `--export-marks=${marksFile}`], chunks.join(''));
  const marks = new Map<number, string>();
  for (const line of readFileSync(marksFile, 'utf8').split('\n').filter(Boolean)) {
    const [m, oid] = line.split(' ');
    marks.set(Number(m!.slice(1)), oid!);
  }
  const sha = (mark: number) => marks.get(mark)!;
  // fast-import keeps refs of merged feature branches; a merged pull request's branch is gone.
  for (const line of git(gitDir, ['for-each-ref', '--format=%(refname)', 'refs/heads/']).split('\n').filter(Boolean)) {
    if (line !== 'refs/heads/main') git(gitDir, ['update-ref', '-d', line]);
  }
  git(gitDir, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  return {
    gitDir,
    labels: Object.fromEntries([...labels].map(([label, l]) => [label, sha(l.mark)])),
    bugs: def.bugs.map((bug, i) => ({
      id: bug.id,
      atCommit: sha(bugMarks[i]!.at),
      buggyCommit: sha(bugMarks[i]!.buggy),
      fixedCommit: sha(bugMarks[i]!.fixed),
      introducedByCommits: bug.introducedBy.map((l) => sha(labels.get(l)!.mark)),
    })),
    mainCommits: Number(git(gitDir, ['rev-list', '--count', 'refs/heads/main']).trim()),
  };
}
