// Where patch labels live: the platform's record store (IndexedDB in the browser, JSON files under
// $REPAIRLAB_HOME/records in Node), as runs and experiments do. Each rater's label is one record in 'patch-labels'
// (`<bug>.<patchKey>.<rater>`), the resolved label one record in 'patch-label-resolutions' (`<bug>.<patchKey>`):
// apart, so a resolution never overwrites what a rater said.
import type { RecordStore } from '../contracts/platform.ts';
import { LabelSet, RaterLabel, ResolvedLabel, type LabelValue } from '../contracts/patch-labels.ts';

export const LABEL_COLLECTION = 'patch-labels';
export const RESOLUTION_COLLECTION = 'patch-label-resolutions';

/** Bug ids become part of a record id: refuse one that is not a safe segment. */
function safeBug(bugId: string): string {
  if (!/^[A-Za-z0-9][\w.@+-]*$/.test(bugId)) throw new Error(`bug id ${JSON.stringify(bugId)} cannot key a label: use letters, digits and . _ @ + -`);
  return bugId;
}

function parseOr<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, raw: unknown, what: string): T {
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`stored ${what} is not readable: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
  return r.data;
}

export interface LabelInput {
  bugId: string;
  patchKey: string;
  rater: string;
  label: LabelValue;
  note?: string;
}

export class PatchLabelStore {
  constructor(readonly records: RecordStore) {}

  /** Stores (or replaces) the rater's label of the patch, stamped now. */
  async label(input: LabelInput): Promise<RaterLabel> {
    const { bugId, patchKey, rater, label, note } = input;
    const record = RaterLabel.parse({ bugId, patchKey, rater, label, ...(note ? { note } : {}), at: new Date().toISOString() });
    await this.records.put(LABEL_COLLECTION, `${safeBug(record.bugId)}.${record.patchKey}.${record.rater}`, record);
    return record;
  }

  /** Stores the resolved label of the patch (the one the metrics count). */
  async resolve(input: { bugId: string; patchKey: string; label: LabelValue; by: string; note?: string }): Promise<ResolvedLabel> {
    const { bugId, patchKey, label, by, note } = input;
    const record = ResolvedLabel.parse({ bugId, patchKey, label, by, ...(note ? { note } : {}), at: new Date().toISOString() });
    await this.records.put(RESOLUTION_COLLECTION, `${safeBug(record.bugId)}.${record.patchKey}`, record);
    return record;
  }

  async raterLabels(): Promise<RaterLabel[]> {
    const ids = await this.records.list(LABEL_COLLECTION);
    const out: RaterLabel[] = [];
    for (const id of ids) out.push(parseOr(RaterLabel, await this.records.get(LABEL_COLLECTION, id), `label ${id}`));
    return out.sort((a, b) => a.bugId.localeCompare(b.bugId) || a.patchKey.localeCompare(b.patchKey) || a.rater.localeCompare(b.rater));
  }

  async resolutions(): Promise<ResolvedLabel[]> {
    const ids = await this.records.list(RESOLUTION_COLLECTION);
    const out: ResolvedLabel[] = [];
    for (const id of ids) out.push(parseOr(ResolvedLabel, await this.records.get(RESOLUTION_COLLECTION, id), `resolved label ${id}`));
    return out.sort((a, b) => a.bugId.localeCompare(b.bugId) || a.patchKey.localeCompare(b.patchKey));
  }

  /** Every label, both kinds (for reports and bundles). */
  async all(): Promise<LabelSet> {
    return { raterLabels: await this.raterLabels(), resolved: await this.resolutions() };
  }

  /** Adds labels carried by a bundle or a label file; a record already here with the same key is kept (it is the newer one, or the same). */
  async merge(set: LabelSet): Promise<{ added: number; kept: number }> {
    const parsed = LabelSet.parse(set);
    let added = 0;
    let kept = 0;
    for (const l of parsed.raterLabels) {
      const id = `${safeBug(l.bugId)}.${l.patchKey}.${l.rater}`;
      if ((await this.records.get(LABEL_COLLECTION, id)) !== undefined) kept++;
      else {
        await this.records.put(LABEL_COLLECTION, id, l);
        added++;
      }
    }
    for (const r of parsed.resolved) {
      const id = `${safeBug(r.bugId)}.${r.patchKey}`;
      if ((await this.records.get(RESOLUTION_COLLECTION, id)) !== undefined) kept++;
      else {
        await this.records.put(RESOLUTION_COLLECTION, id, r);
        added++;
      }
    }
    return { added, kept };
  }
}
