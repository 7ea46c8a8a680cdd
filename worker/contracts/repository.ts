// Stored repositories as the pages see them: an import's progress (throttled by the engine: worker/bugs/engine.ts
// throttleProgress) and a repository of the store with its size.

export interface ImportProgress {
  phase: string;
  loaded: number;
  total?: number;
}

export interface RepoInfo {
  repoId: string;
  bytes: number;
}
