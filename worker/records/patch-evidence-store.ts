// Where review evidence lives (docs/formats/labels.md, "Evidence"): one record per (bug, normalised patch, later commit,
// test class) in the platform's record store, collection 'patch-evidence', id `<bug>.<patchKey>.<commit>.<TestClass>`.
// Apart from the labels: evidence is never a label, and computing it again replaces the item's records.
import type { RecordStore } from '../contracts/platform.ts';
import { PatchEvidence } from '../contracts/patch-evidence.ts';

export const EVIDENCE_COLLECTION = 'patch-evidence';

function recordId(e: Pick<PatchEvidence, 'bugId' | 'patchKey' | 'commit' | 'testClass'>): string {
  if (!/^[A-Za-z0-9][\w.@+-]*$/.test(e.bugId)) throw new Error(`bug id ${JSON.stringify(e.bugId)} cannot key evidence: use letters, digits and . _ @ + -`);
  return `${e.bugId}.${e.patchKey}.${e.commit}.${e.testClass.replace(/[^\w$.-]/g, '_')}`;
}

export class PatchEvidenceStore {
  constructor(readonly records: RecordStore) {}

  /** Replaces the stored evidence of one (bug, patch) with `evidence` (all of it computed now). */
  async replace(bugId: string, patchKey: string, evidence: readonly PatchEvidence[]): Promise<void> {
    const prefix = `${bugId}.${patchKey}.`;
    for (const id of await this.records.list(EVIDENCE_COLLECTION)) if (id.startsWith(prefix)) await this.records.delete(EVIDENCE_COLLECTION, id);
    for (const e of evidence) {
      const record = PatchEvidence.parse(e);
      await this.records.put(EVIDENCE_COLLECTION, recordId(record), record);
    }
  }

  /** Every stored evidence record, by bug, patch, then oldest later commit first. */
  async all(): Promise<PatchEvidence[]> {
    const out: PatchEvidence[] = [];
    for (const id of await this.records.list(EVIDENCE_COLLECTION)) {
      const r = PatchEvidence.safeParse(await this.records.get(EVIDENCE_COLLECTION, id));
      if (!r.success) throw new Error(`stored evidence ${id} is not readable: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
      out.push(r.data);
    }
    return out.sort((a, b) => a.bugId.localeCompare(b.bugId) || a.patchKey.localeCompare(b.patchKey) || Number(b.afterFix) - Number(a.afterFix) || a.timestamp - b.timestamp || a.testClass.localeCompare(b.testClass));
  }
}
