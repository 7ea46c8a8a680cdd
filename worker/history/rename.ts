// Rename detection as `git blame` uses it when a file's path does not exist in a parent: git's
// diffcore-rename over the files deleted between parent and commit, with the default minimum
// similarity of 50% — exact (same blob) renames first, then a unique same-basename source at ≥ 75%,
// then the most similar source. Similarity is git's diffcore-delta measure: both files are cut into
// chunks (lines, at most 64 bytes), chunks hashed, and the bytes of matching chunks counted.
import type { RepoSession, TreeEntry } from '../repo/session.ts';

export const MAX_SCORE = 60000;
export const DEFAULT_RENAME_SCORE = 30000;
/** git's find_basename_matches threshold: minimum + half of what is left (75%). */
const BASENAME_SCORE = DEFAULT_RENAME_SCORE + Math.floor(0.5 * (MAX_SCORE - DEFAULT_RENAME_SCORE));
const HASHBASE = 107927;

export interface DeletedFile {
  path: string;
  oid: string;
  mode: string;
}

const isRegular = (mode: string) => mode === '100644' || mode === '100755' || mode === '100664';
const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** git's "binary" guess: a NUL byte in the first 8000 bytes. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** diffcore-delta's hash_chars: chunk hash → bytes in chunks with that hash. */
export function spanHash(bytes: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>();
  const isText = !looksBinary(bytes);
  let n = 0;
  let accum1 = 0;
  let accum2 = 0;
  const add = () => {
    const hashval = ((accum1 + Math.imul(accum2, 0x61)) >>> 0) % HASHBASE;
    counts.set(hashval, (counts.get(hashval) ?? 0) + n);
    n = 0;
    accum1 = accum2 = 0;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    // A CR of a CRLF pair is ignored in text files.
    if (isText && c === 13 && i + 1 < bytes.length && bytes[i + 1] === 10) continue;
    const old1 = accum1;
    accum1 = ((accum1 << 7) ^ (accum2 >>> 25)) >>> 0;
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0;
    accum1 = (accum1 + c) >>> 0;
    if (++n < 64 && c !== 10) continue;
    add();
  }
  if (n > 0) add();
  return counts;
}

/** estimate_similarity: 0..MAX_SCORE, 0 when sizes differ too much for `minimumScore`. */
export function similarity(
  src: { bytes: Uint8Array; hash: () => Map<number, number> },
  dst: { bytes: Uint8Array; hash: () => Map<number, number> },
  minimumScore: number,
): number {
  const srcSize = src.bytes.length;
  const dstSize = dst.bytes.length;
  const maxSize = Math.max(srcSize, dstSize);
  const deltaSize = maxSize - Math.min(srcSize, dstSize);
  // git's estimate_similarity compares the size change with the *larger* file (its comment says the
  // smaller one; the code, which decides, does not), so a file may lose up to half its size and still pair.
  if (maxSize * (MAX_SCORE - minimumScore) < deltaSize * MAX_SCORE) return 0;
  if (!dstSize) return 0;
  const s = src.hash();
  const d = dst.hash();
  let copied = 0;
  for (const [hash, count] of s) copied += Math.min(count, d.get(hash) ?? 0);
  return Math.floor((copied * MAX_SCORE) / maxSize);
}

/** Files present (as blobs) in `parentTree` and gone from `commitTree`, in git's tree order. */
export async function deletedFiles(session: RepoSession, parentTree: string, commitTree: string): Promise<DeletedFile[]> {
  const out: DeletedFile[] = [];
  const allFiles = async (tree: string, dir: string) => {
    for (const f of await session.readTreeEntries(tree)) {
      const path = dir + f.name;
      if (f.type === 'tree') await allFiles(f.oid, `${path}/`);
      else if (f.type === 'blob') out.push({ path, oid: f.oid, mode: f.mode });
    }
  };
  const walk = async (a: string, b: string, dir: string) => {
    if (a === b) return;
    const after = new Map<string, TreeEntry>((await session.readTreeEntries(b)).map((e) => [e.name, e]));
    for (const e of await session.readTreeEntries(a)) {
      const other = after.get(e.name);
      const path = dir + e.name;
      if (e.type === 'tree') {
        if (other?.type === 'tree') await walk(e.oid, other.oid, `${path}/`);
        else await allFiles(e.oid, `${path}/`);
      } else if (e.type === 'blob' && (!other || other.type === 'tree')) {
        out.push({ path, oid: e.oid, mode: e.mode });
      }
    }
  };
  await walk(parentTree, commitTree, '');
  return out;
}

export interface RenameTarget {
  path: string;
  oid: string;
  mode: string;
}

/**
 * The file in the parent that git's rename detection pairs with `target` (added in the commit), or
 * undefined. `readBlob` supplies contents (callers cache them).
 */
export async function findRenameSource(
  candidates: DeletedFile[],
  target: RenameTarget,
  readBlob: (oid: string) => Promise<Uint8Array>,
): Promise<DeletedFile | undefined> {
  if (candidates.length === 0) return undefined;
  // 1. Exact renames: same blob; prefer the same basename.
  const exact = candidates.filter((c) => c.oid === target.oid);
  if (exact.length) return exact.find((c) => basename(c.path) === basename(target.path)) ?? exact[0];
  if (!isRegular(target.mode)) return undefined;

  const dstBytes = await readBlob(target.oid);
  let dstHash: Map<number, number> | undefined;
  const dst = { bytes: dstBytes, hash: () => (dstHash ??= spanHash(dstBytes)) };
  const scoreOf = async (c: DeletedFile, minimum: number) => {
    if (!isRegular(c.mode)) return 0;
    const bytes = await readBlob(c.oid);
    let h: Map<number, number> | undefined;
    return similarity({ bytes, hash: () => (h ??= spanHash(bytes)) }, dst, minimum);
  };

  // 2. A source whose basename is unique among the deleted files and equals the target's.
  const base = basename(target.path);
  const sameBase = candidates.filter((c) => basename(c.path) === base);
  if (sameBase.length === 1 && (await scoreOf(sameBase[0]!, BASENAME_SCORE)) >= BASENAME_SCORE) return sameBase[0];

  // 3. The most similar source (≥ 50%); ties go to the same basename, then to the earliest path.
  let best: DeletedFile | undefined;
  let bestScore = -1;
  let bestName = -1;
  for (const c of candidates) {
    const score = await scoreOf(c, DEFAULT_RENAME_SCORE);
    if (score < DEFAULT_RENAME_SCORE) continue;
    const nameScore = basename(c.path) === base ? 1 : 0;
    if (score > bestScore || (score === bestScore && nameScore > bestName)) {
      best = c;
      bestScore = score;
      bestName = nameScore;
    }
  }
  return best;
}
