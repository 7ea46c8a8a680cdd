// The headless CLI: the same engine code as the browser worker, on Node. Each command prints human-readable
// text, or one JSON document with --json. Errors go to stderr with a message that says what to do; exit 1.
import { readFile, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { ModelSettings } from '../contracts/run-settings.ts';
import type { PatchChoice, RunEvent } from '../contracts/runs.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import { openNodeLab, repairlabHome, withRunner, type RunnerFlags } from './node-lab.ts';
import { formatValidation } from './format.ts';
import { decodeUtf8, oneOf, parseJsonFlag, print, wholeNumber, type FlagText } from './flags.ts';
import { DEFAULT_RUNNER_WAIT } from '../agent/runner-outage.ts';
import type { RunManagerOptions } from '../runs/run-manager.ts';
import { registerAnalysisCommands } from './analysis-commands.ts';
import { registerBenchCommands } from './bench-commands.ts';
import { registerDefects4jCommands } from './defects4j-commands.ts';
import { registerExperimentCommands } from './experiment-commands.ts';
import { registerPoolCommands } from './pool-commands.ts';
import { registerShareCommands } from './share-commands.ts';
import { registerReviewCommands } from './review-commands.ts';
import { registerPublishedCommands } from './published-commands.ts';
import { registerStatsCommand } from './stats-command.ts';
import { setRunnerAdviceSurface } from '../runner-client/runner-errors.ts';

// runner errors name this CLI's flags and environment variables, not the app's settings
setRunnerAdviceSurface('terminal');

// `repairlab blame … | head`: a reader that stops early is not an error
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const TEST_MODES = ['failing-first', 'all'] as const;

/** The flags of the model a run uses (`run`, `continue`); read them with modelFromFlags. */
interface ModelFlags {
  llm: string;
  baseUrl: string;
  apiKeyEnv: string;
}
function withModelFlags(cmd: Command, llmNote = ''): Command {
  return cmd
    .requiredOption('--llm <spec>', `replay:<cassette.json or trajectory.json> | scripted:<replies.json> | openai:<model>${llmNote}`)
    .option('--base-url <url>', 'OpenAI-compatible endpoint for openai:<model>', 'https://api.openai.com/v1')
    .option('--api-key-env <name>', 'environment variable holding the API key (never printed or recorded)', 'OPENAI_API_KEY');
}

/** How long `run` and `continue` wait for a runner that went away (worker/agent/runner-outage.ts). */
interface RunnerWaitFlags {
  runnerRetries?: string;
  runnerRetryDelay?: string;
}
function withRunnerWaitFlags(cmd: Command): Command {
  return cmd
    .option('--runner-retries <n>', `retries while the runner is unreachable or answers 5xx, before the run is set aside as waiting-for-runner (default ${DEFAULT_RUNNER_WAIT.maxRetries})`)
    .option('--runner-retry-delay <ms>', `first delay between those retries, doubled each time up to ${DEFAULT_RUNNER_WAIT.maxDelayMs} ms (default ${DEFAULT_RUNNER_WAIT.firstDelayMs})`);
}
function runManagerOptions(opts: RunnerWaitFlags & { json?: boolean }): RunManagerOptions {
  return {
    runnerWait: {
      ...(opts.runnerRetries !== undefined ? { maxRetries: wholeNumber('--runner-retries', opts.runnerRetries, 0) } : {}),
      ...(opts.runnerRetryDelay !== undefined ? { firstDelayMs: wholeNumber('--runner-retry-delay', opts.runnerRetryDelay, 0) } : {}),
    },
    onRunnerEvent: (e) => {
      if (e.type === 'waiting-for-runner') console.error(`runner unavailable (attempt ${e.attempt} of ${e.maxRetries + 1}): ${e.error}; retrying in ${Math.round(e.retryInMs / 100) / 10} s`);
      else if (e.type === 'runner-back') console.error(`runner back after ${Math.round(e.waitedMs / 100) / 10} s; the run goes on`);
      else console.error(`run ${e.runId} set aside: ${e.reason}. Continue it with: repairlab continue ${e.runId} --llm …`);
    },
  };
}

/** --runner/--token (RunnerFlags): without them a runner is started in this process (withRunner) */
function withRunnerFlags(cmd: Command, when = ''): Command {
  return cmd.option('--runner <url>', `runner URL (default: start one in this process${when})`).option('--token <token>', 'runner token');
}

const program = new Command();
program
  .name('repairlab')
  .description('RepairLab: agentic program repair sandbox (headless engine)')
  .showHelpAfterError()
  .configureOutput({ outputError: (str, write) => write(str) });

program
  .command('bugs')
  .description('list the bundled bugs')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const bugs = await (await openNodeLab()).engine.listBugs();
    print(!!opts.json, bugs, () => bugs.map((b) => `${b.id.padEnd(16)} ${b.category.padEnd(5)} ${b.blameable ? 'blameable' : 'blameless'}  ${b.title}`).join('\n'));
  });

