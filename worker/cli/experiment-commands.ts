// `repairlab experiment run | retry | report | export` and `repairlab experiments`: the experiment engine
// (worker/experiments/) on Node. Live progress goes to stderr; stdout carries the result (text, --json, --csv, --md,
// or JSON Lines for --preds). Heavy modules load inside the actions, so `repairlab --help` stays quick.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { ExperimentEvent, ExperimentSession, SessionSettings } from '../experiments/scheduler.ts';
import type { ExperimentEstimate } from '../experiments/experiment-estimate.ts';
import type { RunnerTimeEstimate } from '../experiments/runner-time.ts';
import { DEFAULT_KEY_ORIGIN, experimentKeys, type KeyFlags } from './experiment-key.ts';
import { openNodeLab, repairlabHome, withRunner, type RunnerFlags } from './node-lab.ts';
import { print } from './flags.ts';

async function readSpecFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read the experiment spec (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${path} is not valid JSON (${(e as Error).message}); see docs/formats/experiment.md for an example spec.`);
  }
}

/** An experiment's record and report, as `report` and `export` read them. */
async function loadReport(id: string, withPublished: readonly string[] = []) {
  const lab = await openNodeLab();
  const { experiments } = lab;
  const [{ parseExperimentSpec }, { buildReport }] = await Promise.all([import('../contracts/experiment.ts'), import('../experiments/report.ts')]);
  let record = await experiments.get(id);
  let spec = parseExperimentSpec(record.spec, `experiment ${id}`);
  let cells = [...(await experiments.store.cells(id)).values()];
  if (withPublished.length) {
    // published variants join as variants of the experiment (docs/formats/published.md): the same metrics and tests
    const [{ listTrajectoryHeaders }, { publishedRunsOf, withPublishedVariant }] = await Promise.all([import('../records/persistence.ts'), import('../experiments/published-variant.ts')]);
    const headers = await listTrajectoryHeaders(lab.platform.records);
    for (const variant of withPublished) ({ experiment: record, spec, cells } = withPublishedVariant({ experiment: record, spec, cells }, variant, publishedRunsOf(headers, variant)));
  }
  const trajectory = lab.trajectory;
  return { record, report: await buildReport(record, spec, cells, trajectory, await lab.reportAnalyses()), trajectory };
}

async function writeOut(text: string, out: string | undefined): Promise<void> {
  if (out) await writeFile(out, text);
  else process.stdout.write(text);
}

const seconds = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

type Lab = Awaited<ReturnType<typeof openNodeLab>>;

const hours = (h: number) => (h < 1 ? `${Math.round(h * 60)} min` : `${h.toFixed(1)} h`);

/** `experiment estimate`'s plain output: the numbers first, then how each was found. */
export function estimateText(specPath: string, e: ExperimentEstimate, r: RunnerTimeEstimate): string {
  const lines = [
    `estimate for ${specPath} (model ${e.model || '(none)'})`,
    `runs          ${e.runs} (one per cell, one trajectory each: ${e.bugs} bugs × ${e.variants.length} variants × ${e.bugs * e.variants.length ? e.runs / (e.bugs * e.variants.length) : 0} samples)`,
    `validations   at most ${e.validations.max}`,
    `runner time   at most ${r.runnerHours.toFixed(2)} runner-hours (${r.measurements ? `${r.measurements} validations measured in ${r.source}` : 'NOTHING MEASURED: a default validation time'})`,
    ...r.projects.map((p) => `  ${p.project}: ${p.bugs} bugs, ${p.validations} validations × ${(p.msPerValidation / 1000).toFixed(1)} s (${p.basis}${p.measurements ? `, ${p.measurements} measurements` : ''})`),
    `wall clock    about ${hours(r.wallClockHours)} of validations at ${r.parallelism} at once (${r.capacitySource}); model calls add to it`,
    `model calls   ${e.calls.min}–${e.calls.max}${e.calls.cappedByExperimentBudget ? " (the experiment's call budget)" : ''}`,
    `model cost    ${e.costUsd.max === null ? (e.price ? 'no upper bound' : 'unknown (the model has no price)') : `at most $${e.costUsd.max.toFixed(2)}`}${e.price ? ` at $${e.price.inputPerMTok} in / $${e.price.outputPerMTok} out per million tokens` : ''}`,
    'how:',
    ...[...e.method, ...r.method].map((m) => `  - ${m}`),
  ];
  return lines.join('\n');
}

type SessionFlags = RunnerFlags & { json?: boolean; pool?: string };

/**
 * On a pool a run whose runner stops answering is set aside soon (about 5 s) and continued on another runner, rather
 * than waiting minutes for the one it had (a single runner's default: runner-outage.ts DEFAULT_RUNNER_WAIT).
 */
const POOL_RUNNER_WAIT = { maxRetries: 2, firstDelayMs: 1_000, maxDelayMs: 2_000 };
/** how often the pool's runners are asked for their health while an experiment runs */
const POOL_HEALTH_EVERY_MS = 2_000;

/**
 * One session of an experiment (a run, a resume or a retry) with its progress on stderr and Ctrl-C as a stop; the report
 * at the end on stdout. `start` opens the session on the given runners.
 */
async function runSession(
  lab: Lab,
  record: ExperimentRecord,
  opts: SessionFlags,
  start: (runners: RunnerSettings[], onEvent: (e: ExperimentEvent) => void, pool?: SessionSettings['pool']) => Promise<ExperimentSession>,
): Promise<void> {
  const { parseExperimentSpec } = await import('../contracts/experiment.ts');
  const spec = parseExperimentSpec(record.spec, `experiment ${record.id}`);
  if (spec.runners && opts.runner) throw new Error(`--runner ${opts.runner}: the spec names its runners (${spec.runners.join(', ')}); drop --runner, or the spec's "runners".`);
  if (opts.pool && (opts.runner || spec.runners)) throw new Error(`--pool ${opts.pool}: the ${opts.runner ? '--runner flag' : "spec's \"runners\""} names runners too; give one of them.`);
  console.error(`experiment ${record.id}: ${record.cells} cells (${record.bugs.length} bugs × ${spec.variants.length} variants × ${spec.samples} samples); if interrupted: repairlab experiment run --resume ${record.id}`);
  let interrupts = 0;
  let keep: ((s: ExperimentSession) => void) | undefined;
  /** a replacement runner being started: waited for before the command ends, so that the descriptor names it */
  let keeping: Promise<void> | undefined;
  const go = async (runners: RunnerSettings[], pool?: SessionSettings['pool']) => {
    const session: ExperimentSession = await start(runners, (e) => {
      if (e.type === 'pool') return keep?.(session);
      if (e.type === 'cell-moved') return void console.error(`move ${e.cell.bugId} ${e.cell.variant} #${e.cell.sample + 1} ${e.from === e.to ? `to ${e.to}'s replacement` : `from ${e.from} to ${e.to}`}: its runner was lost; the run goes on there (${e.reason})`);
      if (e.type === 'cell-finished') {
        const p = session.progress();
        const c = e.cell;
        console.error(
          `[${p.done}/${p.total}] ${c.bugId} ${c.variant} #${c.sample + 1}: ${c.status}` +
            ` · running ${p.running} · queued ${p.queued} · ${p.costUsd === null ? 'cost unknown' : `$${p.costUsd.toFixed(4)}`} · ${p.calls} calls${p.etaMs === null ? '' : ` · ~${seconds(p.etaMs)} left`}`,
        );
      } else if (e.type === 'cell-started') {
        console.error(`start ${e.cell.bugId} ${e.cell.variant} #${e.cell.sample + 1}${e.continued ? ` (continuing${e.cell.runId ? ` run ${e.cell.runId}` : ''})` : ''}`);
      } else if (e.type === 'cell-retry') {
        console.error(`retry ${e.cell.bugId} ${e.cell.variant} #${e.cell.sample + 1} in ${seconds(e.inMs)}: infrastructure, not the agent (${e.reason})`);
      } else if (e.type === 'stopping') {
        console.error(`stopping: ${e.reason}; runs in flight finish, the rest are not run`);
      }
    }, pool);
    const onSigint = () => {
      if (++interrupts > 1) process.exit(130);
      console.error('Ctrl-C: no new cells start; runs in flight finish (Ctrl-C again quits now; --resume goes on later)');
      session.stop('stopped by Ctrl-C');
    };
    process.on('SIGINT', onSigint);
    try {
      return await session.done;
    } finally {
      process.off('SIGINT', onSigint);
    }
  };
  const token = opts.token ?? process.env.REPAIRLAB_RUNNER_TOKEN ?? '';
  let final: ExperimentRecord;
  if (opts.pool) {
    const { readPool, readToken } = await import('./pool/pool-files.ts');
    const { descriptor } = await readPool(opts.pool);
    const members = await Promise.all(descriptor.runners.map(async (r) => ({ id: r.id, runner: { url: r.url, token: await readToken(r.tokenFrom ?? descriptor.tokenFrom, r.id, opts.token ?? process.env.REPAIRLAB_RUNNER_TOKEN) }, capacity: r.capacity })));
    if (descriptor.started && (descriptor.engine === 'local' || descriptor.engine === 'slurm' || descriptor.engine === 'docker')) {
      // runners this CLI's `pool up` started are started again when their engine ends them
      const [{ PoolKeeper }, { poolDriver }] = await Promise.all([import('./pool/pool-keeper.ts'), import('./pool-commands.ts')]);
      const keeper = new PoolKeeper(descriptor, await poolDriver(descriptor.engine), members[0]!.runner.token, (line) => console.error(line));
      keep = (s) => {
        if (keeping || s.pool.status().every((r) => r.alive)) return;
        keeping = keeper.keep(s.pool).finally(() => (keeping = undefined));
      };
    }
    console.error(`pool ${descriptor.name}: ${members.map((m) => `${m.id} ${m.runner.url} (capacity ${m.capacity})`).join(', ')}`);
    final = await go(members.map((m) => m.runner), { members, healthEveryMs: POOL_HEALTH_EVERY_MS });
    await keeping;
  } else final = spec.runners ? await go(spec.runners.map((url) => ({ url, token }))) : await withRunner(opts, (runner) => go([runner]));
  const { buildReport, reportText } = await import('../experiments/report.ts');
  const cells = [...(await lab.experiments.store.cells(final.id)).values()];
  const report = await buildReport(final, spec, cells, lab.trajectory, await lab.reportAnalyses());
  print(!!opts.json, report, () => reportText(report));
}

/** The options of a command that runs cells (run, retry): which runner, which key for which endpoint, and the report's form. */
function withSessionOptions(cmd: Command): Command {
  return cmd
    .option('--runner <url>', "runner URL when the spec names none (default: start one in this process)")
    .option('--token <token>', 'runner token (every runner of the spec; default REPAIRLAB_RUNNER_TOKEN)')
    .option('--pool <name>', "run on a runner pool: a pool's name (`repairlab pool up`) or its descriptor file (docs/formats/runner-pool.md)")
    .option('--api-key-env <name>', 'environment variable holding the model API key (never printed or recorded)', 'OPENAI_API_KEY')
    .option('--api-key-origin <origin>', `the endpoint origin the key is for (default ${DEFAULT_KEY_ORIGIN}); a spec naming another endpoint is refused while the key is set`)
    .option('--json', 'print the report as JSON at the end');
}

export function registerExperimentCommands(program: Command): void {
  const experiment = program.command('experiment').description('experiments: variants × bugs × samples (run, retry, report, export); see docs/formats/experiment.md');

  withSessionOptions(
    experiment
      .command('run [spec]')
      .description('run an experiment spec (JSON), or go on with a stopped or interrupted one (--resume)')
      .option('--resume <id>', 'go on with this experiment: finished cells are kept, interrupted runs continued, the rest run'),
  )
    .action(async (specPath: string | undefined, opts: SessionFlags & KeyFlags & { resume?: string }) => {
      const { parseExperimentSpec } = await import('../contracts/experiment.ts');
      const { canonicalJson } = await import('../llm/prompt-hash.ts');
      const { modelBaseURL } = await import('../llm/provider-presets.ts');
      // the key goes to the spec's endpoint only if it was given for that origin; checked before anything is recorded
      const keysFor = (s: ExperimentSpec) => experimentKeys(modelBaseURL(s.model), process.env[opts.apiKeyEnv], opts);
      const lab = await openNodeLab(opts.pool ? { runs: { runnerWait: POOL_RUNNER_WAIT } } : {});
      const { experiments } = lab;
      let record;
      let apiKeys;
      if (opts.resume) {
        record = await experiments.get(opts.resume);
        if (specPath && canonicalJson(parseExperimentSpec(await readSpecFile(specPath), specPath)) !== canonicalJson(record.spec)) {
          throw new Error(`${specPath} differs from the spec experiment ${record.id} was started with; resume without the spec file (its recorded spec is used), or start a new experiment.`);
        }
        apiKeys = keysFor(parseExperimentSpec(record.spec, `experiment ${record.id}`));
      } else {
        if (!specPath) throw new Error('experiment run: give a spec file (see docs/formats/experiment.md), or --resume <id> to go on with an experiment.');
        const json = await readSpecFile(specPath);
        apiKeys = keysFor(parseExperimentSpec(json, specPath));
        record = await experiments.create(json, specPath);
      }
      await runSession(lab, record, opts, (runners, onEvent, pool) => experiments.run(record.id, { runners, apiKeys, onEvent, ...(pool ? { pool } : {}) }));
    });

  experiment
    .command('estimate <spec>')
    .description("before running a spec: its runs, runner validations, runner-hours (from the validation times measured in this home's saved runs), wall clock on the runners, model calls and cost")
    .option('--pool <name>', "the runners' capacity from a pool (its name or descriptor file); default the spec's runners, or one runner")
    .option('--runners <n>', 'the capacity of N runners taking concurrency.validations each')
    .option('--json', 'print the estimate as JSON')
    .action(async (specPath: string, opts: { pool?: string; runners?: string; json?: boolean }) => {
      if (opts.pool && opts.runners) throw new Error(`--pool ${opts.pool} and --runners ${opts.runners}: give one of them.`);
      const runnersN = opts.runners === undefined ? undefined : Number(opts.runners);
      if (runnersN !== undefined && !(Number.isInteger(runnersN) && runnersN > 0)) throw new Error(`--runners ${opts.runners}: give a whole number of runners, 1 or more.`);
      const json = await readSpecFile(specPath);
      const [{ parseExperimentSpec }, { estimateRunnerTime, measureValidationTimes }] = await Promise.all([import('../contracts/experiment.ts'), import('../experiments/runner-time.ts')]);
      const spec = parseExperimentSpec(json, specPath);
      let capacity: { total: number; source: string };
      if (opts.pool) {
        const { readPool } = await import('./pool/pool-files.ts');
        const { descriptor } = await readPool(opts.pool);
        capacity = { total: descriptor.runners.reduce((n, r) => n + r.capacity, 0), source: `pool ${descriptor.name}: ${descriptor.runners.length} runners` };
      } else if (runnersN !== undefined) capacity = { total: runnersN * spec.concurrency.validations, source: `--runners ${runnersN} × concurrency.validations ${spec.concurrency.validations}` };
      else if (spec.runners) capacity = { total: spec.runners.length * spec.concurrency.validations, source: `the spec's ${spec.runners.length} runners × concurrency.validations ${spec.concurrency.validations}` };
      else capacity = { total: spec.concurrency.validations, source: `one runner × concurrency.validations ${spec.concurrency.validations} (give --pool or --runners for more)` };
      const lab = await openNodeLab();
      const estimate = await lab.experimentsApi.estimate(json);
      const catalog = new Map((await lab.engine.listBugs()).map((b) => [b.id, b.library]));
      const saved = await lab.runs.list();
      const trajectories = [];
      for (const r of saved) {
        const t = await lab.trajectory(r.runId);
        if (t) trajectories.push(t);
      }
      const times = measureValidationTimes(trajectories, `the ${trajectories.length} saved runs under ${repairlabHome()}`);
      const runner = estimateRunnerTime(spec, estimate, estimate.bugIds.map((id) => ({ id, library: catalog.get(id) ?? id })), times, capacity);
      print(!!opts.json, { ...estimate, runner }, () => estimateText(specPath, estimate, runner));
    });

  withSessionOptions(
    experiment
      .command('retry <id>')
      .description('run the cells in an infrastructure error again (an endpoint that could not serve them, a runner that was gone), afresh and nothing else; the failed runs stay as attempts, their cost counted')
      .option('--cells <indices>', 'only these cells, by index (comma-separated; `experiment report <id>` lists the cells in error)'),
  )
    .action(async (id: string, opts: SessionFlags & KeyFlags & { cells?: string }) => {
      const { parseExperimentSpec } = await import('../contracts/experiment.ts');
      const { modelBaseURL } = await import('../llm/provider-presets.ts');
      let cells: number[] | undefined;
      if (opts.cells !== undefined) {
        cells = opts.cells.split(',').map((x) => x.trim()).filter(Boolean).map(Number);
        if (!cells.length || cells.some((n) => !Number.isInteger(n) || n < 0)) throw new Error(`--cells ${opts.cells}: give cell indices, comma-separated (e.g. --cells 3,7).`);
      }
      const lab = await openNodeLab(opts.pool ? { runs: { runnerWait: POOL_RUNNER_WAIT } } : {});
      const record = await lab.experiments.get(id);
      const apiKeys = experimentKeys(modelBaseURL(parseExperimentSpec(record.spec, `experiment ${id}`).model), process.env[opts.apiKeyEnv], opts);
      await runSession(lab, record, opts, (runners, onEvent, pool) => lab.experiments.retry(id, { runners, apiKeys, onEvent, ...(pool ? { pool } : {}) }, cells));
    });

  experiment
    .command('report <id>')
    .description("an experiment's report: counts, metrics per variant and category (plausible@k, valid@k, #unique pass, exact/AST match, cost/steps by outcome, smells, tool use) and the statistics (HAFixAgent's Table 5)")
    .option('--json', 'print JSON (everything)')
    .option('--csv', 'print CSV: one table, chosen with --table')
    .option('--table <name>', 'with --csv: variants (default), cells (one row per cell), summary (per variant and category), plausibility, table5', 'variants')
    .option('--md', 'print Markdown tables')
    .option('--html', 'one self-contained HTML file (tables, charts, every run; opens offline from file://; docs/formats/report.md)')
    .option('--out <file>', 'write there instead of stdout')
    .option('--with-published <variant...>', 'put imported published results beside the variants (repairlab published import; docs/formats/published.md)')
    .action(async (id: string, opts: { json?: boolean; csv?: boolean; md?: boolean; html?: boolean; table: string; out?: string; withPublished?: string[] }) => {
      const formats = (['json', 'csv', 'md', 'html'] as const).filter((f) => opts[f]);
      if (formats.length > 1) throw new Error(`${formats.map((f) => `--${f}`).join(' and ')}: choose one output format.`);
      const { CSV_TABLES } = await import('../experiments/report.ts');
      const table = CSV_TABLES.find((t) => t === opts.table);
      if (!table) throw new Error(`--table ${opts.table}: not a table; use one of ${CSV_TABLES.join(', ')}.`);
      const { record, report, trajectory } = await loadReport(id, opts.withPublished);
      const { reportCsv, reportMarkdown, reportText } = await import('../experiments/report.ts');
      let text: string;
      if (opts.html) text = (await (await import('../experiments/report-files.ts')).experimentFile({ experiment: record, report, trajectory }, 'html')).text;
      else if (opts.csv) text = reportCsv(report, table);
      else if (opts.md) text = reportMarkdown(report);
      else text = opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${reportText(report)}\n`;
      await writeOut(text, opts.out);
    });

  experiment
    .command('export <id>')
    .description('export an experiment: SWE-bench-style predictions (JSON Lines: instance_id, model_name_or_path, model_patch), CSV per cell or per bug, or the report as JSON (docs/formats/report.md)')
    .option('--preds', 'predictions, one line per cell that ran')
    .option('--csv <table>', "'cells' (one row per cell: outcome, cost, tokens, steps …) or 'bugs' (plausible samples per bug and variant)")
    .option('--json', 'the report as JSON')
    .option('--out <file>', 'write there instead of stdout')
    .action(async (id: string, opts: { preds?: boolean; csv?: string; json?: boolean; out?: string }) => {
      const chosen = [opts.preds ? 'predictions' : undefined, opts.csv !== undefined ? `${opts.csv}-csv` : undefined, opts.json ? 'json' : undefined].filter((k): k is string => k !== undefined);
      if (chosen.length !== 1) throw new Error('experiment export: say what to export, one of --preds (SWE-bench-style predictions), --csv cells|bugs, --json.');
      if (opts.csv !== undefined && opts.csv !== 'cells' && opts.csv !== 'bugs') throw new Error(`--csv ${opts.csv}: use --csv cells (one row per cell) or --csv bugs (one row per bug).`);
      const { record, report, trajectory } = await loadReport(id);
      const { experimentFile } = await import('../experiments/report-files.ts');
      await writeOut((await experimentFile({ experiment: record, report, trajectory }, chosen[0]!)).text, opts.out);
    });

  program
    .command('experiments')
    .description('list the experiments (newest first) with their progress; an unfinished one goes on with `experiment run --resume`')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { experiments } = await openNodeLab();
      const { isAttempted } = await import('../experiments/report-denominators.ts');
      const list: { id: string; name: string | null; status: string; stopReason: string | null; createdAt: string; cells: number; done: number; notRun: number }[] = [];
      for (const e of await experiments.list()) {
        const cells = [...(await experiments.store.cells(e.id)).values()];
        const done = cells.filter(isAttempted).length;
        list.push({ id: e.id, name: (e.spec as { name?: string }).name ?? null, status: e.status, stopReason: e.stopReason ?? null, createdAt: e.createdAt, cells: e.cells, done, notRun: cells.filter((c) => c.status === 'not-run').length });
      }
      print(!!opts.json, list, () =>
        list.length
          ? list.map((e) => `${e.id}  ${e.status.padEnd(8)} ${e.done}/${e.cells} cells${e.name ? `  ${e.name}` : ''}${e.status !== 'finished' ? `  (go on: repairlab experiment run --resume ${e.id})` : ''}`).join('\n')
          : `no experiments in ${repairlabHome()}/records`,
      );
    });
}
