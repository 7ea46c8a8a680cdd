// The engine worker: one module worker owns the git store (lightning-fs in IndexedDB), parsing and the agent
// runs, and exposes them to the UI with Comlink. Only this worker opens lightning-fs.
import './shims/buffer.ts';
import * as Comlink from 'comlink';
import { Engine } from './engine.ts';
import { createBrowserPlatform } from './platform/browser.ts';
import { initJava } from './java/index.ts';
import { javaWasmUrls } from './java/wasm-urls.browser.ts';
import { RunManager } from './run-manager.ts';
import { importTrajectoryFile, readRecording } from './agent/trajectory-io.ts';
import { cassetteFromTrajectory } from './agent/record-cassette.ts';
import type { Trajectory } from './contracts/trajectory.ts';
import type { ForkRequest, ImportProgress, PromptPreviewRequest, RunEvent, RunRequest, RunnerSettings } from './engine-api.ts';
import { runToolScriptOnBug } from './api/tool-script.ts';
import { blameFiles, timeBlame } from './api/history.ts';
import { commitDetails } from './api/commit-details.ts';
import { blameBugFile, historySection } from './api/history-explorer.ts';
import type { HistoryHeuristic } from './history/heuristics.ts';
import type { ToolCall } from './tools/script.ts';
import { Experiments } from './experiments/scheduler.ts';
import { ExperimentsApi, type ExperimentRunSettings } from './api/experiments.ts';
import type { ExperimentEvent } from './experiments/scheduler.ts';
import { loadTrajectory } from './agent/persistence.ts';
import { importTrajectoryAsRun } from './api/trajectory-import.ts';
import { experimentFileOf } from './api/report-files.ts';
import { ShareApi } from './api/share.ts';

// The app's base URL: this script is served one directory below it (assets/ in a build, worker/ in dev).
const platform = createBrowserPlatform({ assetBaseUrl: new URL('../', self.location.href).href });
const engine = new Engine(platform);
const runs = new RunManager(engine, () => initJava(javaWasmUrls));
/** experiments run their cells through the same RunManager (same records, same continue path) */
const experiments = new ExperimentsApi(
  new Experiments({ runs, records: platform.records, listBugs: () => engine.listBugs() }),
  platform,
  (runId) => loadTrajectory(platform.records, runId),
  () => engine.listBugs(),
  // the report's metrics and statistics as the CLI computes them (worker/cli/experiment-commands.ts nodeAnalyses)
  async () => {
    const [{ reportAnalyses, bugMetaFromWorkspaces }, { loadJavaSyntax }] = await Promise.all([import('./experiments/analyses.ts'), import('./experiments/metrics/index.ts')]);
    return reportAnalyses({ bugMeta: bugMetaFromWorkspaces(engine), syntax: await loadJavaSyntax(javaWasmUrls) });
  },
);

/** bundles: write, open, replay (worker/api/share.ts) */
const share = new ShareApi(platform.records, runs);

