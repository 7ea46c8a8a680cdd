// The experiment engine (worker/experiments/) as the page sees it: create, run, pause, resume, stop, list, get and
// report, plus one stream of every experiment's events (the page watches it the way a run's events stream to the run
// view). An experiment outlives the page: its cells are records, so after a reload `list` shows it unfinished and
// `resume` goes on with it. A running session holds a lock named after the experiment (Web Locks in the browser), so
// another tab sees it as running there rather than offering to resume it twice.
import type { CellRecord, ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import { parseExperimentSpec } from '../contracts/experiment.ts';
import type { Platform } from '../contracts/platform.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { BugSummary } from '../contracts/bug-view.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { PoolMember } from '../contracts/pool-descriptor.ts';
import type { ApiKeys } from '../llm/key-origin.ts';
import { resolveBugs } from './plan.ts';
import type { ExperimentEvent, ExperimentProgress, ExperimentSession, Experiments } from './scheduler.ts';
import { buildReport, type ExperimentReport, type ReportAnalyses } from './report.ts';
import type { Table } from './report-tables.ts';
import type { ChartTables } from './analyses.ts';
import { estimateExperiment, type ExperimentEstimate } from './experiment-estimate.ts';
import { isAttempted } from './report-denominators.ts';

/** What a session needs besides the recorded spec: the keys (never recorded) and the runners. */
export interface ExperimentRunSettings {
  /** model keys by endpoint origin; the session picks the one for its spec's endpoint (plan.modelSettings) */
  apiKeys?: ApiKeys;
  runners: RunnerSettings[];
  /** a runner pool's members (url, token, capacity) and how often to ask their health: the page's pool descriptor */
  pool?: { members: PoolMember[]; healthEveryMs?: number };
}

/** live: a session in this engine; elsewhere: another tab's engine holds it; idle: nobody runs it (a resume goes on). */
export type ExperimentLiveness = 'live' | 'elsewhere' | 'idle';

export interface ExperimentListing {
  record: ExperimentRecord;
  liveness: ExperimentLiveness;
  /** cells with a final status (plausible, not plausible, budget, infrastructure error) */
  done: number;
  notRun: number;
}

/** The report with its computed sections laid out as the CLI's tables (`experiment report --csv --table …`). */
export interface ExperimentReportView {
  report: ExperimentReport;
  tables: { name: string; title: string; table: Table }[];
  /** the charts' tables (analyses.ts `chartTables`), when the report carries its metrics */
  charts?: ChartTables;
}

export interface ExperimentSnapshot extends ExperimentListing {
  cells: CellRecord[];
  /** the live session's progress (absent when no session runs here) */
  progress?: ExperimentProgress;
  /** paused by the user in this engine's session */
  paused: boolean;
}

const LOCK_PREFIX = 'experiment:';

export class ExperimentsApi {
  private readonly sessions = new Map<string, ExperimentSession>();
  private readonly paused = new Set<string>();
  private readonly watchers = new Map<number, (e: ExperimentEvent) => unknown>();
  private nextWatcher = 1;
  private loadedAnalyses: Promise<ReportAnalyses> | undefined;

  constructor(
    private readonly experiments: Experiments,
    private readonly platform: Pick<Platform, 'runLocks'>,
    private readonly trajectory: (runId: string) => Promise<Trajectory | undefined>,
    private readonly listBugs: () => Promise<BugSummary[]>,
    /** the report's metrics and statistics (loaded on first use: they bring tree-sitter and the statistics modules) */
    private readonly analyses: () => Promise<ReportAnalyses> = async () => ({}),
  ) {}

  /** The calls and cost an experiment may take, from its budgets and prices (refuses a bad spec like `create`). */
  async estimate(json: unknown): Promise<ExperimentEstimate> {
    const spec = parseExperimentSpec(json);
    return estimateExperiment(spec, resolveBugs(spec.bugs, await this.listBugs()).map((b) => b.id));
  }

  async create(json: unknown): Promise<ExperimentRecord> {
    return this.experiments.create(json);
  }

  async list(): Promise<ExperimentListing[]> {
    const held = await this.heldHere();
    const out: ExperimentListing[] = [];
    for (const record of await this.experiments.list()) {
      const cells = [...(await this.experiments.store.cells(record.id)).values()];
      out.push(this.listing(record, cells, held));
    }
    return out;
  }

  async get(id: string): Promise<ExperimentSnapshot> {
    // who holds it first, then the record (as `list` does): a session that ends in between has written its final
    // status by then, so a finished experiment never reads as running with no session (shown as interrupted)
    const held = await this.heldHere();
    const record = await this.experiments.get(id);
    const cells = [...(await this.experiments.store.cells(id)).values()].sort((a, b) => a.index - b.index);
    const session = this.sessions.get(id);
    return { ...this.listing(record, cells, held), cells, paused: this.paused.has(id), ...(session ? { progress: session.progress() } : {}) };
  }

  /** Starts an experiment, or goes on with one a reload, a crash or a stop left unfinished. */
  async run(id: string, settings: ExperimentRunSettings): Promise<void> {
    await this.begin(id, () => this.experiments.run(id, { ...settings, onEvent: (e) => this.emit(e) }));
  }

  /**
   * Runs the cells in an infrastructure error again (`cells`: their indices; default every one), afresh and nothing
   * else — after the endpoint or runner that failed them is mended. Refused while the experiment runs.
   */
  async retry(id: string, settings: ExperimentRunSettings, cells?: readonly number[]): Promise<void> {
    await this.begin(id, () => this.experiments.retry(id, { ...settings, onEvent: (e) => this.emit(e) }, cells));
  }

  private async begin(id: string, start: () => Promise<ExperimentSession>): Promise<void> {
    if (this.sessions.has(id)) throw new Error(`Experiment ${id} is running already in this tab.`);
    if ((await this.heldHere()).get(id) === 'elsewhere') throw new Error(`Experiment ${id} is running in another tab of this browser: watch it there, or close that tab first.`);
    const session = await start();
    this.sessions.set(id, session);
    this.paused.delete(id);
    const finished = session.done
      .catch((e: unknown) => this.emit({ type: 'stopping', experimentId: id, reason: `the experiment failed: ${e instanceof Error ? e.message : String(e)}` }))
      .finally(() => {
        this.sessions.delete(id);
        this.paused.delete(id);
      });
    const locks = this.platform.runLocks;
    if (locks) void locks.hold(`${LOCK_PREFIX}${id}`, () => finished);
  }

  pause(id: string): void {
    this.session(id).pause();
    this.paused.add(id);
  }

  /** A paused session goes on; an experiment with no session here is run again from its records. */
  async resume(id: string, settings: ExperimentRunSettings): Promise<void> {
    const session = this.sessions.get(id);
    if (session) {
      session.resume();
      this.paused.delete(id);
      return;
    }
    await this.run(id, settings);
  }

  stop(id: string): void {
    this.session(id).stop();
    this.paused.delete(id);
  }

  /** The report the CLI prints (`repairlab experiment report --json`): the same function over the same records. */
  async report(id: string): Promise<ExperimentReport> {
    const record = await this.experiments.get(id);
    const spec: ExperimentSpec = parseExperimentSpec(record.spec, `the spec recorded with experiment ${id}`);
    const cells = [...(await this.experiments.store.cells(id)).values()];
    return buildReport(record, spec, cells, this.trajectory, await (this.loadedAnalyses ??= this.analyses()));
  }

  /** The report and its sections as tables (the same functions the CLI's --csv and --md use). */
  async reportView(id: string): Promise<ExperimentReportView> {
    return reportViewOf(await this.report(id));
  }

  /** Every experiment's events go to `onEvent` until `unwatch` (a page subscribes once; a reload starts afresh). */
  watch(onEvent: (e: ExperimentEvent) => unknown): number {
    const id = this.nextWatcher++;
    this.watchers.set(id, onEvent);
    return id;
  }

  unwatch(watchId: number): void {
    this.watchers.delete(watchId);
  }

  private emit(e: ExperimentEvent): void {
    for (const [id, w] of this.watchers) {
      // a watcher is a Comlink proxy: a page that went away rejects, and is forgotten
      void Promise.resolve()
        .then(() => w(e))
        .catch(() => this.watchers.delete(id));
    }
  }

  private session(id: string): ExperimentSession {
    const s = this.sessions.get(id);
    if (!s) throw new Error(`Experiment ${id} is not running in this tab: resume it first.`);
    return s;
  }

  private listing(record: ExperimentRecord, cells: CellRecord[], held: Map<string, ExperimentLiveness>): ExperimentListing {
    return {
      record,
      liveness: held.get(record.id) ?? 'idle',
      done: cells.filter(isAttempted).length,
      notRun: cells.filter((c) => c.status === 'not-run').length,
    };
  }

  /** Sessions of this engine, and experiments whose lock another tab holds. */
  private async heldHere(): Promise<Map<string, ExperimentLiveness>> {
    const out = new Map<string, ExperimentLiveness>();
    const held = this.platform.runLocks ? await this.platform.runLocks.held() : new Set<string>();
    for (const name of held) if (name.startsWith(LOCK_PREFIX)) out.set(name.slice(LOCK_PREFIX.length), 'elsewhere');
    for (const id of this.sessions.keys()) out.set(id, 'live');
    return out;
  }
}

/** A report with its computed sections laid out as the CLI's tables, and the charts' tables. */
export async function reportViewOf(report: ExperimentReport): Promise<ExperimentReportView> {
  const { summaryTable, correctnessTable, disagreementTable, smellTable, toolUseTable, plausibilityTable, table5 } = await import('./report-tables.ts');
  const tables: ExperimentReportView['tables'] = [];
  let charts: ChartTables | undefined;
  if (report.metrics.computed) {
    const m = report.metrics.result as Parameters<typeof disagreementTable>[0];
    tables.push({ name: 'summary', title: 'Per variant and category', table: summaryTable(m) }, { name: 'correctness', title: 'Correct patches (labels)', table: correctnessTable(m) });
    if (m.labels?.agreement.disagreements.length) tables.push({ name: 'disagreements', title: 'Label disagreements', table: disagreementTable(m) });
    tables.push({ name: 'smells', title: 'Smells', table: smellTable(m) }, { name: 'tool-use', title: 'Tool use', table: toolUseTable(m) });
    charts = (await import('./analyses.ts')).chartTables(m);
  }
  if (report.statistics.computed) {
    const st = report.statistics.result as Parameters<typeof plausibilityTable>[0];
    tables.push({ name: 'plausibility', title: 'Plausibility: Cochran / McNemar', table: plausibilityTable(st) }, { name: 'correct-tests', title: 'Correct patches: Cochran / McNemar', table: plausibilityTable(st, 'correctness') }, { name: 'table5', title: 'Steps and cost: Friedman / Wilcoxon (Table 5)', table: table5(st) });
  }
  return { report, tables, ...(charts ? { charts } : {}) };
}
