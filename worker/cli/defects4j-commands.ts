// `repairlab defects4j …`: commands over Defects4J checkouts. `check` imports (or reuses) and validates bugs through a
// runner and reports which reproduce as Defects4J reproduces them (docs/defects4j-import.md).
import type { Command } from 'commander';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BugCheck } from '../node/defects4j/defects4j-check.ts';
import { print, wholeNumber } from './flags.ts';
import { join } from 'node:path';
import { openNodeLab, repairlabHome, withRunner, type RunnerFlags } from './node-lab.ts';

/**
 * The runner `defects4j check` starts when given none. Tiered JIT: whole suites run once each, and C2's code pays
 * back. A 2 GB heap: Defects4J runs the tests in ant's JVM with the JVM's default heap (a quarter of the machine's
 * memory); with the runner's 512 MB, Closure-12's fix ran out of memory in its suite of 7,607 tests.
 */
/** Where the shipped exclusion files are, as help text says it (the module itself is loaded only when a command runs). */
export const SHIPPED_EXCLUSIONS_HINT = 'data/defects4j/environment-exclusions/';
const DEFECTS4J_URL_HINT = 'https://github.com/rjust/defects4j.git';

export const CHECK_RUNNER = { jit: 'tiered', heapMb: 2048 } as const;

export function registerDefects4jCommands(program: Command): void {
  const d4j = program.command('defects4j').description('Defects4J: set up a project, check that imported bugs reproduce');
  registerSetup(d4j);
  registerPack(d4j);

  d4j
    .command('check')
    .description(
      'import (or reuse) and validate each bug: unpatched fails exactly the trigger tests, the developer fix passes the whole suite, ' +
        'blame of the fault lines equals `git blame` at the original buggy revision, and no history section, bug report or ' +
        'history command shows a line only the fix has',
    )
    .requiredOption('--project <id>', 'Defects4J project id, e.g. Lang')
    .requiredOption('--project-repo <dir>', "the project's git repository (Defects4J: project_repos/<name>.git)")
    .requiredOption('--d4j <dir>', 'a Defects4J checkout (contains framework/projects/)')
    .option('--bugs <list>', 'bug ids, e.g. 1,2,5-9 (default: every active bug)')
    .option('--out <dir>', 'where imported bundles and BugSpecs go', 'defects4j-bugs')
    .option('--descriptions <file>', 'bug reports as JSON, {"<id>": {"title": "…", "body": "…"}}, for bugs imported now')
    .option('--reimport', 'import again even when the catalogue already holds a bug imported from the same revisions')
    .option(
      '--record-env-failures',
      "measure afresh the tests that fail on the developer fix in this environment (not trigger tests), record them in the bug's spec as " +
        'layout.environmentExcludedTests with their failure as the reason, and in the exclusions file (--exclusions), and check again (the buggy version must then fail at least the trigger tests)',
    )
    .option('--exclusions <dir>', `the projects' environment exclusion files, <dir>/<Project>.json: applied by imports; with --record-env-failures each checked bug's entry is measured again and rewritten (default: the ones RepairLab ships, ${SHIPPED_EXCLUSIONS_HINT})`)
    .option('--per-test-timeout <seconds>', "a test's time limit in the whole-suite runs, whole seconds (default 30; Defects4J sets none)")
    .option('--history-only', 'check blame and leakage only: no validation, no runner (minutes for a whole project)')
    .option('--runner <url>', 'runner URL (default: start one in this process)')
    .option('--token <token>', 'runner token')
    .option('--heap-mb <mb>', `the test JVMs' heap, in MB, of the runner the check starts (default ${CHECK_RUNNER.heapMb}; Defects4J's take the JVM's default, a quarter of the machine's memory)`)
    .option('--results <file>', "append each bug's result to FILE as a JSON line as soon as it is checked (a check of a whole project keeps what it measured if stopped)")
    .option('--resume', "with --results: the bugs FILE already holds a result for (this project, the same --history-only) are not checked again; their results join the report")
    .option('--json', 'print {project, bugs, reproduced, failed, unavailable, results}')
    .action(
      async (opts: RunnerFlags & { project: string; projectRepo: string; d4j: string; bugs?: string; out: string; descriptions?: string; exclusions?: string; reimport?: boolean; recordEnvFailures?: boolean; historyOnly?: boolean; perTestTimeout?: string; heapMb?: string; results?: string; resume?: boolean; json?: boolean }) => {
        const { checkDefects4j } = await import('../node/defects4j/defects4j-check.ts');
        const perTestTimeout = opts.perTestTimeout === undefined ? undefined : wholeNumber('--per-test-timeout', opts.perTestTimeout);
        const heapMb = opts.heapMb === undefined ? undefined : wholeNumber('--heap-mb', opts.heapMb);
        const { engine, loadJava } = await openNodeLab();
        await loadJava(); // blame of blameless bugs classifies lines
        if (opts.resume && !opts.results) throw new Error('--resume reads the results of an earlier check: give the file with --results FILE.');
        const done = opts.resume ? readCheckResults(opts.results!, opts.project, !!opts.historyOnly) : [];
        const check = (runner?: Parameters<typeof checkDefects4j>[0]['runner']) =>
          checkDefects4j({
            projectRepo: opts.projectRepo,
            d4jDir: opts.d4j,
            project: opts.project,
            outDir: opts.out,
            engine,
            ...(opts.bugs ? { bugs: opts.bugs } : {}),
            ...(opts.descriptions ? { descriptions: opts.descriptions } : {}),
            ...(opts.reimport ? { reimport: true } : {}),
            ...(opts.exclusions ? { exclusionsDir: opts.exclusions } : {}),
            ...(opts.recordEnvFailures ? { recordEnvFailures: true } : {}),
            ...(opts.historyOnly ? { historyOnly: true } : {}),
            ...(perTestTimeout ? { perTestTimeoutMs: perTestTimeout * 1000 } : {}),
            ...(runner ? { runner } : {}),
            log: (m) => console.error(m), // progress on stderr; --json's report alone goes to stdout
            ...(opts.results ? { onResult: (r: { bugId: string }) => appendFileSync(opts.results!, JSON.stringify({ project: opts.project, historyOnly: !!opts.historyOnly, ...r }) + '\n') } : {}),
            ...(done.length ? { done } : {}),
          });
        const report = opts.historyOnly ? await check() : await withRunner(opts, check, { ...CHECK_RUNNER, ...(heapMb ? { heapMb } : {}) });
        print(!!opts.json, report, () =>
          [
            ...report.results.map(
              (r) =>
                `${r.bugId.padEnd(14)} ${r.reproduced ? (report.historyOnly ? 'passes' : 'reproduces') : r.unavailable ? `UNAVAILABLE (data: ${r.unavailable})` : 'FAILS'}${r.reused ? ' (reused)' : ''}` +
                `${r.environmentExcluded ? ` — ${r.environmentExcluded} test(s) excluded for the environment${r.environmentRecorded ? ` (${r.environmentRecorded.length} recorded now)` : ''}` : ''}` +
                `${r.unpatchedExtraFailing?.length ? `; the buggy version also fails ${r.unpatchedExtraFailing.join(', ')}` : ''}` +
                r.reasons.map((m) => `\n    - ${m}`).join(''),
            ),
            report.historyOnly
              ? `${report.project} (history only: blame and leakage): ${report.reproduced}/${report.bugs - report.unavailable} pass, ${report.failed} fail${unavailableNote(report.unavailable)}`
              : `${report.project}: ${report.reproduced}/${report.bugs - report.unavailable} reproduce, ${report.failed} fail${unavailableNote(report.unavailable)}, ${report.environmentExcluded} test(s) excluded for the environment`,
          ].join('\n'),
        );
        if (report.failed) process.exitCode = 1;
      },
    );
}