withRunnerFlags(
  program
    .command('validate <bug>')
    .description('compile and test a bug on the runner, with no patch, the ground-truth fix, or a unified diff file')
    .option('--patch <patch>', "'none', 'ground-truth', or a path to a unified diff", 'none')
    .option('--tests <mode>', `${TEST_MODES.map((m) => `'${m}'`).join(' or ')} (default failing-first)`, 'failing-first')
    .option('--allow-test-edits', "let the patch change the bug's test files (your own patch only: the tests define the bug)"),
)
  .option('--json', 'print JSON')
  .action(async (bugId: string, opts: RunnerFlags & { patch: string; tests: string; allowTestEdits?: boolean; json?: boolean }) => {
    const mode = oneOf('--tests', opts.tests, TEST_MODES);
    const { engine } = await openNodeLab();
    const bug = await engine.publicBug(bugId);
    const tests = mode === 'all' ? ({ mode: 'all' } as const) : ({ mode: 'failing-first', tests: bug.failingTests } as const);
    let result: ValidationResult;
    // a patch applied other than exactly as written (fuzz, offsets, bytes that were not UTF-8) is reported, never silent
    const warnings: string[] = [];
    if (opts.patch === 'none' || opts.patch === 'ground-truth') {
      const patch: PatchChoice = opts.patch;
      result = await withRunner(opts, (runner) => engine.validatePatch(bugId, patch, runner, tests));
    } else {
      const file = await readPatchFile(opts.patch);
      const { workspace, bug: spec } = await engine.workspaceFor(bugId);
      const { applyUnifiedDiff, describeInexact, PatchApplyError } = await import('../diff/apply-diff.ts');
      if (file.replaced) warnings.push(`${opts.patch} is not valid UTF-8: ${file.replaced} byte sequence(s) were decoded as U+FFFD (lossy); save the patch as UTF-8`);
      try {
        const applied = await applyUnifiedDiff(workspace, file.text);
        warnings.push(...applied.inexact.map(describeInexact));
      } catch (e) {
        if (e instanceof PatchApplyError) throw new Error(`--patch ${opts.patch}: ${e.message}${file.replaced ? ` (the file is not valid UTF-8; ${file.replaced} byte sequence(s) were lost in decoding)` : ''}`);
        throw e;
      }
      // the tests define the bug: a patch that changes them is refused unless the person says it is theirs
      const { refusedTestEdits, describeTestEdit } = await import('../contracts/test-edits.ts');
      const testEdits = opts.allowTestEdits ? 'any' : 'none';
      const basePaths = new Set((await workspace.baseFiles()).map((f) => f.path));
      const refused = refusedTestEdits(workspace.overlay(), spec.layout, basePaths, testEdits);
      if (refused.length) {
        throw new Error(
          `--patch ${opts.patch} ${refused.map(describeTestEdit).join('; ')}. The tests define the bug, so a patch may change only program files ` +
            `(${spec.layout.sourceDirs.join(', ')}). If this is your own patch and you mean to change the tests, pass --allow-test-edits.`,
        );
      }
      const { RunnerClient } = await import('../runner-client/client.ts');
      result = await withRunner(opts, (runner) => new RunnerClient(runner).validate(workspace, spec.layout, tests, { testEdits }));
    }
    print(!!opts.json, { bug: bugId, patch: opts.patch, verdict: result.plausible ? 'pass' : 'fail', warnings, ...result }, () => formatValidation(bugId, result, warnings));
    process.exitCode = 0;
  });

