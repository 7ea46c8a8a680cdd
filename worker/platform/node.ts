// The Node side of Platform: node:fs for isomorphic-git, assets from the checkout's public/ dir,
// records as JSON files. Used by the CLI and by tests; never imported by browser code.
import * as nodeFs from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IsoFs, Platform, RecordStore } from '../contracts/platform.ts';

export interface NodePlatformOptions {
  /** Directory holding repos/ and records/. */
  root: string;
  /** Directory that stands in for the app's public/ (default: this checkout's public/). */
  publicDir?: string;
  /** Where repositories live (default: <root>/repos). */
  reposRoot?: string;
}

const DEFAULT_PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

/** Collection and id names end up in file paths: keep them to one safe path segment. */
function safeSegment(kind: string, value: string): string {
  if (!/^[\w.@+-]+$/.test(value) || value === '.' || value === '..') {
    throw new Error(`Record ${kind} ${JSON.stringify(value)} is not a valid name: use letters, digits and . _ @ + - only.`);
  }
  return value;
}

export function createNodeRecordStore(recordsDir: string): RecordStore {
  const fileOf = (collection: string, id: string) =>
    join(recordsDir, safeSegment('collection', collection), `${safeSegment('id', id)}.json`);
  return {
    async put(collection, id, value) {
      const file = fileOf(collection, id);
      await mkdir(join(recordsDir, collection), { recursive: true });
      // Write beside the target and rename: a crash mid-write never leaves a truncated record.
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, JSON.stringify(value, null, 2));
      await rename(tmp, file);
    },
    async get<T>(collection: string, id: string) {
      try {
        return JSON.parse(await readFile(fileOf(collection, id), 'utf8')) as T;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async list(collection) {
      try {
        const names = await readdir(join(recordsDir, safeSegment('collection', collection)));
        return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).sort();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    },
    async delete(collection, id) {
      await rm(fileOf(collection, id), { force: true });
    },
  };
}

export function createNodePlatform(options: NodePlatformOptions): Platform {
  const root = resolve(options.root);
  const publicDir = resolve(options.publicDir ?? DEFAULT_PUBLIC_DIR);
  const reposRoot = resolve(options.reposRoot ?? join(root, 'repos'));
  nodeFs.mkdirSync(reposRoot, { recursive: true });
  return {
    kind: 'node',
    fs: nodeFs as unknown as IsoFs,
    reposRoot,
    async loadAsset(path: string) {
      const full = resolve(publicDir, path.replace(/^\/+/, ''));
      if (!full.startsWith(publicDir)) throw new Error(`Asset path ${JSON.stringify(path)} leaves public/: use a path under public/.`);
      try {
        return new Uint8Array(await readFile(full));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new Error(`Asset ${JSON.stringify(path)} not found under ${publicDir}: build it first (npm run benchmarks:build) or check the path.`);
        }
        throw err;
      }
    },
    records: createNodeRecordStore(join(root, 'records')),
    async storageEstimate() {
      return undefined;
    },
  };
}
