// The text files of a workspace for search tools. Base-tree contents are immutable, so they are cached per
// tree id (shared by forks and later calls); overlay edits are always read fresh.
import type { Workspace } from '../contracts/workspace.ts';

export interface SourceFile {
  path: string;
  content: string;
}

const BINARY_EXTENSIONS = /\.(jar|class|zip|gz|tgz|bz2|xz|7z|png|gif|jpe?g|ico|bmp|pdf|ser|bin|so|dll|dylib|exe|woff2?|ttf|otf|eot)$/i;
const MAX_CACHED_TREES = 4;
const baseCache = new Map<string, Map<string, string | null>>();

/** Every readable text file (optionally only those passing `filter`), overlay applied, sorted by path. */
export async function textFiles(workspace: Workspace, filter: (path: string) => boolean = () => true): Promise<SourceFile[]> {
  const overlay = workspace.overlay();
  let cache = baseCache.get(workspace.treeId);
  if (!cache) {
    cache = new Map();
    baseCache.set(workspace.treeId, cache);
    if (baseCache.size > MAX_CACHED_TREES) baseCache.delete(baseCache.keys().next().value as string);
  }
  const out: SourceFile[] = [];
  for (const path of await workspace.listFiles()) {
    if (BINARY_EXTENSIONS.test(path) || !filter(path)) continue;
    const edited = overlay[path];
    if (typeof edited === 'string') {
      out.push({ path, content: edited });
      continue;
    }
    let content = cache.get(path);
    if (content === undefined) {
      content = await workspace.read(path).catch(() => null); // binary or unreadable: skipped, remembered
      cache.set(path, content);
    }
    if (content !== null) out.push({ path, content });
  }
  return out;
}

export const isJava = (path: string): boolean => path.endsWith('.java');
