// Bugs a person made from a stored repository (the Repositories view's bug maker, worker/bugs/make-bug.ts): whole
// BugSpecs in the platform's records, collection `made-bugs` — IndexedDB in the browser, one JSON file per bug
// (`<home>/records/made-bugs/<id>.json`) in Node; docs/formats/made-bugs.md. Kept apart from `imported-bugs`
// (BugSpec files dropped on the page) so the page can say where a bug came from and offer to delete the ones made here.
import { BugSpec } from '../contracts/bug.ts';
import type { RecordStore } from '../contracts/platform.ts';

export const MADE_BUGS = 'made-bugs';

export class MadeBugStore {
  constructor(private readonly records: RecordStore) {}

  /** Every stored bug that still reads as a BugSpec (a record the schema refuses is left out, not fatal). */
  async list(): Promise<BugSpec[]> {
    const out: BugSpec[] = [];
    for (const id of await this.records.list(MADE_BUGS)) {
      const bug = await this.get(id);
      if (bug) out.push(bug);
    }
    return out;
  }

  async get(id: string): Promise<BugSpec | undefined> {
    const parsed = BugSpec.safeParse(await this.records.get(MADE_BUGS, id));
    return parsed.success ? parsed.data : undefined;
  }

  async has(id: string): Promise<boolean> {
    return (await this.records.list(MADE_BUGS)).includes(id);
  }

  /** Stores a BugSpec the schema has accepted (the bug maker parses it before). */
  async put(bug: BugSpec): Promise<void> {
    await this.records.put(MADE_BUGS, bug.id, BugSpec.parse(bug));
  }

  async delete(id: string): Promise<void> {
    await this.records.delete(MADE_BUGS, id);
  }
}