function registerSetup(d4j: Command): void {
  d4j
    .command('setup')
    .description(
      'one command per project: clone (or reuse) Defects4J and the project\'s history, import every active bug with progress ' +
        '(the shipped environment exclusions applied), register them, and say what is unavailable and why',
    )
    .requiredOption('--project <id>', 'Defects4J project id, e.g. Lang')
    .option('--d4j <dir|url>', `a Defects4J checkout, or a URL to clone (default ${DEFECTS4J_URL_HINT})`)
    .option('--repo <dir|url>', "the project's git history, or a URL to clone (default: the checkout's project_repos/<name>.git, else the project's public repository)")
    .option('--descriptions <file>', "bug reports: HAFixAgent's dataset/defects4j/bug_description/<Project>/bug_description.json (or {\"<id>\": {\"title\", \"body\"}})")
    .option('--bugs <list>', 'bug ids, e.g. 1-5,9 (default: every active bug)')
    .option('--out <dir>', 'where bundles, BugSpecs and index.json go (default: REPAIRLAB_HOME/defects4j/<Project>)')
    .option('--cache <dir>', 'where clones go and are reused (default: REPAIRLAB_HOME/defects4j/clones)')
    .option('--exclusions <dir>', `the projects' environment exclusion files (default: the ones RepairLab ships, ${SHIPPED_EXCLUSIONS_HINT})`)
    .option('--json', 'print {project, d4jDir, d4jCommit, projectRepo, active, addedInV3, imported, unavailable, described, out}')
    .action(async (opts: { project: string; d4j?: string; repo?: string; descriptions?: string; bugs?: string; out?: string; cache?: string; exclusions?: string; json?: boolean }) => {
      const { setupDefects4j } = await import('../node/defects4j/setup.ts');
      const { registerImported } = await import('../node/defects4j/register.ts');
      const home = repairlabHome();
      const out = opts.out ?? join(home, 'defects4j', opts.project);
      const result = setupDefects4j({
        project: opts.project,
        cacheDir: opts.cache ?? join(home, 'defects4j', 'clones'),
        outDir: out,
        ...(opts.d4j ? { d4j: opts.d4j } : {}),
        ...(opts.repo ? { repo: opts.repo } : {}),
        ...(opts.descriptions ? { descriptions: opts.descriptions } : {}),
        ...(opts.bugs ? { bugs: opts.bugs } : {}),
        ...(opts.exclusions ? { exclusionsDir: opts.exclusions } : {}),
        log: (m) => (m.endsWith(' — skipped') ? undefined : console.error(m)), // progress on stderr; failures once, below
      });
      const notRegistered = await registerImported((await openNodeLab()).engine, result.imported, out);
      const unavailable = [...result.unavailable, ...notRegistered.map((f) => ({ bugId: f.bugId, kind: 'failed' as const, why: f.message }))];
      const failed = unavailable.filter((u) => u.kind === 'failed');
      if (failed.length) process.exitCode = 1;
      const imported = result.imported.map((b) => ({ id: b.spec.id, environmentExcluded: b.spec.layout.environmentExcludedTests?.length ?? 0 }));
      const { imported: _bugs, ...rest } = result;
      print(!!opts.json, { ...rest, imported, unavailable, out }, () =>
        [
          `${result.project}: ${imported.length} of ${result.active} active bug(s) imported and registered` +
            `${result.addedInV3 ? ` (${result.addedInV3.length} of the active bugs were added in Defects4J v3)` : ''}` +
            `, ${imported.filter((b) => b.environmentExcluded).length} with tests excluded for the environment` +
            `${opts.descriptions ? `, ${result.described} with a bug report from ${opts.descriptions}` : ''}`,
          ...(unavailable.length ? [`unavailable (${unavailable.length}):`, ...unavailable.map((u) => `  ${u.bugId.padEnd(14)} ${u.kind}: ${u.why}`)] : []),
          `bugs in ${out}/ (index.json); try \`repairlab validate ${imported[0]?.id ?? '<id>'} --patch ground-truth\``,
        ].join('\n'),
      );
    });
}

