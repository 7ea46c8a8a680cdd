// Saved runs of textkit-1 that ended plausible with the given final patches, for the review commands' tests: the
// scripted fix run with its outcome rewritten (the re-check passing the trigger test). Returns their run ids in order.
import type { RecordStore } from '../../../worker/contracts/platform.ts';
import { parseTrajectory } from '../../../worker/contracts/trajectory.ts';
import { storeRecorder } from '../../../worker/records/persistence.ts';
import { scriptedRun, SCRIPTS } from '../../unit/experiments/metrics/runs.ts';

export async function recordPlausibleRuns(records: RecordStore, patches: readonly string[]): Promise<string[]> {
  const record = storeRecorder(records);
  const runIds: string[] = [];
  for (const patch of patches) {
    const t = structuredClone(await scriptedRun(SCRIPTS.fix));
    t.bug = { ...t.bug, id: 'textkit-1', library: 'textkit' };
    t.outcome = { ...t.outcome!, status: 'plausible', plausible: true, finalPatch: patch, recheck: { ...t.outcome!.recheck!, tests: [{ id: 'org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly', status: 'pass', durationMs: 3 }] } };
    const parsed = parseTrajectory(t);
    await record(parsed);
    runIds.push(parsed.runId);
  }
  return runIds;
}