/** What the UI can call. Callbacks arrive as Comlink proxies. */
const api = {
  listBugs: () => engine.listBugs(),
  bugView: (bugId: string, onProgress?: (p: ImportProgress) => void) => engine.bugView(bugId, onProgress),
  listRepos: () => engine.listRepos(),
  deleteRepo: (repoId: string) => engine.deleteRepo(repoId),
  importFiles: (files: { name: string; bytes: Uint8Array }[], onProgress?: (p: ImportProgress) => void) => engine.importFiles(files, onProgress),
  importFolder: (name: string, files: { path: string; bytes: Uint8Array }[], onProgress?: (p: ImportProgress) => void) => engine.importFolder(name, files, onProgress),
  cloneRepository: (url: string, corsProxy: string | undefined, onProgress?: (p: ImportProgress) => void) => engine.cloneRepository(url, corsProxy, onProgress),
  blameFiles: (repoId: string, rev?: string, files?: string[]) => blameFiles(engine, repoId, rev, files),
  timeBlame: (repoId: string, file: string, rev?: string, runs?: number) => timeBlame(engine, repoId, file, rev, runs),
  /** the history explorer (worker/api/history-explorer.ts, commit-details.ts): blame of a bug's file at its history base, */
  /** a commit's message and diff of one file, and HAFixAgent's history sections as a run's prompt gets them */
  blameBugFile: (bugId: string, file?: string) => blameBugFile(engine, bugId, file),
  commitDetails: (repoId: string, oid: string, file: string) => commitDetails(engine, repoId, oid, file),
  historySection: (bugId: string, heuristic: HistoryHeuristic, variants?: string[]) => historySection(engine, () => initJava(javaWasmUrls), bugId, heuristic, variants),
  listPresets: () => runs.listPresets(),
  /** the strategy editor's starting point and the prompt preview (worker/api/prompt-preview.ts) */
  editableStrategy: (preset: string, variants?: string[]) => engine.editableStrategy(preset, variants),
  previewPrompt: (request: PromptPreviewRequest) => engine.previewPrompt(request),
  startRun: (request: RunRequest, onEvent: (e: RunEvent) => void) => runs.start(request, onEvent),
  /** a saved run a reload interrupted, continued with these model and runner settings */
  continueRun: (runId: string, settings: Pick<RunRequest, 'model' | 'runner'>, onEvent: (e: RunEvent) => void) => runs.continueRun(runId, settings, onEvent),
  /** a new run replaying a saved run's first k steps from its record, then this model (worker/agent/fork.ts) */
  forkRun: (request: ForkRequest, onEvent: (e: RunEvent) => void) => runs.forkRun(request, onEvent),
  stopRun: (runId: string) => runs.stop(runId),
  pauseRun: (runId: string) => runs.pause(runId),
  resumeRun: (runId: string) => runs.resume(runId),
  stepRun: (runId: string) => runs.step(runId),
  submitHumanReply: (runId: string, text: string) => runs.submitHumanReply(runId, text),
  listRuns: () => runs.list(),
  getRun: (runId: string) => runs.get(runId),
  deleteRun: (runId: string) => runs.delete(runId),
  /** a RepairLab, mini-swe-agent or SWE-agent trajectory file, read for viewing (not stored) */
  importTrajectory: (text: string, fileName: string) => importTrajectoryFile(text, fileName),
  /** a mini-swe-agent, SWE-agent or RepairLab trajectory file stored as a run, marked imported (worker/api/trajectory-import.ts) */
  importTrajectoryRun: (text: string, fileName: string) => importTrajectoryAsRun(platform.records, text, fileName),
  /** a cassette file, or a RepairLab trajectory file turned into one, to replay as the model */
  readRecording: (text: string, fileName: string) => readRecording(text, fileName),
  /** the cassette that replays a run (prompts with their hashes, replies in order) */
  cassetteOf: (trajectory: Trajectory) => cassetteFromTrajectory(trajectory),
  revealGroundTruth: (bugId: string) => runs.revealGroundTruth(bugId),
  storageEstimate: () => platform.storageEstimate(),
  /** a script of tool calls on a bug's workspace (default: the standard script over every toolkit) */
  runToolScript: (bugId: string, runner: RunnerSettings, calls?: ToolCall[]) => runToolScriptOnBug(engine, () => initJava(javaWasmUrls), bugId, runner, calls),
  /** experiments (worker/api/experiments.ts): the spec is plain JSON; the key and runners come with run/resume, never recorded */
  estimateExperiment: (spec: unknown) => experiments.estimate(spec),
  createExperiment: (spec: unknown) => experiments.create(spec),
  runExperiment: (id: string, settings: ExperimentRunSettings) => experiments.run(id, settings),
  pauseExperiment: (id: string) => experiments.pause(id),
  resumeExperiment: (id: string, settings: ExperimentRunSettings) => experiments.resume(id, settings),
  stopExperiment: (id: string) => experiments.stop(id),
  listExperiments: () => experiments.list(),
  getExperiment: (id: string) => experiments.get(id),
  experimentReport: (id: string) => experiments.report(id),
  /** the report with its sections as the CLI's tables */
  experimentReportView: (id: string) => experiments.reportView(id),
  /** every experiment's events (progress, cells started and finished) until unwatchExperiments */
  watchExperiments: (onEvent: (e: ExperimentEvent) => void) => experiments.watch(onEvent),
  unwatchExperiments: (watchId: number) => experiments.unwatch(watchId),
  /** an experiment's self-contained HTML report ('html') or an export (cells-csv, bugs-csv, json, predictions): worker/api/report-files.ts */
  experimentFile: (id: string, kind: string) => experimentFileOf(experiments, (runId) => loadTrajectory(platform.records, runId), id, kind),
  /** sharing (worker/api/share.ts): an experiment as a bundle file, a bundle opened here, an experiment's runs replayed from their replies */
  bundleExperiment: (id: string) => share.bundle(id),
  openBundle: (bytes: Uint8Array, source: string, expectedSha256?: string) => share.open(bytes, source, expectedSha256),
  hasExperiment: (id: string) => share.hasExperiment(id),
  replayExperiment: (id: string, runner: RunnerSettings, runIds?: string[]) => share.replay(id, runner, runIds),
};

export type WorkerApi = typeof api;

Comlink.expose(api);