function registerPack(d4j: Command): void {
  d4j
    .command('pack')
    .description('write imported bugs as one benchmark pack file (.rlpack) that the app opens (Repositories → choose files): their bundles and BugSpecs')
    .requiredOption('--from <dir>', 'an import\'s output folder (index.json, bugs/, bundles): import-defects4j --out or setup --out')
    .requiredOption('--out <file>', 'the pack to write, e.g. cli.rlpack')
    .option('--bugs <ids>', 'the bugs to pack, e.g. Cli-1,Cli-2 (default: every bug of the folder)')
    .action(async (opts: { from: string; out: string; bugs?: string }) => {
      const { writeBenchmarkPack, PACK_EXTENSION } = await import('../bugs/benchmark-pack.ts');
      const { BenchmarkIndex, BugSpec } = await import('../contracts/bug.ts');
      if (!opts.out.endsWith(PACK_EXTENSION)) throw new Error(`--out ${opts.out}: a benchmark pack's name ends in ${PACK_EXTENSION} (the app tells packs apart by it).`);
      const indexPath = join(opts.from, 'index.json');
      if (!existsSync(indexPath)) throw new Error(`--from ${opts.from} has no index.json: give the folder an import wrote (import-defects4j --out, defects4j setup --out).`);
      const index = BenchmarkIndex.parse(JSON.parse(readFileSync(indexPath, 'utf8')));
      const specs = index.bugs.map((path) => ({ path, spec: BugSpec.parse(JSON.parse(readFileSync(join(opts.from, path), 'utf8'))) }));
      const wanted = opts.bugs ? opts.bugs.split(',').map((b) => b.trim()).filter(Boolean) : specs.map((s) => s.spec.id);
      const unknown = wanted.filter((id) => !specs.some((s) => s.spec.id === id));
      if (unknown.length) throw new Error(`--bugs: ${unknown.join(', ')} not in ${indexPath} (it has ${specs.map((s) => s.spec.id).join(', ')}).`);
      const chosen = specs.filter((s) => wanted.includes(s.spec.id));
      const repoIds = new Set(chosen.map((s) => s.spec.repoId));
      const packIndex = { schemaVersion: 1 as const, repositories: index.repositories.filter((r) => repoIds.has(r.repoId)), bugs: chosen.map((s) => s.path) };
      const files = new Map<string, Uint8Array>([...packIndex.repositories.map((r) => r.bundle), ...packIndex.bugs].map((p) => [p, new Uint8Array(readFileSync(join(opts.from, p)))]));
      const bytes = writeBenchmarkPack(packIndex, files);
      writeFileSync(opts.out, bytes);
      console.log(`wrote ${opts.out}: ${chosen.length} bug(s) (${chosen.map((s) => s.spec.id).join(', ')}), ${(bytes.length / 1024 / 1024).toFixed(1)} MB — open it in the app: Repositories → choose files`);
    });
}

/** The summary's words for bugs whose repository data is missing (not counted among the bugs checked). */
function unavailableNote(n: number): string {
  return n ? `; ${n} more unavailable: the data lacks what they need (not failures)` : '';
}

/**
 * The results a `--results` file holds for a project checked the same way (the last line of a bug wins). A line that is
 * not JSON is refused, naming the file and the line: the file is the check's record, and guessing past a damaged
 * line would report a bug as checked when it was not.
 */
function readCheckResults(file: string, project: string, historyOnly: boolean): BugCheck[] {
  if (!existsSync(file)) return [];
  const byBug = new Map<string, BugCheck>();
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let row: BugCheck & { project?: string; historyOnly?: boolean };
    try {
      row = JSON.parse(line) as typeof row;
    } catch {
      throw new Error(`${file}:${i + 1} is not a JSON line of \`defects4j check --results\`: remove the line (or the file) and check that bug again.`);
    }
    if (row.project === project && !!row.historyOnly === historyOnly && typeof row.bugId === 'string') {
      const { project: _p, historyOnly: _h, ...result } = row;
      byBug.set(row.bugId, result);
    }
  });
  return [...byBug.values()];
}