withRunnerWaitFlags(withRunnerFlags(
  withModelFlags(
    program
      .command('run <bug>')
      .description('run an agent preset on a bug, headless, and write its trajectory (or trajectories)')
      .requiredOption('--preset <preset>', 'oneshot | repairagent | hafixagent | passerine (see `repairlab presets`)'),
  )
    .option('--variant <id...>', 'named variants of the preset, e.g. no-search-tools (see `repairlab presets`)')
    .option('--overrides <json>', 'StrategySpec overrides as JSON, e.g. \'{"sampling":{"trajectories":5}}\'')
    .option('--out <file>', 'write the trajectory here (several trajectories: a JSON array)')
    .option('--prices <file.json>', 'price table, USD per million tokens by model: {"my-model": {"inputPerMTok": 1, "outputPerMTok": 2}} (replaces the built-in one)'),
))
  .option('--json', 'print the trajectory as JSON (several: {trajectories, summary})')
  .action(async (bugId: string, opts: RunnerFlags & RunnerWaitFlags & ModelFlags & { preset: string; variant?: string[]; overrides?: string; out?: string; prices?: string; json?: boolean }) => {
    const model = await modelFromFlags(opts);
    const { parsePriceTable } = await import('../contracts/prices.ts');
    const prices = opts.prices ? parsePriceTable(parseJsonFlag(`--prices ${opts.prices}`, await readFlagFile('--prices ', opts.prices), '{"my-model": {"inputPerMTok": 1, "outputPerMTok": 2}}'), `--prices ${opts.prices}`) : undefined;
    const overrides = opts.overrides ? parseJsonFlag('--overrides', opts.overrides) : undefined;
    const { plausibleAtK } = await import('../agent/trajectories.ts');
    const { runs } = await openNodeLab({ runs: runManagerOptions(opts) });
    const trajectories = await withRunner(opts, (runner) =>
      runs.start({ bugId, preset: opts.preset, variants: opts.variant, overrides, model, runner, ...(prices ? { prices } : {}) }, (e) => {
        if (!opts.json) printProgress(e);
      }),
    );
    const describe = (t: (typeof trajectories)[number]) => {
      const o = t.outcome;
      const facts = o
        ? [
            `${o.totals.steps} steps`,
            o.totals.costUsd === null ? 'cost unknown (a model had no price: --prices)' : `$${o.totals.costUsd.toFixed(4)}`,
            ...(o.exactMatch === null ? [] : [o.exactMatch ? "matches the developers' fix" : "differs from the developers' fix"]),
          ].join(' · ')
        : '';
      const saved = opts.out ? `trajectory: ${opts.out}` : `run ${t.runId}, saved in ${repairlabHome()}/records (the whole trajectory as a file: --out <file>)`;
      if (!o) return `${bugId} with ${opts.preset}: ${t.status} — not finished: continue it with \`repairlab continue ${t.runId} --llm …\`\n${saved}`;
      return `${bugId} with ${opts.preset}: ${o.status} — ${o.reason}\n${facts}\n${o.finalPatch}\n${saved}`;
    };
    if (trajectories.length === 1) {
      const t = trajectories[0]!;
      if (opts.out) await writeFile(opts.out, JSON.stringify(t, null, 2));
      print(!!opts.json, t, () => describe(t));
    } else {
      const n = trajectories.length;
      const c = trajectories.filter((t) => t.outcome?.status === 'plausible').length;
      const ks = [1, 5, 10, 20].filter((k) => k <= n);
      const summary = { trajectories: n, plausible: c, plausibleAtK: Object.fromEntries(ks.map((k) => [k, plausibleAtK(n, c, k)])) };
      if (opts.out) await writeFile(opts.out, JSON.stringify(trajectories, null, 2));
      print(!!opts.json, { trajectories, summary }, () =>
        [...trajectories.map((t, i) => `#${i + 1} ${t.outcome?.status ?? 'unfinished'} (${t.steps.length} steps) ${t.runId}`), `plausible ${c} of ${n}; ${ks.map((k) => `plausible@${k} ${summary.plausibleAtK[k]!.toFixed(3)}`).join(', ')}`].join('\n'),
      );
    }
    // an error, or a run set aside while the runner was unavailable
    if (trajectories.some((t) => t.outcome?.status === 'error' || !t.outcome)) process.exitCode = 1;
  });

