// The browser side of Platform. Runs ONLY inside the engine web worker: lightning-fs (IndexedDB) is
// created once here, because two FS instances with one name (page + worker) fight over a mutex.
// No node: imports here or in anything imported from here.
import LightningFS from '@isomorphic-git/lightning-fs';
import { openDB, type IDBPDatabase } from 'idb';
import type { IsoFs, Platform, RecordStore, RunLocks } from '../contracts/platform.ts';

export interface BrowserPlatformOptions {
  /** lightning-fs database name (default 'repairlab-fs'); tests may use their own. */
  fsName?: string;
  /** IndexedDB database for records (default 'repairlab-records'). */
  recordsDbName?: string;
  /** Base URL that public/ assets are served under (default: the app base, resolved from the worker's location). */
  assetBaseUrl?: string;
}

const REPOS_ROOT = '/repos';
const RECORDS_STORE = 'records';

let sharedFs: { name: string; fs: LightningFS } | undefined;

function lightningFs(name: string): LightningFS {
  if (sharedFs) {
    if (sharedFs.name !== name) {
      throw new Error(`lightning-fs is already open as ${JSON.stringify(sharedFs.name)}; one FS per worker (asked for ${JSON.stringify(name)}).`);
    }
    return sharedFs.fs;
  }
  sharedFs = { name, fs: new LightningFS(name) };
  return sharedFs.fs;
}

/** One object store keyed by [collection, id]: collections need no schema upgrade. */
function createIdbRecordStore(dbName: string): RecordStore {
  let db: Promise<IDBPDatabase> | undefined;
  const open = () =>
    (db ??= openDB(dbName, 1, {
      upgrade(database) {
        database.createObjectStore(RECORDS_STORE);
      },
    }));
  // Arrays sort after strings in IndexedDB key order, so [c] .. [c, []] spans every [c, id].
  const range = (collection: string) => IDBKeyRange.bound([collection], [collection, []]);
  return {
    async put(collection, id, value) {
      await (await open()).put(RECORDS_STORE, structuredClone(value), [collection, id]);
    },
    async get<T>(collection: string, id: string) {
      return (await (await open()).get(RECORDS_STORE, [collection, id])) as T | undefined;
    },
    async list(collection) {
      const keys = await (await open()).getAllKeys(RECORDS_STORE, range(collection));
      return keys.map((k) => String((k as unknown[])[1])).sort();
    },
    async delete(collection, id) {
      await (await open()).delete(RECORDS_STORE, [collection, id]);
    },
    // one transaction for a step and its run header: one commit instead of two, and never one without the other.
    // Relaxed durability: committed once the browser has the data, not once the disk has it (a tab crash or a
    // reload keeps it; a power cut may lose the last write) — Chrome's default since 121, asked for everywhere.
    async putAll(entries) {
      const tx = (await open()).transaction(RECORDS_STORE, 'readwrite', { durability: 'relaxed' });
      let puts: Promise<unknown>[];
      try {
        puts = entries.map((e) => tx.store.put(e.value, [e.collection, e.id]));
      } catch (err) {
        // a value IndexedDB cannot store (DataCloneError) throws here: drop the puts already queued, so none commits
        tx.abort();
        await tx.done.catch(() => undefined);
        throw err;
      }
      await Promise.all([...puts, tx.done]);
    },
  };
}

const RUN_LOCK_PREFIX = 'repairlab-run:';

/** Web Locks, shared by the tabs of an origin: a tab that closes or crashes releases its runs' locks. */
function webRunLocks(locks: LockManager): RunLocks {
  return {
    hold: (runId, work) => locks.request(`${RUN_LOCK_PREFIX}${runId}`, () => work()),
    async held() {
      const { held = [] } = await locks.query();
      return new Set(held.map((l) => l.name ?? '').filter((n) => n.startsWith(RUN_LOCK_PREFIX)).map((n) => n.slice(RUN_LOCK_PREFIX.length)));
    },
  };
}

function defaultAssetBase(): string {
  // The worker script lives under <base>/assets/ in a build and under <base>/worker/ in dev; both one level down.
  const viteBase = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL;
  return new URL(viteBase ?? './', self.location.origin + '/').href;
}

export function createBrowserPlatform(options: BrowserPlatformOptions = {}): Platform {
  const fs = lightningFs(options.fsName ?? 'repairlab-fs');
  const assetBase = options.assetBaseUrl ?? defaultAssetBase();
  let persistRequested = false;
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (storage?.persist) {
    persistRequested = true;
    // Without persistence the origin's IndexedDB is evictable; asking is harmless if refused.
    void storage.persist().catch(() => false);
  }
  return {
    kind: 'browser',
    fs: fs as unknown as IsoFs,
    reposRoot: REPOS_ROOT,
    async loadAsset(path: string) {
      const url = new URL(path.replace(/^\/+/, ''), assetBase);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`Asset ${path} could not be loaded from ${url.href}: HTTP ${response.status}. Is the app built with its public/ files?`);
      return new Uint8Array(await response.arrayBuffer());
    },
    records: createIdbRecordStore(options.recordsDbName ?? 'repairlab-records'),
    ...(globalThis.navigator?.locks ? { runLocks: webRunLocks(globalThis.navigator.locks) } : {}),
    async storageEstimate() {
      if (!storage?.estimate) return undefined;
      if (!persistRequested && storage.persist) {
        persistRequested = true;
        // Without persistence the origin's IndexedDB is evictable; asking is harmless if refused.
        await storage.persist().catch(() => false);
      }
      const { usage, quota } = await storage.estimate();
      return usage === undefined || quota === undefined ? undefined : { usage, quota };
    },
  };
}
