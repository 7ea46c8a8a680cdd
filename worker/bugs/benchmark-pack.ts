// A benchmark pack: imported bugs as one file (`<name>.rlpack`, docs/formats/benchmark-pack.md) — a zip holding an
// index.json (the bundled benchmark's BenchmarkIndex: each repository's bundle with its SHA-256), the bundles and the
// BugSpecs. The CLI writes one from an import's output folder (`repairlab defects4j pack`); the page opens it like
// any repository or BugSpec file, so its bugs land in IndexedDB next to the bundled ones. Runs in the browser and Node.
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { BenchmarkIndex } from '../contracts/bug.ts';

export const PACK_EXTENSION = '.rlpack';

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The pack of `index`'s bugs: `files` holds each path the index names (bundles, bugs/*.json). Bundles are stored, not deflated (they are compressed already). */
export function writeBenchmarkPack(index: BenchmarkIndex, files: Map<string, Uint8Array>): Uint8Array {
  const entries: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = { 'index.json': strToU8(JSON.stringify(BenchmarkIndex.parse(index), null, 2) + '\n') };
  for (const r of index.repositories) {
    const bytes = files.get(r.bundle);
    if (!bytes) throw new Error(`the pack needs ${r.bundle}, which is not there`);
    entries[r.bundle] = [bytes, { level: 0 }];
  }
  for (const path of index.bugs) {
    const bytes = files.get(path);
    if (!bytes) throw new Error(`the pack needs ${path}, which is not there`);
    entries[path] = bytes;
  }
  return zipSync(entries);
}

/**
 * The files of a pack, bundles first (a BugSpec is added once its repository is), each checked: a file that is not a
 * zip, an index.json missing or not a benchmark index, a bundle or BugSpec the index names but the pack lacks, or a
 * bundle whose SHA-256 is not the index's, is refused naming the pack and what is wrong.
 */
export async function readBenchmarkPack(name: string, bytes: Uint8Array): Promise<{ name: string; bytes: Uint8Array }[]> {
  const what = `${name} (a RepairLab benchmark pack)`;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (e) {
    throw new Error(`${what} is not a zip file (${(e as Error).message}): write it again with \`repairlab defects4j pack\`.`);
  }
  if (!files['index.json']) throw new Error(`${what} has no index.json: write it again with \`repairlab defects4j pack\`.`);
  let index: BenchmarkIndex;
  try {
    index = BenchmarkIndex.parse(JSON.parse(strFromU8(files['index.json'])));
  } catch (e) {
    throw new Error(`${what}: index.json is not a benchmark index (${(e as Error).message.slice(0, 300)}).`);
  }
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const r of index.repositories) {
    const bundle = files[r.bundle];
    if (!bundle) throw new Error(`${what} lacks ${r.bundle}, which its index.json names: the pack is incomplete; write it again.`);
    const sum = await sha256(bundle);
    if (sum !== r.sha256) throw new Error(`${what}: ${r.bundle} is damaged (SHA-256 ${sum.slice(0, 12)}…, the index says ${r.sha256.slice(0, 12)}…); download or write the pack again.`);
    out.push({ name: r.bundle, bytes: bundle });
  }
  for (const path of index.bugs) {
    const spec = files[path];
    if (!spec) throw new Error(`${what} lacks ${path}, which its index.json names: the pack is incomplete; write it again.`);
    out.push({ name: path.slice(path.lastIndexOf('/') + 1), bytes: spec });
  }
  return out;
}