program
  .command('runs')
  .description('list the saved runs (newest first); an interrupted one can be continued with `repairlab continue`')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const runs = await (await openNodeLab()).runs.list();
    print(!!opts.json, runs, () =>
      runs.length
        ? runs.map((r) => `${r.runId}  ${r.bugId}  ${r.preset}  ${r.steps} steps  ${r.status}${r.interrupted ? '  (interrupted: repairlab continue ' + r.runId + ' --llm …)' : ''}`).join('\n')
        : `no saved runs in ${repairlabHome()}/records`,
    );
  });

withRunnerWaitFlags(withRunnerFlags(
  withModelFlags(
    program
      .command('continue <runId>')
      .description('continue a run a crash or a killed process interrupted: same run id, its recorded strategy, this model (the record keeps no key)'),
    ' (list-based models go on from the next reply)',
  ).option('--out <file>', 'write the trajectory here'),
))
  .option('--json', 'print the trajectory as JSON')
  .action(async (runId: string, opts: RunnerFlags & RunnerWaitFlags & ModelFlags & { out?: string; json?: boolean }) => {
    const model = await modelFromFlags(opts);
    const { runs } = await openNodeLab({ runs: runManagerOptions(opts) });
    const t = await withRunner(opts, (runner) => runs.continueRun(runId, { model, runner }, (e) => !opts.json && printProgress(e)));
    if (opts.out) await writeFile(opts.out, JSON.stringify(t, null, 2));
    print(!!opts.json, t, () => `${t.bug.id} with ${t.config.preset}: ${t.outcome?.status ?? 'unfinished'} — ${t.outcome?.reason ?? ''}\n${t.outcome?.finalPatch ?? ''}\nrun ${t.runId}`);
    if (t.outcome?.status === 'error' || !t.outcome) process.exitCode = 1;
  });

withRunnerWaitFlags(withRunnerFlags(
  withModelFlags(
    program
      .command('fork <runId>')
      .description("a new run that replays a saved run's first k steps from its record (same tool calls, same workspace), then this model")
      .requiredOption('--at <k>', 'how many steps of the run to replay (1 … its length)'),
    ' (answers from step k + 1; list-based models from their first reply)',
  )
    .option('--overrides <json>', 'StrategySpec fields merged over the run\'s own, e.g. \'{"budgets":{"maxSteps":10}}\'')
    .option('--out <file>', 'write the trajectory here'),
))
  .option('--json', 'print the trajectory as JSON')
  .action(async (runId: string, opts: RunnerFlags & RunnerWaitFlags & ModelFlags & { at: string; overrides?: string; out?: string; json?: boolean }) => {
    const { forkRequestFromFlags, describeFork } = await import('./fork-flags.ts');
    const fork = forkRequestFromFlags(runId, opts);
    const model = await modelFromFlags(opts);
    const { runs } = await openNodeLab({ runs: runManagerOptions(opts) });
    const t = await withRunner(opts, (runner) => runs.forkRun({ ...fork, model, runner }, (e) => !opts.json && printProgress(e)));
    if (opts.out) await writeFile(opts.out, JSON.stringify(t, null, 2));
    print(!!opts.json, t, () => describeFork(t));
    if (t.outcome?.status === 'error' || !t.outcome) process.exitCode = 1;
  });

