// benchValidation: the runner's speed measured side by side in one run on one bug and patch.
//   cold_ms       a cold validation (fresh javac + JVM) of the fix, failing-first then the suite
//   warm_ms       the same validation on the warm path (long-lived worker JVM)
//   ratio         cold_ms / warm_ms
//   variants_ms   30 distinct variants of the fix validated as write_fix sends them: one batch request
//   variants_ratio variants_ms / warm_ms (a serial loop would be ~30)
// Medians over `rounds`. No request is served from the cache: each round and phase asks with limits of its own (part
// of the cache key), and the copies of the fix among the variants differ in tokens (trailing `;`), not only in a
// comment, which the runner's deduplication would see through (verdict-cache.ts).
// Measures a given bug (`subject`: any bug the engine knows — bundled, imported from Defects4J …), else the bundled
// demo bug (public/benchmarks/) when present, else (or with bugId 'generated') a generated project.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { BugSpec, type ProjectLayout } from '../../worker/contracts/bug.ts';
import type { TestSelection } from '../../worker/contracts/runner-api.ts';
import type { Workspace } from '../../worker/contracts/workspace.ts';
import { RunnerClient } from '../../worker/runner-client/client.ts';
import { startRunner } from '../src/index.ts';
import { GitCliWorkspace } from '../../benchmarks/verify/git-cli-workspace.ts';

