// `repairlab bench …`: the speed benchmarks. Each measures RepairLab and its baseline side by side in one run and
// prints their ratio; none asserts a time (targets are read off the printed figures, see docs/).
import type { Command } from 'commander';
import type { BenchSubject } from '../../runner/bench/validation.ts';
import { oneOf, print, wholeNumber as positiveInt } from './flags.ts';
import { openNodeLab } from './node-lab.ts';

/** The benchmark subject of a catalogue bug (bundled or registered): its buggy and fixed workspaces from the engine's store. */
async function registeredSubject(bugId: string): Promise<BenchSubject> {
  const { engine } = await openNodeLab();
  const known = await engine.catalog.bugs();
  const bug = known.find((b) => b.id === bugId);
  const usable = known.filter((b) => b.groundTruth.fixedCommit).map((b) => b.id);
  if (!bug || !bug.groundTruth.fixedCommit) {
    throw new Error(
      `--bug ${bugId}: ${bug ? 'this bug has no fixed commit to measure' : 'not in the catalogue'}; use one of ${usable.join(', ') || '(none)'} ` +
        "(import more with `repairlab import-defects4j --register`), or 'generated' (a generated project).",
    );
  }
  const { openWorkspace } = await import('../repo/git-workspace.ts');
  const { bugSubject } = await import('../../runner/bench/validation.ts');
  const session = await engine.ensureRepository(bug);
  const [buggyFiles, fixedFiles] = await Promise.all([session.listTree(bug.buggyCommit), session.listTree(bug.groundTruth.fixedCommit)]);
  const before = new Map(buggyFiles.map((f) => [f.path, f.oid]));
  const changed = fixedFiles.filter((f) => before.get(f.path) !== f.oid).map((f) => f.path);
  return bugSubject(bug, await openWorkspace(session, bug.buggyCommit), await openWorkspace(session, bug.groundTruth.fixedCommit), changed);
}

/** A bench subject by id: 'generated', a bundled demo bug, or a bug of the catalogue. */
async function subjectOf(bugId: string): Promise<BenchSubject> {
  const { demoSubject, generatedSubject } = await import('../../runner/bench/validation.ts');
  if (bugId === 'generated') return generatedSubject();
  return (await demoSubject(bugId)) ?? registeredSubject(bugId);
}

