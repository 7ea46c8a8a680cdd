// The composition root: createLab builds the engine's parts once, over one Platform, and wires them together —
// the Engine (bugs, repositories, workspaces), the RunManager (agent runs), the experiment scheduler and the page's
// view of it, sharing (bundles) — plus `api`, the flat table of plain-data methods the browser worker exposes to the
// page through Comlink (worker/worker-entry.ts). The CLI (worker/cli/node-lab.ts) and the benchmarks build their lab
// here too, so the worker, every command and every benchmark run the same parts wired the same way; only the
// Platform (worker/platform/) and where tree-sitter's wasm comes from differ.
import type { Platform } from './contracts/platform.ts';
import type { Trajectory } from './contracts/trajectory.ts';
import type { ForkRequest, RunEvent, RunRequest } from './contracts/runs.ts';
import type { RunnerSettings } from './contracts/run-settings.ts';
import type { ImportProgress } from './contracts/repository.ts';
import type { PromptPreviewRequest } from './contracts/editable-strategy.ts';
import { initJava, type JavaAnalyzer, type JavaWasm } from './java/index.ts';
import { blameFiles, timeBlame } from './history/repo-blame.ts';
import { commitDetails } from './history/commit-details.ts';
import type { HistoryHeuristic } from './history/heuristics.ts';
import { importTrajectoryFile, readRecording } from './records/trajectory-io.ts';
import { cassetteFromTrajectory } from './records/cassette-from-trajectory.ts';
import { loadTrajectory } from './records/persistence.ts';
import { importTrajectoryAsRun } from './records/trajectory-import.ts';
import type { ToolCall } from './tools/script.ts';
import { Engine } from './bugs/engine.ts';
import { runToolScriptOnBug } from './bugs/bug-tool-script.ts';
import { blameBugFile, historySection } from './bugs/bug-history.ts';
import { commitTests } from './bugs/repo-tests.ts';
import { fixPreview, makeBug, runSuite } from './bugs/make-bug.ts';
import { commitLog, fileAtCommit, treeListing } from './repo/repo-browse.ts';
import type { ProjectLayout } from './contracts/bug.ts';
import type { BugDraft } from './contracts/bug-from-repo.ts';
import { RunManager, type RunManagerOptions } from './runs/run-manager.ts';
import { Experiments, type ExperimentEvent } from './experiments/scheduler.ts';
import { ExperimentsApi, type ExperimentRunSettings } from './experiments/experiments-api.ts';
import { withRunCells } from './experiments/run-cells.ts';
import type { ReportAnalyses } from './experiments/analysis-seam.ts';
import { experimentFileOf } from './experiments/report-files.ts';
import { ShareApi } from './share/share-api.ts';
import { PatchLabelStore } from './records/patch-label-store.ts';
import type { ReviewApi, ReviewTarget } from './experiments/review-api.ts';
import type { LabelInput } from './records/patch-label-store.ts';
import type { LabelValue } from './contracts/patch-labels.ts';

export interface LabOptions {
  /**
   * Where tree-sitter's two wasm files come from: Vite's asset URLs in the browser (java/wasm-urls.browser.ts), the
   * bytes in node_modules in Node (java/wasm-files.node.ts). Asked only when Java is first needed.
   */
  javaWasm: () => JavaWasm | Promise<JavaWasm>;
  /** how runs wait for an unavailable runner, and who hears of it (the CLI's --runner-retries and stderr lines) */
  runs?: RunManagerOptions;
}