export interface ValidationBench {
  bug: string;
  rounds: number;
  cold_ms: number;
  warm_ms: number;
  ratio: number;
  variants: number;
  variants_ms: number;
  variants_ratio: number;
  plausible_variants: number;
  /** variants of the last round that shared a compile with others (the batch's patch schema) */
  compiled_together: number;
  isolation: string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VARIANTS = 30;

export interface BenchSubject {
  id: string;
  workspace: Workspace;
  layout: ProjectLayout;
  tests: TestSelection;
  /** path → fixed content */
  fix: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function demoSubject(bugId: string): Promise<BenchSubject | undefined> {
  const specFile = path.join(ROOT, 'public/benchmarks/bugs', `${bugId}.json`);
  if (!existsSync(specFile)) return undefined;
  const bug = BugSpec.parse(JSON.parse(readFileSync(specFile, 'utf8')));
  if (bug.repository.kind !== 'bundled' || !bug.groundTruth.fixedCommit) return undefined;
  const bundle = path.join(ROOT, 'public/benchmarks', bug.repository.bundle);
  const gitDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-bench-git-'));
  execFileSync('git', ['init', '--bare', '-q', gitDir]);
  execFileSync('git', ['--git-dir', gitDir, 'fetch', '-q', bundle, '+refs/*:refs/*']);
  const workspace = new GitCliWorkspace(gitDir, bug.buggyCommit);
  const fixedWs = new GitCliWorkspace(gitDir, bug.groundTruth.fixedCommit);
  const changed = execFileSync('git', ['--git-dir', gitDir, 'diff', '--name-only', bug.buggyCommit, bug.groundTruth.fixedCommit], { encoding: 'utf8' })
    .split('\n')
    .filter((p) => p && bug.layout.sourceDirs.some((d) => p.startsWith(`${d}/`)));
  const fix: Record<string, string> = {};
  for (const p of changed) fix[p] = await fixedWs.read(p);
  return {
    id: bug.id,
    workspace,
    layout: bug.layout,
    tests: { mode: 'failing-first', tests: bug.failingTests },
    fix,
    cleanup: () => rm(gitDir, { recursive: true, force: true }),
  };
}

/**
 * A subject from any bug: its buggy workspace, its fixed workspace and the program files the fix changes (read from
 * the fixed workspace), validated with the failing tests first, then the whole suite.
 */
export async function bugSubject(bug: Pick<BugSpec, 'id' | 'layout' | 'failingTests'>, buggy: Workspace, fixed: Workspace, changedFiles: string[]): Promise<BenchSubject> {
  const inSources = changedFiles.filter((p) => bug.layout.sourceDirs.some((d) => p.startsWith(`${d.replace(/\/+$/, '')}/`)));
  if (!inSources.length) throw new Error(`${bug.id}: its fix changes no file under ${bug.layout.sourceDirs.join(', ')}, so there is no fix to validate.`);
  const fix: Record<string, string> = {};
  for (const p of inSources) fix[p] = await fixed.read(p);
  return { id: bug.id, workspace: buggy, layout: bug.layout, tests: { mode: 'failing-first', tests: bug.failingTests }, fix, cleanup: async () => undefined };
}

/** Fallback subject: a generated project (committed to a temporary git repository) with an off-by-one and 41 tests. */
export async function generatedSubject(): Promise<BenchSubject> {
  const file = 'src/main/java/gen/Range.java';
  const buggy = 'package gen;\npublic final class Range {\n  public static boolean contains(int lo, int hi, int x) {\n    return x >= lo && x < hi;\n  }\n}\n';
  const tests = Array.from({ length: 40 }, (_, i) => `  @Test public void inside${i}() { assertTrue(Range.contains(0, ${i + 1}, ${i})); }`).join('\n');
  const files: Record<string, string> = {
    [file]: buggy,
    'src/test/java/gen/RangeTest.java': `package gen;\nimport static org.junit.Assert.*;\nimport org.junit.Test;\npublic class RangeTest {\n  @Test public void includesUpperBound() { assertTrue(Range.contains(0, 5, 5)); }\n${tests}\n}\n`,
  };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-bench-gen-'));
  for (const [p, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=bench', '-c', 'user.email=bench@repairlab.invalid', ...args], { encoding: 'utf8' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'generated benchmark project');
  return {
    id: 'generated-range',
    workspace: new GitCliWorkspace(path.join(dir, '.git'), git('rev-parse', 'HEAD').trim()),
    layout: { sourceDirs: ['src/main/java'], testDirs: ['src/test/java'], resourceDirs: [], testResourceDirs: [], javaRelease: 11, junit: 'junit4', classpath: [] },
    tests: { mode: 'failing-first', tests: ['gen.RangeTest::includesUpperBound'] },
    fix: { [file]: buggy.replace('x < hi', 'x <= hi') },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Lines the fix changed (in the fixed file), where variants mutate. */
export function changedLines(before: string, after: string): number[] {
  const a = before.split('\n');
  return after
    .split('\n')
    .map((line, i) => (a[i] === line ? -1 : i))
    .filter((i) => i >= 0);
}

export const MUTATIONS: Array<[RegExp, string]> = [
  [/<=/, '<'], [/<=/, '>='], [/<=/, '=='], [/<=/, '!='], [/>=/, '>'], [/>=/, '<='],
  [/ < /, ' <= '], [/ < /, ' > '], [/ > /, ' >= '], [/ > /, ' < '], [/==/, '!='], [/!=/, '=='],
  [/ \+ /, ' - '], [/ - /, ' + '], [/&&/, '||'], [/\|\|/, '&&'], [/\b(\d+)\b/, '$1 + 1'], [/\b(\d+)\b/, '$1 - 1'],
];

/**
 * 30 distinct variants of the fix, the way a write_fix call proposes them: single-operator/literal mutations of the
 * fixed lines and of the lines around them (most are wrong and fail fast on the failing test), topped up with
 * commented copies of the fix itself (plausible, so they run the whole suite).
 */
function variantsOf(subject: BenchSubject, base: Record<string, string>, marker: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  const seen = new Set<string>();
  for (const [file, fixed] of Object.entries(subject.fix)) {
    const lines = fixed.split('\n');
    const changed = changedLines(base[file] ?? '', fixed);
    const near = [...new Set(changed.flatMap((i) => [0, 1, -1, 2, -2, 3, -3, 4, -4].map((d) => i + d)))].filter((i) => i >= 0 && i < lines.length);
    for (const i of near) {
      if (/^\s*(\/\/|\*|\/\*)/.test(lines[i]!)) continue; // comments are not code
      for (const [re, rep] of MUTATIONS) {
        if (out.length >= VARIANTS) break;
        if (!re.test(lines[i]!)) continue;
        const mutated = [...lines];
        mutated[i] = lines[i]!.replace(re, rep);
        const content = `${mutated.join('\n')}// ${marker}\n`;
        if (seen.has(content) || mutated[i] === lines[i]) continue;
        seen.add(content);
        out.push({ ...subject.fix, [file]: content });
      }
    }
  }
  for (let i = 0; out.length < VARIANTS; i++) {
    // i + 1 empty declarations after the types: the same program, another token sequence (not deduplicated)
    out.push(Object.fromEntries(Object.entries(subject.fix).map(([f, c]) => [f, `${c}${';'.repeat(i + 1)}// ${marker} copy ${i}\n`])));
  }
  return out;
}

function withMarker(fix: Record<string, string>, marker: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fix).map(([f, c]) => [f, `${c}// ${marker}\n`]));
}

export async function benchValidation(opts: { bugId?: string; subject?: BenchSubject; rounds?: number; workers?: number } = {}): Promise<ValidationBench> {
  const rounds = Math.max(1, opts.rounds ?? 5);
  const subject = opts.subject ?? (opts.bugId === 'generated' ? undefined : await demoSubject(opts.bugId ?? 'textkit-1')) ?? (await generatedSubject());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-bench-runner-'));
  const runner = await startRunner({ port: 0, dataDir, workers: opts.workers ?? os.availableParallelism(), log: () => undefined });
  try {
    const client = new RunnerClient({ url: runner.url, token: runner.token });
    const base: Record<string, string> = {};
    for (const f of Object.keys(subject.fix)) base[f] = await subject.workspace.read(f).catch(() => '');
    // limits of their own for every request kind and round: none is answered from the cache (verdict-cache.ts)
    let phase = 0;
    const fresh = () => ({ perTestTimeoutMs: 10_000 + ++phase });
    const run = (overlay: Record<string, string>, p: 'warm' | 'cold') => {
      const ws = subject.workspace.fork();
      ws.setOverlay(overlay);
      return client.validate(ws, subject.layout, subject.tests, { path: p, limits: fresh() });
    };
    // the variants of one write_fix as the engine sends them: one batch request
    const runBatch = (overlays: Array<Record<string, string>>) =>
      client.validateBatch(
        overlays.map((overlay) => {
          const ws = subject.workspace.fork();
          ws.setOverlay(overlay);
          return ws;
        }),
        subject.layout,
        subject.tests,
        { path: 'warm', limits: fresh() },
      );
    const timed = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
      const t0 = performance.now();
      const v = await fn();
      return [performance.now() - t0, v];
    };
    // warm-up: start every worker JVM and let the JIT settle (not measured)
    for (let i = 0; i < 3; i++) await runBatch(variantsOf(subject, base, `warm-up ${i}`));
    await run(withMarker(subject.fix, 'cold warm-up'), 'cold');

    const cold: number[] = [];
    const warm: number[] = [];
    const variants: number[] = [];
    let plausibleVariants = 0;
    let compiledTogether = 0;
    for (let r = 0; r < rounds; r++) {
      const [c, coldResult] = await timed(() => run(withMarker(subject.fix, `cold round ${r}`), 'cold'));
      const [w, warmResult] = await timed(() => run(withMarker(subject.fix, `warm round ${r}`), 'warm'));
      if (!coldResult.plausible || !warmResult.plausible || warmResult.path !== 'warm' || coldResult.path !== 'cold') {
        const why = (r: typeof coldResult) =>
          `plausible=${r.plausible}, path=${r.path}${r.compiled ? '' : ', does not compile'}${r.failingTests.length ? `, fails ${r.failingTests.slice(0, 5).join(', ')}${r.failingTests.length > 5 ? ` and ${r.failingTests.length - 5} more` : ''}` : ''}${r.stopped !== 'none' ? `, stopped: ${r.stopped}` : ''}`;
        throw new Error(
          `benchmark fix of ${subject.id} did not validate as expected (cold: ${why(coldResult)}; warm: ${why(warmResult)}); ` +
            'a bench measures a fix that passes: check the bug first with `repairlab validate <bug> --patch ground-truth --tests all`',
        );
      }
      const overlays = variantsOf(subject, base, `variants round ${r}`);
      const [v, results] = await timed(() => runBatch(overlays));
      if (results.some((x) => x.cached)) throw new Error('a benchmark variant was served from the cache');
      compiledTogether = results.filter((x) => x.compiledWith).length;
      if (process.env.REPAIRLAB_DEBUG_BATCH) {
        // each variant: P(lausible), F(ailing tests) or C(ompile error), how many shared its compile, compile/tests/total ms
        const each = results.map((x) => `${x.plausible ? 'P' : x.compiled ? 'F' : 'C'}${x.compiledWith ?? 1}:${Math.round(x.timingsMs.compile)}/${Math.round(x.timingsMs.tests)}/${Math.round(x.timingsMs.total)}`);
        console.error(`round ${r}: warm ${Math.round(w)} ms ${JSON.stringify(warmResult.timingsMs)}; variants ${Math.round(v)} ms: ${each.join(' ')}`);
      }
      plausibleVariants = results.filter((x) => x.plausible).length;
      cold.push(c);
      warm.push(w);
      variants.push(v);
    }
    const cold_ms = median(cold);
    const warm_ms = median(warm);
    const variants_ms = median(variants);
    const round2 = (x: number) => Math.round(x * 100) / 100;
    return {
      bug: subject.id,
      rounds,
      cold_ms: round2(cold_ms),
      warm_ms: round2(warm_ms),
      ratio: round2(cold_ms / warm_ms),
      variants: VARIANTS,
      variants_ms: round2(variants_ms),
      variants_ratio: round2(variants_ms / warm_ms),
      plausible_variants: plausibleVariants,
      compiled_together: compiledTogether,
      isolation: runner.isolation.backend,
    };
  } finally {
    await runner.close();
    // a worker JVM that is still going away can leave a file behind for a moment (ENOTEMPTY): retry, and never let
    // the clean-up of a temporary directory throw away a measurement that took minutes
    for (const clean of [() => rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }), subject.cleanup]) {
      await clean().catch((e: Error) => console.error(`warning: could not remove a temporary directory of the bench: ${e.message}`));
    }
  }
}