export function registerBenchCommands(program: Command): void {
  const bench = program.command('bench').description('speed benchmarks (ratios measured side by side in one run)');

  bench
    .command('validation')
    .description('runner: cold vs warm validation of one fix, and 30 variants of it (targets: ratio ≥ 20, variants_ratio ≤ 8)')
    .option('--rounds <n>', 'rounds (medians are reported)', '5')
    .option('--bug <id>', "any bug of the catalogue with a fixed commit (bundled or registered, e.g. an imported Lang-1), or 'generated' for a generated project", 'textkit-1')
    .option('--candidates <set>', "'variants' (30 variants of the fix in one batch, medians over --rounds) or 'realistic' (the fix and 29 realistic candidates: cold, warm one by one and one batch side by side, per candidate and per kind)", 'variants')
    .option('--fidelity', "with --candidates realistic: also validate every candidate alone on the whole suite and compare each fast-path verdict with it")
    .option('--json', 'print JSON')
    .action(async (opts: { rounds: string; bug: string; candidates: string; fidelity?: boolean; json?: boolean }) => {
      const rounds = positiveInt('--rounds', opts.rounds);
      const set = oneOf('--candidates', opts.candidates, ['variants', 'realistic'] as const);
      if (set === 'realistic') {
        const { benchRealistic, realisticText } = await import('../../runner/bench/realistic.ts');
        const r = await benchRealistic(await subjectOf(opts.bug), { fidelity: !!opts.fidelity, log: opts.json ? undefined : (l) => console.error(l) });
        print(!!opts.json, r, () => realisticText(r));
        return;
      }
      const { benchValidation } = await import('../../runner/bench/validation.ts');
      const subject = opts.bug === 'generated' ? undefined : await registeredSubject(opts.bug);
      const r = await benchValidation({ rounds, bugId: opts.bug, ...(subject ? { subject } : {}) });
      print(!!opts.json, r, () =>
        `${r.bug}, ${r.rounds} rounds (medians): cold ${r.cold_ms.toFixed(0)} ms, warm ${r.warm_ms.toFixed(0)} ms, ratio ${r.ratio.toFixed(1)}×; ` +
        `${r.variants} variants ${r.variants_ms.toFixed(0)} ms = ${r.variants_ratio.toFixed(1)}× one warm validation`,
      );
    });

  bench
    .command('fidelity')
    .description('every fast-path verdict (test order, deduplication, batches) against the plain whole-suite, one-by-one verdict, over the realistic candidates of each bug')
    .requiredOption('--bugs <ids>', "comma-separated bugs of the catalogue with a fixed commit (e.g. Cli-1,Lang-1), 'generated', or a bundled bug")
    .option('--json', 'print JSON')
    .action(async (opts: { bugs: string; json?: boolean }) => {
      const { benchRealistic, realisticText } = await import('../../runner/bench/realistic.ts');
      const ids = opts.bugs.split(',').map((b) => b.trim()).filter(Boolean);
      if (!ids.length) throw new Error("--bugs: name at least one bug, e.g. --bugs Cli-1,Lang-1 (or 'generated').");
      const reports = [];
      for (const id of ids) {
        const r = await benchRealistic(await subjectOf(id), { fidelity: true, coldMutants: 0, log: opts.json ? undefined : (l) => console.error(l) });
        reports.push(r);
        if (!opts.json) console.log(realisticText(r));
      }
      const checked = reports.reduce((a, r) => a + (r.fidelity?.checked ?? 0), 0);
      const agree = reports.reduce((a, r) => a + (r.fidelity?.agree ?? 0), 0);
      print(!!opts.json, { bugs: ids, checked, agree, reports }, () => `fidelity: ${agree}/${checked} candidates over ${ids.length} bug(s) agree with the plain whole-suite verdict`);
      if (agree !== checked) process.exitCode = 1;
    });

  bench
    .command('experiment-throughput')
    .description('an experiment with instant model replies on one local runner, then two: runner busy share (goal ≥ 90%) and cells per minute, side by side')
    .option('--bugs <n>', 'bundled bugs (up to 16)', '8')
    .option('--samples <n>', 'samples per bug', '3')
    .option('--json', 'print JSON')
    .action(async (opts: { bugs: string; samples: string; json?: boolean }) => {
      const { benchExperimentThroughput, throughputText } = await import('../../benchmarks/perf/experiment-throughput.ts');
      const r = await benchExperimentThroughput({ bugs: positiveInt('--bugs', opts.bugs), samples: positiveInt('--samples', opts.samples), log: opts.json ? undefined : (l) => console.error(l) });
      print(!!opts.json, r, () => throughputText(r));
    });

  bench
    .command('pool')
    .description('an experiment on a pool of 1, 2 and 4 local runners side by side (cells and validations per minute), and the scheduler\'s dispatch simulated at 100 runners with the measured times: coordinator overhead per dispatched cell (goal < 1% of a validation)')
    .option('--bugs <n>', 'bundled bugs (up to 16)', '8')
    .option('--samples <n>', 'samples per bug', '2')
    .option('--json', 'print JSON')
    .action(async (opts: { bugs: string; samples: string; json?: boolean }) => {
      const { benchPool, poolBenchText } = await import('../../benchmarks/perf/pool.ts');
      const r = await benchPool({ bugs: positiveInt('--bugs', opts.bugs), samples: positiveInt('--samples', opts.samples), log: opts.json ? undefined : (l) => console.error(l) });
      print(!!opts.json, r, () => poolBenchText(r));
    });

  bench
    .command('blame [repoDir] [file]')
    .description("RepairLab's blame vs `git blame` on one file (default: the long-history file of a generated repository; target ≤ 5×)")
    .option('--rev <rev>', 'revision', 'HEAD')
    .option('--runs <n>', 'timed runs (medians are reported)', '5')
    .option('--json', 'print JSON')
    .action(async (repoDir: string | undefined, file: string | undefined, opts: { rev: string; runs: string; json?: boolean }) => {
      const { benchmarkBlame } = await import('../../benchmarks/perf/blame.ts');
      const runs = positiveInt('--runs', opts.runs);
      if (repoDir && !file) throw new Error('bench blame: give both <repoDir> and <file>, or neither (generated repository).');
      if (repoDir) {
        const { openOnDiskRepo } = await import('./on-disk-repo.ts');
        openOnDiskRepo(repoDir); // throws, naming the directory, when it is not a repository
      }
      const log = opts.json ? () => undefined : console.log;
      let target = repoDir && file ? { dir: repoDir, file } : undefined;
      if (!target) {
        const { cachedHistoryRepo, LONG_FILE } = await import('../../test/integration/history/history-generator.ts');
        target = { dir: cachedHistoryRepo().dir, file: LONG_FILE };
      }
      const r = await benchmarkBlame(target.dir, target.file, opts.rev, runs, log);
      if (opts.json) print(true, r, () => '');
    });

  bench
    .command('pack-index [bundle]')
    .description("importing a bundle into the Node store: git index-pack against isomorphic-git's indexer, interleaved (default: a bundle of this checkout)")
    .option('--rounds <n>', 'rounds (medians are reported)', '3')
    .option('--json', 'print JSON')
    .action(async (bundle: string | undefined, opts: { rounds: string; json?: boolean }) => {
      const { existsSync } = await import('node:fs');
      if (bundle && !existsSync(bundle)) throw new Error(`bench pack-index: ${bundle} does not exist; give a git bundle (git bundle create repo.bundle --all) or none.`);
      const { benchPackIndex, packIndexText } = await import('../../benchmarks/perf/pack-index.ts');
      const r = await benchPackIndex(bundle, positiveInt('--rounds', opts.rounds));
      print(!!opts.json, r, () => packIndexText(r));
    });

  bench
    .command('experiment-results')
    .description("the Experiments tab on 1,000 trajectories in Chromium: time to render, longest block while scrolling (goals < 1 s, < 100 ms; needs a build: npx vite build)")
    .option('--dist <dir>', 'the built app', 'dist')
    .option('--json', 'print JSON')
    .action(async (opts: { dist: string; json?: boolean }) => {
      const { existsSync } = await import('node:fs');
      if (!existsSync(`${opts.dist}/index.html`)) throw new Error(`--dist ${opts.dist}: no built app there (index.html); build it with \`npx vite build\` or name the directory.`);
      const { benchResultsRender, resultsRenderText } = await import('../../benchmarks/perf/experiment-results-render.ts');
      const r = await benchResultsRender(opts.dist);
      print(!!opts.json, r, () => resultsRenderText(r));
    });

  bench
    .command('cli-startup')
    .description('`repairlab --help` against node + the tsx loader on an empty module, interleaved (goal: well under 1 s)')
    .option('--rounds <n>', 'rounds (medians are reported)', '7')
    .option('--json', 'print JSON')
    .action(async (opts: { rounds: string; json?: boolean }) => {
      const { benchCliStartup, cliStartupText } = await import('../../benchmarks/perf/cli-startup.ts');
      const r = benchCliStartup(positiveInt('--rounds', opts.rounds));
      print(!!opts.json, r, () => cliStartupText(r));
    });

  bench
    .command('engine-overhead')
    .description("the agent loop's own time per cycle against the cycle's model and tool calls, on a replayed run (target < 1%)")
    .option('--rounds <n>', 'measured replays after a warm-up one (medians are reported)', '5')
    .option('--browser', "in Chromium instead: the loop in the app's web worker, records in IndexedDB, driven through the UI (needs a build: npx vite build)")
    .option('--json', 'print JSON')
    .action(async (opts: { rounds: string; browser?: boolean; json?: boolean }) => {
      const rounds = positiveInt('--rounds', opts.rounds);
      const log = opts.json ? () => undefined : console.log;
      if (opts.browser) {
        const { benchEngineOverheadInBrowser } = await import('../../benchmarks/perf/engine-overhead-browser.ts');
        const r = await benchEngineOverheadInBrowser(log, { rounds });
        if (opts.json) print(true, r, () => '');
        return;
      }
      const { benchEngineOverhead } = await import('../../benchmarks/perf/engine-overhead.ts');
      const r = await benchEngineOverhead(log, { rounds });
      if (opts.json) print(true, r, () => '');
    });
}