program
  .command('presets')
  .description('list the agent presets and their named variants (ablations, paper-vs-code options)')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const { listPresets } = await import('../strategies/presets/index.ts');
    const presets = listPresets();
    print(!!opts.json, presets, () =>
      presets
        .map((p) => [`${p.id.padEnd(14)} ${p.name} (toolkit ${p.toolkit})`, ...p.variants.map((v) => `  --variant ${v.id.padEnd(20)} ${v.description}`), ...p.refusedPairs.map((r) => `  not together: ${r.pair.join(' + ')}`)].join('\n'))
        .join('\n\n'),
    );
  });

program
  .command('tools')
  .description('list every tool definition, by toolkit')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const { allToolDefinitions } = await import('../tools/registry.ts');
    const defs = allToolDefinitions();
    const byToolkit: Record<string, typeof defs> = {};
    for (const d of defs) (byToolkit[d.toolkit] ??= []).push(d);
    print(!!opts.json, byToolkit, () =>
      Object.entries(byToolkit)
        .map(([k, ds]) => `${k}:\n` + ds.map((d) => `  ${d.name}(${d.args.map((a) => a.name).join(', ')}) — ${d.description.split('\n')[0]}`).join('\n'))
        .join('\n'),
    );
  });

withRunnerFlags(program.command('tool <bug> <toolkit> <name> [args]').description("run one tool on a bug's workspace and print its output (args: a JSON object)"), ' when the tool needs it')
  .option('--preset <preset>', "the preset whose tool settings apply (default: the toolkit's own, e.g. repairagent)")
  .option('--variant <id...>', "the preset's named variants, e.g. code (the released code's search and write_fix)")
  .option('--overrides <json>', 'StrategySpec overrides as JSON, e.g. \'{"toolSettings":{"outputCap":8000}}\'')
  .option('--json', 'print the full ToolResult as JSON')
  .action(async (bugId: string, toolkitName: string, name: string, argsJson: string | undefined, opts: RunnerFlags & { preset?: string; variant?: string[]; overrides?: string; json?: boolean }) => {
    const lab = await openNodeLab();
    const { strategyForToolkit, strategyTool } = await import('../strategies/strategy-tools.ts');
    const { RunnerClient, runnerValidator } = await import('../runner-client/client.ts');
    const { toPublicBug } = await import('../contracts/bug.ts');
    // the same strategy a run of this preset and these variants resolves to: its tools and its tool settings
    const overrides = opts.overrides ? parseJsonFlag('--overrides', opts.overrides, '{"toolSettings":{"outputCap":8000}}') : undefined;
    const strategy = strategyForToolkit(toolkitName, { preset: opts.preset, variants: opts.variant, overrides });
    const tool = strategyTool(strategy, name, `preset ${strategy.id}${opts.variant?.length ? ` with ${opts.variant.join(', ')}` : ''}`);
    const args = argsJson ? parseJsonFlag('args', argsJson) : {};
    await lab.loadJava();
    const { bug, workspace } = await lab.engine.workspaceFor(bugId);
    const result = await withRunner(opts, (runner) =>
      tool.run(args, { workspace, bug: toPublicBug(bug), validator: runnerValidator(new RunnerClient(runner), bug.layout, { testEdits: strategy.testEdits }), settings: { ...strategy.toolSettings }, testEdits: strategy.testEdits }),
    );
    print(!!opts.json, result, () => result.shown);
    if (!result.ok) process.exitCode = 1;
  });

