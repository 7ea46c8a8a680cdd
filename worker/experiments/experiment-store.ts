// Where an experiment lives: the platform's record store (IndexedDB in the browser, JSON files under
// $REPAIRLAB_HOME/records in Node) — the same store as the runs it points at, so the browser worker and the CLI share
// one engine. One header per experiment in 'experiments', one record per started cell in 'experiment-cells'
// (`<experimentId>.<index, 5 digits>`); a cell with no record has not started.
import type { RecordStore } from '../contracts/platform.ts';
import { CellRecord, ExperimentRecord } from '../contracts/experiment.ts';

export const EXPERIMENT_COLLECTION = 'experiments';
export const CELL_COLLECTION = 'experiment-cells';

export function cellRecordId(experimentId: string, index: number): string {
  return `${experimentId}.${String(index).padStart(5, '0')}`;
}

/** A fresh experiment id (`exp-<time>-<random>`): one safe record-id segment. */
export function newExperimentId(): string {
  const rand = crypto.getRandomValues(new Uint32Array(1));
  return `exp-${Date.now().toString(36)}-${rand[0]!.toString(36)}`;
}

export class ExperimentStore {
  /** writes of one record go one after another (a later state never lands before an earlier one) */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(readonly records: RecordStore) {}

  async get(id: string): Promise<ExperimentRecord | undefined> {
    const raw = await this.records.get(EXPERIMENT_COLLECTION, id);
    if (raw === undefined) return undefined;
    const r = ExperimentRecord.safeParse(raw);
    if (!r.success) throw new Error(`stored experiment ${id} is not readable: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
    return r.data;
  }

  async list(): Promise<ExperimentRecord[]> {
    const out: ExperimentRecord[] = [];
    for (const id of await this.records.list(EXPERIMENT_COLLECTION)) {
      const e = await this.get(id).catch(() => undefined);
      if (e) out.push(e);
    }
    return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  put(record: ExperimentRecord): Promise<void> {
    return this.serialized(`e:${record.id}`, () => this.records.put(EXPERIMENT_COLLECTION, record.id, { ...record, updatedAt: new Date().toISOString() }));
  }

  /** The experiment's started cells by index. */
  async cells(experimentId: string): Promise<Map<number, CellRecord>> {
    const prefix = `${experimentId}.`;
    const out = new Map<number, CellRecord>();
    for (const id of await this.records.list(CELL_COLLECTION)) {
      if (!id.startsWith(prefix)) continue;
      const cell = CellRecord.parse(await this.records.get(CELL_COLLECTION, id));
      out.set(cell.index, cell);
    }
    return out;
  }

  putCell(cell: CellRecord): Promise<void> {
    const id = cellRecordId(cell.experimentId, cell.index);
    const copy = structuredClone(cell);
    return this.serialized(`c:${id}`, () => this.records.put(CELL_COLLECTION, id, copy));
  }

  private serialized(key: string, write: () => Promise<void>): Promise<void> {
    const next = (this.writes.get(key) ?? Promise.resolve()).then(write);
    const settled = next.catch(() => undefined);
    this.writes.set(key, settled);
    void settled.then(() => this.writes.get(key) === settled && this.writes.delete(key));
    return next;
  }
}
