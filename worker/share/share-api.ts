// Sharing as the page sees it (docs/formats/bundle.md): an experiment written as a bundle file, a bundle file opened
// into this browser's records (all or nothing), and the runs of an experiment replayed from their recorded replies —
// no key, no model — and compared with the recording. The same worker/share/ functions the CLI uses.
import type { RecordStore } from '../contracts/platform.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { RunEvent, RunRequest } from '../contracts/runs.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import { EXPERIMENT_COLLECTION } from '../experiments/experiment-store.ts';
import { collectBundle, readBundle, writeBundle } from './experiment-bundle.ts';
import { importBundle, type ImportResult } from './bundle-import.ts';
import { refuseUnexpectedBundle } from './bundle-url.ts';
import { replayBundle, type ReplayResult } from './bundle-replay.ts';

export interface BundleDownload {
  /** the suggested file name: `<experiment id>.<16 hex of its hash>.rlbundle.json.gz` */
  name: string;
  bytes: Uint8Array;
  sha256: string;
  cells: number;
  runs: number;
}

/** A bundle's run as the page lists it after opening. */
export interface OpenedRun {
  runId: string;
  bugId: string;
  variant: string;
  sample: number;
  /** the recorded outcome (plausible, …) or the run's status */
  recorded: string;
}

export interface OpenedBundle extends ImportResult {
  sha256: string;
  /** the runs each cell counts, in cell order */
  cellRuns: OpenedRun[];
}

/** What the share API needs of the run manager: start a run, and remove a replay's own record afterwards. */
export interface ReplayRuns {
  start(request: RunRequest, onEvent: (e: RunEvent) => void): Promise<Trajectory[]>;
  delete(runId: string): Promise<unknown>;
}

export class ShareApi {
  constructor(
    private readonly records: RecordStore,
    private readonly runs: ReplayRuns,
  ) {}

  /** The experiment as a bundle file (refused, by name, while it runs or when a run of it is missing or unfinished). */
  async bundle(experimentId: string): Promise<BundleDownload> {
    const content = await collectBundle(this.records, experimentId);
    const { bytes, sha256, name } = await writeBundle(content);
    return { name, bytes, sha256, cells: content.cells.length, runs: content.runs.length };
  }

  /**
   * Verifies a bundle file and imports it; a damaged or conflicting one stores nothing. `source` names it in errors.
   * `expectedSha256`: the hash a link points to — a bundle with another one is refused before anything is stored.
   */
  async open(bytes: Uint8Array, source: string, expectedSha256?: string): Promise<OpenedBundle> {
    const bundle = await readBundle(bytes, source);
    if (expectedSha256) refuseUnexpectedBundle(source, expectedSha256, bundle.sha256);
    const result = await importBundle(this.records, bundle);
    const byId = new Map(bundle.content.runs.map((r) => [r.trajectory.runId, r.trajectory]));
    const cellRuns = bundle.content.cells.flatMap((c) => {
      const t = c.runId ? byId.get(c.runId) : undefined;
      return t ? [{ runId: t.runId, bugId: c.bugId, variant: c.variant, sample: c.sample, recorded: t.outcome?.status ?? t.status }] : [];
    });
    return { ...result, sha256: bundle.sha256, cellRuns };
  }

  async hasExperiment(experimentId: string): Promise<boolean> {
    return (await this.records.get(EXPERIMENT_COLLECTION, experimentId)) !== undefined;
  }

  /**
   * Replays the counted runs of a stored experiment (all, or only `onlyRunIds`) from their recorded replies on
   * `runner`, and says for each whether the replay equals the recording. The replays' own records are deleted
   * again: replaying adds nothing to the Runs list.
   */
  async replay(experimentId: string, runner: RunnerSettings, onlyRunIds?: string[], onResult?: (r: ReplayResult) => void): Promise<ReplayResult[]> {
    const content = await collectBundle(this.records, experimentId);
    const wanted = onlyRunIds ? new Set(onlyRunIds) : undefined;
    const missing = onlyRunIds?.filter((id) => !content.cells.some((c) => c.runId === id)) ?? [];
    if (missing.length) throw new Error(`experiment ${experimentId} counts no run ${missing.join(', ')}: replay one of the runs its cells list.`);
    const cells = wanted ? content.cells.filter((c) => c.runId && wanted.has(c.runId)) : content.cells;
    const bundle = { kind: 'repairlab-bundle' as const, schemaVersion: 1 as const, sha256: '0'.repeat(64), content: { ...content, cells } };
    return replayBundle(
      bundle,
      async (request) => {
        const [replayed] = await this.runs.start({ ...request, runner }, () => {});
        if (!replayed) throw new Error('the replay started no run');
        await this.runs.delete(replayed.runId);
        return replayed;
      },
      onResult,
    );
  }
}
