// Experiment bundles (docs/formats/bundle.md): collect an experiment from a record store, write it as one
// gzip-compressed, content-addressed file, and read one back — verifying its hash and every reference inside it
// before anything is trusted. Platform-neutral (a RecordStore in, bytes out): the page and the CLI share it.
import { patchKey } from '../diff/normalised-patch.ts';
import { PatchLabelStore } from '../records/patch-label-store.ts';
import { BUNDLE_SCHEMA_VERSION, BundleError, BundleFile, type BundleContent, type BundleRun } from '../contracts/bundle.ts';
import type { RecordStore } from '../contracts/platform.ts';
import { findKeyLike } from '../contracts/experiment.ts';
import { canonicalJson, sha256Hex } from '../llm/prompt-hash.ts';
import { ExperimentStore } from '../experiments/experiment-store.ts';
import { loadTrajectory } from '../records/persistence.ts';
import { cassetteFromTrajectory } from '../records/cassette-from-trajectory.ts';
import { compress, decompress, type CompressionBackend } from './compression.ts';

/** The run ids a cell points at: the run that counts, then the attempts infrastructure ended. */
function runIdsOf(cell: BundleContent['cells'][number]): string[] {
  return [...(cell.runId ? [cell.runId] : []), ...cell.attempts.flatMap((a) => (a.runId ? [a.runId] : []))];
}

/** Everything a bundle of experiment `id` holds, read from `records`. A running experiment or an unfinished run is refused. */
export async function collectBundle(records: RecordStore, id: string): Promise<BundleContent> {
  const store = new ExperimentStore(records);
  const experiment = await store.get(id);
  if (!experiment) throw new BundleError(`there is no experiment ${id} in this record store (list them with \`repairlab experiments\`).`);
  const cells = [...(await store.cells(id)).values()].sort((a, b) => a.index - b.index);
  const running = cells.find((c) => c.status === 'running');
  if (experiment.status === 'running' || experiment.status === 'paused' || running) {
    throw new BundleError(`experiment ${id} is not over (${running ? `cell ${running.index} is running` : `it is ${experiment.status}`}): let it finish (\`repairlab experiment run --resume ${id}\`) or stop it, then bundle it.`);
  }
  const runIds = [...new Set(cells.flatMap(runIdsOf))].sort();
  const runs: BundleRun[] = [];
  for (const runId of runIds) {
    const trajectory = await loadTrajectory(records, runId);
    if (!trajectory) throw new BundleError(`experiment ${id}: run ${runId} of one of its cells is not in the record store, so the bundle could not replay it.`);
    if (trajectory.status !== 'finished') throw new BundleError(`experiment ${id}: run ${runId} has not finished (${trajectory.status}): continue it (\`repairlab continue ${runId} --llm …\`) before bundling.`);
    runs.push({ trajectory, cassette: cassetteFromTrajectory(trajectory) });
  }
  // the labels of these runs' patches travel with them, so the reader's report counts the same correct patches
  const patches = new Set(runs.flatMap((r) => (r.trajectory.outcome?.finalPatch ? [JSON.stringify([r.trajectory.bug.id, patchKey(r.trajectory.outcome.finalPatch)])] : [])));
  const all = await new PatchLabelStore(records).all();
  const mine = <T extends { bugId: string; patchKey: string }>(xs: T[]) => xs.filter((x) => patches.has(JSON.stringify([x.bugId, x.patchKey])));
  const labels = { raterLabels: mine(all.raterLabels), resolved: mine(all.resolved) };
  const content: BundleContent = { experiment, cells, runs, ...(labels.raterLabels.length || labels.resolved.length ? { labels } : {}) };
  // a key must never travel: the spec was checked when it was made, the run configs are whitelisted; check again
  const keyLike = findKeyLike(experiment.spec, ['experiment', 'spec']) ?? runs.map((r) => findKeyLike(r.trajectory.config, ['runs', r.trajectory.runId, 'config'])).find(Boolean);
  if (keyLike) throw new BundleError(`experiment ${id} cannot be bundled: ${keyLike}. A bundle never holds keys.`);
  return content;
}

