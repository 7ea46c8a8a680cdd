import type { RecordStore } from '../contracts/platform.ts';

/**
 * A RecordStore held in memory, for benchmarks and tests. Values are copied through JSON on the way in and out, as the
 * real stores copy them (IndexedDB clones, the Node store writes files), so callers pay the same serialisation and
 * cannot mutate what was stored.
 */
export class MemoryRecordStore implements RecordStore {
  protected readonly data = new Map<string, string>();

  async put(collection: string, id: string, value: unknown): Promise<void> {
    this.data.set(`${collection}/${id}`, JSON.stringify(value));
  }

  async get<T>(collection: string, id: string): Promise<T | undefined> {
    const v = this.data.get(`${collection}/${id}`);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  async list(collection: string): Promise<string[]> {
    return [...this.data.keys()].filter((k) => k.startsWith(`${collection}/`)).map((k) => k.slice(collection.length + 1));
  }

  async delete(collection: string, id: string): Promise<void> {
    this.data.delete(`${collection}/${id}`);
  }
}
