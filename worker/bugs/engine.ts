// Engine: the bugs and their repositories — the bug catalogue (bundled and imported BugSpecs), the repository store
// and its open sessions, a workspace at a bug's buggy commit, the bug page, patch validation, and the strategy
// editor's starting point and prompt preview. One of the lab's parts: worker/lab.ts builds it with the others, and the
// page (through the lab's API) and the CLI (through its lab) reach it there. Same code on both sides: only the
// Platform differs.
import { PACK_EXTENSION, readBenchmarkPack } from './benchmark-pack.ts';
import { toPublicBug, type BugSpec, type ProjectLayout, type PublicBug } from '../contracts/bug.ts';
import { isProgramSource } from '../contracts/test-edits.ts';
import type { Platform } from '../contracts/platform.ts';
import type { Workspace } from '../contracts/workspace.ts';
import type { Limits, TestSelection, ValidationResult } from '../contracts/runner-api.ts';
import type { BugSummary, BugView, CodeExcerpt } from '../contracts/bug-view.ts';
import type { ImportProgress, RepoInfo } from '../contracts/repository.ts';
import type { PatchChoice } from '../contracts/runs.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import { BenchmarkCatalog } from './bug-catalog.ts';
import { RepoStore } from '../repo/repo-store.ts';
import type { RepoSession } from '../repo/session.ts';
import { openWorkspace } from '../repo/git-workspace.ts';
import { RunnerClient } from '../runner-client/client.ts';
import { applyUnifiedDiff } from '../diff/apply-diff.ts';
import { previewPrompt } from '../strategies/first-prompt.ts';
import type { EditableStrategy, PromptPreview, PromptPreviewRequest } from '../contracts/editable-strategy.ts';
import { resolveStrategy } from '../strategies/presets/index.ts';
import { toolkit } from '../tools/registry.ts';

const EXCERPT_CONTEXT = 6;

