// What differs between the browser worker and Node: the filesystem under isomorphic-git,
// where static assets come from, and where run records persist. Everything else in worker/
// is the same code on both. Implementations: worker/platform/browser.ts, worker/platform/node.ts.

/** The promise-based fs subset isomorphic-git needs (node:fs or lightning-fs). */
export interface IsoFs {
  promises: {
    readFile(path: string, opts?: unknown): Promise<Uint8Array | string>;
    writeFile(path: string, data: Uint8Array | string, opts?: unknown): Promise<void>;
    unlink(path: string): Promise<void>;
    readdir(path: string): Promise<string[]>;
    mkdir(path: string, opts?: unknown): Promise<void>;
    rmdir(path: string, opts?: unknown): Promise<void>;
    stat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean; size: number }>;
    lstat(path: string): Promise<unknown>;
    readlink?(path: string): Promise<string>;
    symlink?(target: string, path: string): Promise<void>;
    /** Both node:fs and lightning-fs have it; the repo store swaps a finished import into place with it. */
    rename?(oldPath: string, newPath: string): Promise<void>;
    /** lightning-fs only: write its (debounced) directory metadata to IndexedDB now, so a finished import survives a reload. */
    flush?(): Promise<void>;
  };
}

/** Key-value records (trajectories, settings, experiment results). IndexedDB via idb in the browser, JSON files in Node. */
export interface RecordStore {
  put(collection: string, id: string, value: unknown): Promise<void>;
  get<T = unknown>(collection: string, id: string): Promise<T | undefined>;
  list(collection: string): Promise<string[]>;
  delete(collection: string, id: string): Promise<void>;
  /** Several records written together — all or none (IndexedDB: one transaction, one commit); optional. */
  putAll?(entries: readonly { collection: string; id: string; value: unknown }[]): Promise<void>;
}

export interface Platform {
  kind: 'browser' | 'node';
  fs: IsoFs;
  /** Directory (inside `fs`) that holds one git dir per repository id. */
  reposRoot: string;
  /** Bytes of a file shipped under public/ (e.g. 'benchmarks/index.json', 'wasm/tree-sitter-java.wasm'). */
  loadAsset(path: string): Promise<Uint8Array>;
  records: RecordStore;
  /** Free/used bytes where the platform can tell (navigator.storage.estimate in the browser). */
  storageEstimate(): Promise<{ usage: number; quota: number } | undefined>;
  /** Locks that tell every engine sharing the records (browser tabs) which runs are going on; optional. */
  runLocks?: RunLocks;
  /**
   * Writes the index of `<gitdir>/<packPath>` beside it and returns the pack's object ids, where the platform has a
   * faster indexer than isomorphic-git's (Node: `git index-pack`); optional — the store uses isomorphic-git without it.
   */
  indexPack?(gitdir: string, packPath: string): Promise<string[]>;
}

/** A run going on holds its lock; the records show it as interrupted only when no engine holds it. */
export interface RunLocks {
  /** runs `work` holding the run's lock (released when it settles, or when the tab closes) */
  hold<T>(runId: string, work: () => Promise<T>): Promise<T>;
  /** the run ids whose locks are held now, in any tab */
  held(): Promise<Set<string>>;
}