program
  .command('build-benchmarks')
  .description('rebuild the bundled benchmark (git bundles + BugSpecs + index.json) from benchmarks/libraries/, deterministically')
  .option('--out <dir>', 'output directory (default: public/benchmarks/, which the app and this CLI read)')
  .option('--json', 'print the index as JSON')
  .action(async (opts: { out?: string; json?: boolean }) => {
    const { buildBenchmarks } = await import('../../benchmarks/build.ts');
    let result: ReturnType<typeof buildBenchmarks>;
    try {
      result = buildBenchmarks(opts.out ? { outDir: opts.out } : {});
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code && /^E[A-Z]+$/.test(code)) throw new Error(`--out ${opts.out ?? 'public/benchmarks'}: cannot write the benchmark there (${(e as Error).message}); give a writable directory.`);
      throw e;
    }
    print(!!opts.json, { outDir: result.outDir, index: result.index }, () =>
      [...result.index.repositories.map((r) => `${r.bundle}: ${r.commits} commits, ${(r.bytes / 1024).toFixed(1)} KiB`), `${result.index.bugs.length} bugs → ${result.outDir}`].join('\n'),
    );
  });

registerAnalysisCommands(program);
registerBenchCommands(program);
registerDefects4jCommands(program);
registerExperimentCommands(program);
registerPoolCommands(program);
registerShareCommands(program);
registerReviewCommands(program);
registerPublishedCommands(program);
registerStatsCommand(program);

/**
 * The model of `run`, `continue` and `fork`: the key from the environment goes to --base-url, which is given on the same
 * command line (an experiment's endpoint is named by its spec file instead: experiment-key.ts checks the key's origin).
 */
function modelFromFlags(opts: ModelFlags): Promise<ModelSettings> {
  return modelFromFlag(opts.llm, opts.baseUrl, process.env[opts.apiKeyEnv]);
}

async function modelFromFlag(spec: string, baseURL: string, apiKey: string | undefined): Promise<ModelSettings> {
  const [kind, ...rest] = spec.split(':');
  const value = rest.join(':');
  switch (kind) {
    case 'replay': {
      // a cassette, or a RepairLab trajectory (a run replays from its own record)
      const { readRecording } = await import('../records/trajectory-io.ts');
      // named by its file in the run's record (config.model.recording)
      return { kind: 'replay', cassette: readRecording(await readFlagFile('--llm replay:', value), `--llm replay:${value}`).cassette, name: value };
    }
    case 'scripted': {
      const replies = JSON.parse(await readFlagFile('--llm scripted:', value));
      if (!Array.isArray(replies)) throw new Error(`--llm scripted:${value}: the file must hold a JSON array of reply strings.`);
      return { kind: 'scripted', replies };
    }
    case 'openai':
      if (!value) throw new Error('--llm openai:<model>: name the model, e.g. openai:gpt-4o-mini.');
      return { kind: 'openai', baseURL, model: value, ...(apiKey ? { apiKey } : {}) };
    default:
      throw new Error(`--llm ${spec}: expected replay:<cassette.json>, scripted:<replies.json> or openai:<model>.`);
  }
}

/** A run's progress on stderr: its id when it starts (for `repairlab continue`), then a line per step. */
function printProgress(e: RunEvent): void {
  if (e.type === 'run-started') {
    const which = e.trajectories > 1 ? ` (trajectory ${e.trajectory + 1} of ${e.trajectories})` : '';
    console.error(`run ${e.runId}${which}${e.stepsBefore ? `, continued after step ${e.stepsBefore}` : ''}`);
  }
  if (e.type === 'step') {
    const step = e.step as { index: number; status: string; tool?: { name: string } };
    console.error(`step ${step.index + 1}: ${step.status}${step.tool ? ` (${step.tool.name})` : ''}`);
  }
}

async function readFlagFile(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`${flag}${path}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
}

async function readPatchFile(path: string): Promise<FlagText> {
  try {
    return decodeUtf8(await readFile(path));
  } catch (e) {
    throw new Error(`--patch ${path}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Give 'none', 'ground-truth', or the path of a unified diff.`);
  }
}

try {
  await program.parseAsync(process.argv);
} catch (e) {
  console.error(`repairlab: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