/** The engine's parts, built once. */
export interface LabParts {
  readonly platform: Platform;
  /** bugs, their repositories and workspaces: bug views, patch validation, the prompt preview */
  readonly engine: Engine;
  /** agent runs: start, continue, fork, control, list, delete; the ground-truth reveal */
  readonly runs: RunManager;
  /** the experiment scheduler (ExperimentSpec → cells, run through `runs`) */
  readonly experiments: Experiments;
  /** the experiments as the page sees them: estimate, sessions with locks, one stream of events, report views */
  readonly experimentsApi: ExperimentsApi;
  /** bundles: written, opened and replayed */
  readonly share: ShareApi;
  /** patch review: the queue of plausible patches no exact or AST match decides, raters' labels, agreement (loaded on first use, as the report's analyses) */
  review(): Promise<ReviewApi>;
  /** tree-sitter Java, loaded once (the RepairAgent and HAFix tools and history sections need it) */
  loadJava(): Promise<JavaAnalyzer>;
  /** a saved run, from the platform's records */
  trajectory(runId: string): Promise<Trajectory | undefined>;
  /** the report's metrics and statistics (loaded on first use: they bring tree-sitter and the statistics modules) */
  reportAnalyses(): Promise<ReportAnalyses>;
}

export interface Lab extends LabParts {
  /** what the page calls through Comlink: plain data in and out; callbacks arrive as Comlink proxies */
  readonly api: LabApi;
}

export function createLab(platform: Platform, options: LabOptions): Lab {
  const engine = new Engine(platform);
  const loadJava = async () => initJava(await options.javaWasm());
  const runs = new RunManager(engine, loadJava, options.runs);
  /** experiments run their cells through the same RunManager (same records, same continue path) */
  const experiments = new Experiments({ runs, records: platform.records, listBugs: () => engine.listBugs() });
  const trajectory = (runId: string) => loadTrajectory(platform.records, runId);
  const reportAnalyses = async (): Promise<ReportAnalyses> => {
    const [{ reportAnalyses: analyses, bugMetaFromWorkspaces }, { loadJavaSyntax }] = await Promise.all([import('./experiments/analyses.ts'), import('./experiments/metrics/index.ts')]);
    return analyses({ bugMeta: bugMetaFromWorkspaces(engine), syntax: await loadJavaSyntax(await options.javaWasm()), labels: () => new PatchLabelStore(platform.records).all() });
  };
  const experimentsApi = new ExperimentsApi(experiments, platform, trajectory, () => engine.listBugs(), reportAnalyses);
  const share = new ShareApi(platform.records, runs);
  let reviewApi: Promise<ReviewApi> | undefined;
  const review = () =>
    (reviewApi ??= Promise.all([import('./experiments/review-api.ts'), import('./experiments/metrics/index.ts')]).then(
      ([{ ReviewApi }, { loadJavaSyntax }]) => new ReviewApi(platform.records, trajectory, engine, async () => loadJavaSyntax(await options.javaWasm())),
    ));
  const parts: LabParts = { platform, engine, runs, experiments, experimentsApi, share, review, loadJava, trajectory, reportAnalyses };
  return { ...parts, api: labApi(parts) };
}

