// The agent's view of the code: an immutable git tree (the buggy commit) plus a copy-on-write
// overlay of edits. Nothing is checked out; reads go overlay-first, then to the object store.
// Implemented in worker/repo/git-workspace.ts.

/** path → new content, or null when the file is deleted in the overlay. */
export type Overlay = Record<string, string | null>;

export interface TreeFile {
  path: string;
  /** git blob oid of the base version */
  oid: string;
}

export class WorkspaceError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'is-directory' | 'invalid-path' | 'binary',
    readonly path: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

export interface Workspace {
  readonly commit: string;
  readonly treeId: string;
  /** Throws WorkspaceError('not-found') naming the path. Paths are repo-relative with '/' separators. */
  read(path: string): Promise<string>;
  exists(path: string): Promise<boolean>;
  isDirectory(path: string): Promise<boolean>;
  write(path: string, content: string): Promise<void>;
  delete(path: string): Promise<void>;
  /** Every file path (base + overlay, minus deletions), sorted; optionally under a directory prefix. */
  listFiles(dir?: string): Promise<string[]>;
  /** The base tree's files with blob oids (what the runner snapshots). */
  baseFiles(): Promise<TreeFile[]>;
  readBaseBlob(oid: string): Promise<Uint8Array>;
  /** A copy of the current overlay (safe to keep). */
  overlay(): Overlay;
  /** Replace the overlay wholesale (restore a saved state). */
  setOverlay(overlay: Overlay): void;
  /** Unified diff of the overlay against the base tree (git-style a/ b/ headers). */
  diff(): Promise<string>;
  /** Drop overlay edits (all, or the given paths). */
  revert(paths?: string[]): void;
  /** An independent workspace on the same base with a copy of this overlay. */
  fork(): Workspace;
}