/** The bundle's identity: the hex SHA-256 of the canonical JSON of its content. */
export function bundleHash(content: unknown): Promise<string> {
  return sha256Hex(canonicalJson(content));
}

/** A file name that says what the bundle is and which one: `<experiment id>.<first 16 hex of its hash>.rlbundle.json.gz`. */
export function bundleFileName(experimentId: string, sha256: string): string {
  return `${experimentId}.${sha256.slice(0, 16)}.rlbundle.json.gz`;
}

export async function writeBundle(content: BundleContent, backend?: CompressionBackend): Promise<{ bytes: Uint8Array; sha256: string; name: string }> {
  const sha256 = await bundleHash(content);
  const file: BundleFile = { kind: 'repairlab-bundle', schemaVersion: BUNDLE_SCHEMA_VERSION, sha256, content };
  const bytes = await compress(new TextEncoder().encode(JSON.stringify(file)), 'gzip', backend);
  return { bytes, sha256, name: bundleFileName(content.experiment.id, sha256) };
}

/**
 * Reads and verifies a bundle file: gzip, JSON, its kind and version, the hash of its content, the schema, and that
 * every cell's runs are in it with a cassette that replays them. `source` names the file in errors.
 */
export async function readBundle(bytes: Uint8Array, source: string, backend?: CompressionBackend): Promise<BundleFile> {
  const broken = (what: string) => new BundleError(`${source} is not a usable RepairLab bundle: ${what}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await decompress(bytes, 'gzip', backend));
  } catch (e) {
    throw broken(`it is not complete gzip data (${(e as Error).message}); it was damaged or cut short — get the file again.`);
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw broken(`its content is not JSON (${(e as Error).message}).`);
  }
  if (raw?.kind !== 'repairlab-bundle') throw broken(`its kind is ${JSON.stringify(raw?.kind)}, not "repairlab-bundle".`);
  if (raw.schemaVersion !== BUNDLE_SCHEMA_VERSION) {
    throw broken(
      typeof raw.schemaVersion === 'number' && raw.schemaVersion > BUNDLE_SCHEMA_VERSION
        ? `it is bundle version ${raw.schemaVersion}, newer than this RepairLab reads (${BUNDLE_SCHEMA_VERSION}): open it with a newer RepairLab.`
        : `its schemaVersion ${JSON.stringify(raw.schemaVersion)} is not ${BUNDLE_SCHEMA_VERSION}.`,
    );
  }
  const actual = await bundleHash(raw.content);
  if (actual !== raw.sha256) throw broken(`its content does not match its hash (sha256 ${String(raw.sha256).slice(0, 16)}…, content hashes to ${actual.slice(0, 16)}…): the file was changed or damaged.`);
  const r = BundleFile.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw broken(`${issue.path.join('.') || '(top level)'}: ${issue.message} (see docs/formats/bundle.md).`);
  }
  const { experiment, cells, runs } = r.data.content;
  const byId = new Map(runs.map((run) => [run.trajectory.runId, run]));
  if (byId.size !== runs.length) throw broken('a run appears twice in it.');
  for (const cell of cells) {
    if (cell.experimentId !== experiment.id) throw broken(`cell ${cell.index} belongs to experiment ${cell.experimentId}, not ${experiment.id}.`);
    for (const runId of runIdsOf(cell)) if (!byId.has(runId)) throw broken(`cell ${cell.index} points at run ${runId}, which it does not hold.`);
  }
  for (const { trajectory, cassette } of runs) {
    const answered = trajectory.steps.filter((s) => s.response);
    if (cassette.calls.length !== answered.length || cassette.calls.some((c, i) => c.promptHash !== answered[i]!.prompt.promptHash)) {
      throw broken(`run ${trajectory.runId}: its cassette does not hold the replies of its steps.`);
    }
  }
  return r.data;
}