/** The page's API over the parts: one flat table of methods, each a call into one part. */
function labApi(lab: LabParts) {
  const { platform, engine, runs, experimentsApi, share } = lab;
  return {
    listBugs: () => engine.listBugs(),
    bugView: (bugId: string, onProgress?: (p: ImportProgress) => void) => engine.bugView(bugId, onProgress),
    listRepos: () => engine.listRepos(),
    deleteRepo: (repoId: string) => engine.deleteRepo(repoId),
    importFiles: (files: { name: string; bytes: Uint8Array }[], onProgress?: (p: ImportProgress) => void) => engine.importFiles(files, onProgress),
    importFolder: (name: string, files: { path: string; bytes: Uint8Array }[], onProgress?: (p: ImportProgress) => void) => engine.importFolder(name, files, onProgress),
    cloneRepository: (url: string, corsProxy: string | undefined, onProgress?: (p: ImportProgress) => void) => engine.cloneRepository(url, corsProxy, onProgress),
    /** a stored repository browsed and made a bug of (worker/repo/repo-browse.ts, worker/bugs/repo-tests.ts, worker/bugs/make-bug.ts): */
    /** every ref's history newest first, a folder and a file at a commit, the tests and layout at a commit, */
    repoLog: (repoId: string, skip?: number, limit?: number) => engine.repoSession(repoId).then((s) => commitLog(s, { skip, limit })),
    repoTree: (repoId: string, rev: string, dir?: string) => engine.repoSession(repoId).then((s) => treeListing(s, rev, dir)),
    repoFile: (repoId: string, rev: string, path: string) => engine.repoSession(repoId).then((s) => fileAtCommit(s, rev, path)),
    commitTests: async (repoId: string, rev: string) => commitTests(await engine.repoSession(repoId), await lab.loadJava(), rev),
    /** the whole suite at a commit on the runner (its failing tests), what a fixing commit gives, and the bug saved */
    runSuite: (repoId: string, rev: string, runner: RunnerSettings, layout?: ProjectLayout) => runSuite(engine, repoId, rev, runner, layout),
    fixPreview: (repoId: string, buggyCommit: string, fixedCommit: string, layout?: ProjectLayout) => fixPreview(engine, repoId, buggyCommit, fixedCommit, layout),
    makeBug: (draft: BugDraft, runner: RunnerSettings) => makeBug(engine, draft, runner),
    /** a bug made here or imported as a BugSpec file (bundled bugs are refused) */
    deleteBug: (bugId: string) => engine.deleteBug(bugId),
    blameFiles: (repoId: string, rev?: string, files?: string[]) => blameFiles(engine, repoId, rev, files),
    timeBlame: (repoId: string, file: string, rev?: string, runs?: number) => timeBlame(engine, repoId, file, rev, runs),
    /** the history explorer (worker/bugs/bug-history.ts, worker/history/commit-details.ts): blame of a bug's file at its history base, */
    /** a commit's message and diff of one file, and HAFixAgent's history sections as a run's prompt gets them */
    blameBugFile: (bugId: string, file?: string) => blameBugFile(engine, bugId, file),
    commitDetails: (repoId: string, oid: string, file: string) => commitDetails(engine, repoId, oid, file),
    historySection: (bugId: string, heuristic: HistoryHeuristic, variants?: string[]) => historySection(engine, lab.loadJava, bugId, heuristic, variants),
    listPresets: () => runs.listPresets(),
    /** the strategy editor's starting point and the prompt preview (worker/strategies/first-prompt.ts) */
    editableStrategy: (preset: string, variants?: string[]) => engine.editableStrategy(preset, variants),
    previewPrompt: (request: PromptPreviewRequest) => engine.previewPrompt(request),
    startRun: (request: RunRequest, onEvent: (e: RunEvent) => void) => runs.start(request, onEvent),
    /** a saved run a reload interrupted, continued with these model and runner settings */
    continueRun: (runId: string, settings: Pick<RunRequest, 'model' | 'runner'>, onEvent: (e: RunEvent) => void) => runs.continueRun(runId, settings, onEvent),
    /** a new run replaying a saved run's first k steps from its record, then this model (worker/runs/run-fork.ts) */
    forkRun: (request: ForkRequest, onEvent: (e: RunEvent) => void) => runs.forkRun(request, onEvent),
    stopRun: (runId: string) => runs.stop(runId),
    pauseRun: (runId: string) => runs.pause(runId),
    resumeRun: (runId: string) => runs.resume(runId),
    stepRun: (runId: string) => runs.step(runId),
    submitHumanReply: (runId: string, text: string) => runs.submitHumanReply(runId, text),
    /**
     * saved runs, each with the experiment cell that names it (worker/experiments/run-cells.ts, which reads every cell
     * record); `experiments: false` leaves that join out, for callers that only filter the runs (Continue)
     */
    listRuns: async (opts: { experiments?: boolean } = {}) => (opts.experiments === false ? runs.list() : withRunCells(await runs.list(), lab.experiments.store)),
    getRun: (runId: string) => runs.get(runId),
    deleteRun: (runId: string) => runs.delete(runId),
    /** a RepairLab, mini-swe-agent or SWE-agent trajectory file, read for viewing (not stored) */
    importTrajectory: (text: string, fileName: string) => importTrajectoryFile(text, fileName),
    /** a mini-swe-agent, SWE-agent or RepairLab trajectory file stored as a run, marked imported (worker/records/trajectory-import.ts) */
    importTrajectoryRun: (text: string, fileName: string) => importTrajectoryAsRun(platform.records, text, fileName),
    /** a cassette file, or a RepairLab trajectory file turned into one, to replay as the model */
    readRecording: (text: string, fileName: string) => readRecording(text, fileName),
    /** the cassette that replays a run (prompts with their hashes, replies in order) */
    cassetteOf: (trajectory: Trajectory) => cassetteFromTrajectory(trajectory),
    revealGroundTruth: (bugId: string) => runs.revealGroundTruth(bugId),
    storageEstimate: () => platform.storageEstimate(),
    /** a script of tool calls on a bug's workspace (default: the standard script over every toolkit) */
    runToolScript: (bugId: string, runner: RunnerSettings, calls?: ToolCall[]) => runToolScriptOnBug(engine, lab.loadJava, bugId, runner, calls),
    /** experiments (worker/experiments/experiments-api.ts): the spec is plain JSON; the key and runners come with run/resume, never recorded */
    estimateExperiment: (spec: unknown) => experimentsApi.estimate(spec),
    createExperiment: (spec: unknown) => experimentsApi.create(spec),
    runExperiment: (id: string, settings: ExperimentRunSettings) => experimentsApi.run(id, settings),
    pauseExperiment: (id: string) => experimentsApi.pause(id),
    resumeExperiment: (id: string, settings: ExperimentRunSettings) => experimentsApi.resume(id, settings),
    /** the cells in an infrastructure error run again (their indices; default every one), nothing else */
    retryExperiment: (id: string, settings: ExperimentRunSettings, cells?: number[]) => experimentsApi.retry(id, settings, cells),
    stopExperiment: (id: string) => experimentsApi.stop(id),
    listExperiments: () => experimentsApi.list(),
    getExperiment: (id: string) => experimentsApi.get(id),
    experimentReport: (id: string) => experimentsApi.report(id),
    /** the report with its sections as the CLI's tables */
    experimentReportView: (id: string) => experimentsApi.reportView(id),
    /** every experiment's events (progress, cells started and finished) until unwatchExperiments */
    watchExperiments: (onEvent: (e: ExperimentEvent) => void) => experimentsApi.watch(onEvent),
    unwatchExperiments: (watchId: number) => experimentsApi.unwatch(watchId),
    /** an experiment's self-contained HTML report ('html') or an export (cells-csv, bugs-csv, json, predictions): worker/experiments/report-files.ts */
    experimentFile: (id: string, kind: string) => experimentFileOf(experimentsApi, lab.trajectory, id, kind),
    /** sharing (worker/share/share-api.ts): an experiment as a bundle file, a bundle opened here, an experiment's runs replayed from their replies */
    /** patch review (worker/experiments/review-api.ts): the queue, a rater's label, a resolution, the agreement */
    reviewQueue: async (target: ReviewTarget) => (await lab.review()).queue(target),
    labelPatch: async (input: LabelInput) => (await lab.review()).label(input),
    resolvePatchLabel: async (input: { bugId: string; patchKey: string; label: LabelValue; by: string; note?: string }) => (await lab.review()).resolve(input),
    labelAgreement: async (target?: ReviewTarget) => (await lab.review()).agreement(target),
    bundleExperiment: (id: string) => share.bundle(id),
    openBundle: (bytes: Uint8Array, source: string, expectedSha256?: string) => share.open(bytes, source, expectedSha256),
    hasExperiment: (id: string) => share.hasExperiment(id),
    replayExperiment: (id: string, runner: RunnerSettings, runIds?: string[]) => share.replay(id, runner, runIds),
  };
}

export type LabApi = ReturnType<typeof labApi>;