/** A store id from a file or folder name: letters, digits, '.', '_' and '-' only. */
function repoIdFrom(name: string): string {
  return name.replace(/[^\w.-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'repository';
}

/**
 * Progress reports at most every `ms` milliseconds (a new phase and the last report always go): an import of tens of thousands of
 * objects would otherwise send the page one message, and one re-render, per object.
 */
export function throttleProgress(onProgress: ((p: ImportProgress) => void) | undefined, ms = 100): ((p: ImportProgress) => void) | undefined {
  if (!onProgress) return undefined;
  let last = -Infinity;
  let phase: string | undefined;
  return (p) => {
    const now = performance.now();
    const milestone = p.phase !== phase || (p.total !== undefined && p.loaded >= p.total);
    if (now - last < ms && !milestone) return;
    last = now;
    phase = p.phase;
    onProgress(p);
  };
}

function describeImport(r: { repoId: string; refs: unknown[]; objects: number }): string {
  return `repository ${r.repoId}: ${r.objects ? `${r.objects} objects, ` : ''}${r.refs.length} refs`;
}

export class Engine {
  readonly catalog: BenchmarkCatalog;
  readonly repos: RepoStore;
  private readonly sessions = new Map<string, RepoSession>();
  private readonly imports = new Map<string, Promise<void>>();

  constructor(readonly platform: Platform) {
    this.catalog = new BenchmarkCatalog(platform);
    this.repos = new RepoStore(platform);
  }

  async listBugs(): Promise<BugSummary[]> {
    const bugs = await this.catalog.bugsWithOrigin();
    const stored = new Set((await this.repos.listRepos()).map((r) => r.repoId));
    return bugs.map(({ bug: b, origin }) => ({
      id: b.id,
      library: b.library,
      title: b.report.title,
      category: b.category,
      blameable: b.blameable,
      defectKinds: b.defectKinds,
      failingTests: b.failingTests,
      imported: stored.has(b.repoId),
      origin,
    }));
  }

  /** Deletes a bug made here or imported as a BugSpec file (runs of it stay in the Runs list); bundled bugs are refused. */
  deleteBug(bugId: string): Promise<void> {
    return this.catalog.deleteStored(bugId);
  }

  async publicBug(bugId: string): Promise<PublicBug> {
    return toPublicBug(await this.catalog.bug(bugId));
  }

  listRepos(): Promise<RepoInfo[]> {
    return this.repos.listRepos();
  }

  async deleteRepo(repoId: string): Promise<void> {
    this.sessions.delete(repoId);
    await this.repos.deleteRepo(repoId);
  }

  /**
   * Imports files a user dropped on the page: git bundles (`<repoId>.bundle`), pack files (`.pack`) and zipped
   * repositories (`.zip`) into the repository store, and BugSpec JSON files into the bug catalogue. Each file
   * succeeds or fails on its own; a failed import leaves everything already stored as it was.
   */
  async importFiles(files: { name: string; bytes: Uint8Array }[], reportProgress?: (p: ImportProgress) => void): Promise<{ name: string; ok: boolean; message: string }[]> {
    const onProgress = throttleProgress(reportProgress);
    const results = [];
    for (const f of files) {
      if (f.name.toLowerCase().endsWith(PACK_EXTENSION)) {
        // a benchmark pack: its bundles and BugSpecs, each reported as its own file would be
        let inner: { name: string; bytes: Uint8Array }[];
        try {
          inner = await readBenchmarkPack(f.name, f.bytes);
        } catch (e) {
          results.push({ name: f.name, ok: false, message: e instanceof Error ? e.message : String(e) });
          continue;
        }
        for (const r of await this.importFiles(inner, reportProgress)) results.push({ ...r, name: `${f.name}: ${r.name}` });
        continue;
      }
      try {
        const repo = /^(.+)\.(bundle|pack|zip)$/i.exec(f.name);
        if (repo) {
          const repoId = repoIdFrom(repo[1]!);
          const kind = repo[2]!.toLowerCase();
          this.sessions.delete(repoId);
          const options = { onProgress, label: f.name };
          const r =
            kind === 'bundle'
              ? await this.repos.importBundle(repoId, f.bytes, options)
              : kind === 'pack'
                ? await this.repos.importPack(repoId, f.bytes, options)
                : await this.repos.importZip(repoId, f.bytes, options);
          results.push({ name: f.name, ok: true, message: describeImport(r) });
        } else if (/\.json$/i.test(f.name)) {
          let json: unknown;
          try {
            json = JSON.parse(new TextDecoder().decode(f.bytes));
          } catch (e) {
            throw new Error(`${f.name} is not valid JSON (${(e as Error).message}).`);
          }
          const bug = await this.catalog.addImported(json, f.name);
          results.push({ name: f.name, ok: true, message: `bug ${bug.id} (repository ${bug.repoId}${(await this.repos.has(bug.repoId)) ? '' : ' — not imported yet: drop its .bundle too'})` });
        } else {
          throw new Error(
            `${f.name}: RepairLab imports git bundles (.bundle), pack files (.pack), zipped repositories (.zip), BugSpec files (.json) and benchmark packs (.rlpack); ` +
              'create a bundle with `git bundle create repo.bundle --all`, or choose the repository folder.',
          );
        }
      } catch (e) {
        results.push({ name: f.name, ok: false, message: e instanceof Error ? e.message : String(e) });
      }
    }
    return results;
  }

  /** Imports a repository folder the user chose (files with paths relative to it, .git/ included). */
  async importFolder(name: string, files: { path: string; bytes: Uint8Array }[], reportProgress?: (p: ImportProgress) => void): Promise<{ name: string; ok: boolean; message: string }> {
    const onProgress = throttleProgress(reportProgress);
    const repoId = repoIdFrom(name);
    try {
      this.sessions.delete(repoId);
      return { name, ok: true, message: describeImport(await this.repos.importGitFiles(repoId, files, { onProgress, label: `the folder ${name}` })) };
    } catch (e) {
      return { name, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Clones a repository by URL with its full history, through the runner's git CORS proxy in the browser. */
  async cloneRepository(url: string, corsProxy: string | undefined, reportProgress?: (p: ImportProgress) => void): Promise<{ name: string; ok: boolean; message: string }> {
    const onProgress = throttleProgress(reportProgress);
    const repoId = repoIdFrom(url.replace(/\/+$/, '').split('/').pop()!.replace(/\.git$/, '') || 'repository');
    try {
      this.sessions.delete(repoId);
      return { name: url, ok: true, message: describeImport(await this.repos.cloneUrl(repoId, url, { onProgress, label: url, ...(corsProxy ? { corsProxy } : {}) })) };
    } catch (e) {
      return { name: url, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  }

  /**
   * The open session of a stored repository (opened on first use), for browsing it and making bugs of it. Refuses a
   * repository that is not in the store, naming it.
   */
  async repoSession(repoId: string): Promise<RepoSession> {
    const cached = this.sessions.get(repoId);
    if (cached) return cached;
    const session = await this.repos.openRepo(repoId);
    this.sessions.set(repoId, session);
    return session;
  }

  /** Repositories with an open session (their caches — parsed packs, trees, commits — held in memory). */
  openRepositories(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * Drops the open session of a repository (the store keeps it; the next use opens it again). For work that walks
   * many repositories once each — checking a whole Defects4J project — so that their caches do not pile up.
   */
  closeRepository(repoId: string): void {
    this.sessions.delete(repoId);
  }

  /** Imports the bug's repository into the store if it is not there yet (bundled bugs: from public/benchmarks/). */
  async ensureRepository(bug: BugSpec, reportProgress?: (p: ImportProgress) => void): Promise<RepoSession> {
    const onProgress = throttleProgress(reportProgress);
    const cached = this.sessions.get(bug.repoId);
    if (cached) return cached;
    if (!(await this.repos.has(bug.repoId))) {
      // Two callers asking for the same repository share one import.
      let pending = this.imports.get(bug.repoId);
      if (!pending) {
        pending = this.importBundled(bug, onProgress).finally(() => this.imports.delete(bug.repoId));
        this.imports.set(bug.repoId, pending);
      }
      await pending;
    }
    const session = await this.repos.openRepo(bug.repoId);
    this.sessions.set(bug.repoId, session);
    return session;
  }

  private async importBundled(bug: BugSpec, onProgress?: (p: ImportProgress) => void): Promise<void> {
    if (bug.repository.kind !== 'bundled') {
      throw new Error(`Bug ${bug.id} lives in repository "${bug.repoId}", which is not in this browser's store: import it first (Repositories).`);
    }
    onProgress?.({ phase: 'Downloading bundle', loaded: 0 });
    const bytes = await this.catalog.bundleBytes(bug.repoId);
    await this.repos.importBundle(bug.repoId, bytes, { onProgress, label: bug.repository.bundle });
  }

  /** A fresh workspace at the bug's buggy commit (the only tree an agent ever sees). */
  async workspaceFor(bugId: string, onProgress?: (p: ImportProgress) => void): Promise<{ bug: BugSpec; workspace: Workspace }> {
    const bug = await this.catalog.bug(bugId);
    const session = await this.ensureRepository(bug, onProgress);
    return { bug, workspace: await openWorkspace(session, bug.buggyCommit) };
  }

  /** What the bug page shows: report, failing test sources, fault-localized code. Never the ground truth. */
  async bugView(bugId: string, onProgress?: (p: ImportProgress) => void): Promise<BugView> {
    const { bug, workspace } = await this.workspaceFor(bugId, onProgress);
    const failingTestSources: BugView['failingTestSources'] = [];
    for (const test of bug.failingTests) {
      const [className = '', method = ''] = test.split('::');
      const file = await findSourceFile(workspace, bug.layout.testDirs, className);
      if (!file) {
        failingTestSources.push({ test, file: '', error: `test class ${className} not found under ${bug.layout.testDirs.join(', ')}` });
        continue;
      }
      const lines = (await workspace.read(file)).split('\n');
      const at = lines.findIndex((l) => new RegExp(`\\b${method}\\s*\\(`).test(l));
      failingTestSources.push({ test, file, excerpt: at < 0 ? excerpt(file, lines, 1, lines.length, []) : methodExcerpt(file, lines, at) });
    }
    const buggyCode: CodeExcerpt[] = [];
    for (const fl of bug.faultLocalization) {
      const lines = (await workspace.read(fl.file)).split('\n');
      const lo = Math.max(1, Math.min(...fl.lines) - EXCERPT_CONTEXT);
      const hi = Math.min(lines.length, Math.max(...fl.lines) + EXCERPT_CONTEXT);
      buggyCode.push(excerpt(fl.file, lines, lo, hi, fl.lines));
    }
    return { bug: toPublicBug(bug), failingTestSources, buggyCode };
  }

  /** Validates the buggy version with no patch, the ground-truth fix, or a given unified diff. */
  async validatePatch(bugId: string, patch: PatchChoice, runner: RunnerSettings, tests?: TestSelection, limits?: Partial<Limits>): Promise<ValidationResult> {
    const { bug, workspace } = await this.workspaceFor(bugId);
    if (patch === 'ground-truth') await this.applyGroundTruth(bug, workspace);
    else if (patch !== 'none') await applyUnifiedDiff(workspace, patch.diff);
    const client = new RunnerClient(runner);
    return client.validate(workspace, bug.layout, tests ?? { mode: 'failing-first', tests: bug.failingTests }, limits ? { limits } : {});
  }

  /** The messages a run's first cycle would send in `state` (worker/strategies/first-prompt.ts), with the preset's for comparison. */
  previewPrompt(request: PromptPreviewRequest): Promise<PromptPreview> {
    return previewPrompt(this, request);
  }

  /** A preset (with named variants) as the strategy editor starts from it, and every tool its toolkit has. */
  editableStrategy(preset: string, variants: string[] = []): EditableStrategy {
    const strategy = resolveStrategy(preset, { variants });
    const toolkitTools = strategy.toolkit === 'engine' ? ['apply_patch'] : toolkit(strategy.toolkit).map((t) => t.definition.name);
    return { strategy, presetStrategy: variants.length ? resolveStrategy(preset) : strategy, toolkitTools };
  }

  /** The ground truth as an overlay: program files as they are at the fixed commit. Engine-only. */
  private async applyGroundTruth(bug: BugSpec, workspace: Workspace): Promise<void> {
    const fixed = bug.groundTruth.fixedCommit;
    if (fixed) {
      const session = await this.ensureRepository(bug);
      await applyProgramFilesOf(workspace, await openWorkspace(session, fixed), bug.layout);
      return;
    }
    if (bug.groundTruth.patch) {
      await applyUnifiedDiff(workspace, bug.groundTruth.patch);
      return;
    }
    throw new Error(`Bug ${bug.id} has no ground truth (neither a fixed commit nor a patch).`);
  }
}

/**
 * Writes into `workspace`'s overlay the program files (isProgramSource) as they are in `fixed`'s tree: the
 * ground truth of a bug whose fix is a commit. Test files stay the buggy commit's: the tests define the bug.
 */
export async function applyProgramFilesOf(workspace: Workspace, fixed: Workspace, layout: Pick<ProjectLayout, 'sourceDirs' | 'testDirs' | 'testResourceDirs'>): Promise<void> {
  const before = new Map((await workspace.baseFiles()).map((f) => [f.path, f.oid]));
  const after = await fixed.baseFiles();
  const inSources = (p: string) => isProgramSource(layout, p);
  for (const f of after) if (inSources(f.path) && before.get(f.path) !== f.oid) await workspace.write(f.path, await fixed.read(f.path));
  const afterPaths = new Set(after.map((f) => f.path));
  for (const p of before.keys()) if (inSources(p) && !afterPaths.has(p)) await workspace.delete(p);
}

export async function findSourceFile(ws: Workspace, roots: string[], className: string): Promise<string | undefined> {
  const rel = className.split('$')[0]!.replace(/\./g, '/') + '.java';
  for (const root of roots) {
    const path = `${root.replace(/\/$/, '')}/${rel}`;
    if (await ws.exists(path)) return path;
  }
  return undefined;
}

function excerpt(file: string, lines: string[], from: number, to: number, highlight: number[]): CodeExcerpt {
  return { file, startLine: from, lines: lines.slice(from - 1, to), highlight };
}

/** From the test method's annotations to its closing brace (brace counting is enough for display). */
function methodExcerpt(file: string, lines: string[], declIndex: number): CodeExcerpt {
  let start = declIndex;
  while (start > 0 && /^\s*@/.test(lines[start - 1]!)) start--;
  let depth = 0;
  let seenBrace = false;
  let end = declIndex;
  for (let i = declIndex; i < lines.length; i++) {
    for (const ch of lines[i]!) {
      if (ch === '{') {
        depth++;
        seenBrace = true;
      } else if (ch === '}') depth--;
    }
    end = i;
    if (seenBrace && depth <= 0) break;
  }
  return excerpt(file, lines, start + 1, end + 1, [declIndex + 1]);
}
