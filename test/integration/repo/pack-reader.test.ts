// The direct pack reader must return exactly what git stores: every object of the generated history
// (deep delta chains, ofs-deltas) compared byte for byte with `git cat-file --batch`.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { PackIndex, PackReader, findTreeEntry, parseCommit, parseTree } from '../../../worker/repo/pack-reader.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { cachedHistoryRepo } from '../history/history-generator.ts';
import { removeDir, tempDir } from './git-fixture.ts';

describe('PackReader', () => {
  let work: string;
  let repoDir: string;
  let reader: PackReader;
  let packDir: string;

  beforeAll(async () => {
    const generated = cachedHistoryRepo();
    repoDir = generated.dir;
    work = tempDir('pack-reader');
    const platform = createNodePlatform({ root: work });
    await new RepoStore(platform).importBundle('g', new Uint8Array(readFileSync(generated.bundle)));
    reader = (await PackReader.open(platform.fs, `${platform.reposRoot}/g`))!;
    packDir = `${platform.reposRoot}/g/objects/pack`;
  }, 300_000);

  afterAll(() => removeDir(work));

  it('reads every object exactly as git cat-file does', () => {
    const oids = execFileSync('git', ['-C', repoDir, 'rev-list', '--objects', '--all'], { encoding: 'utf8', maxBuffer: 1 << 26 })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(0, 40));
    const batch = execFileSync('git', ['-C', repoDir, 'cat-file', '--batch'], { input: oids.join('\n') + '\n', maxBuffer: 1 << 28 });
    let pos = 0;
    let compared = 0;
    const mismatches: string[] = [];
    for (const oid of oids) {
      const nl = batch.indexOf(0x0a, pos);
      const [gotOid, type, size] = batch.subarray(pos, nl).toString('latin1').split(' ');
      const content = batch.subarray(nl + 1, nl + 1 + Number(size));
      pos = nl + 1 + Number(size) + 1;
      const ours = reader.read(oid);
      if (gotOid !== oid || !ours || ours.type !== type || Buffer.compare(Buffer.from(ours.data), content) !== 0) mismatches.push(`${oid} ${type}`);
      compared++;
    }
    expect(compared).toBeGreaterThan(1000);
    expect(mismatches).toEqual([]);
  });

  it('parses trees and commits like git', () => {
    const head = execFileSync('git', ['-C', repoDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const commit = parseCommit(reader.read(head)!.data);
    expect(commit.tree).toBe(execFileSync('git', ['-C', repoDir, 'rev-parse', 'HEAD^{tree}'], { encoding: 'utf8' }).trim());
    expect(commit.parents).toEqual(execFileSync('git', ['-C', repoDir, 'log', '-1', '--format=%P'], { encoding: 'utf8' }).trim().split(' '));
    expect(commit.committer.timestamp).toBe(Number(execFileSync('git', ['-C', repoDir, 'log', '-1', '--format=%ct'], { encoding: 'utf8' }).trim()));
    const lsTree = execFileSync('git', ['-C', repoDir, 'ls-tree', commit.tree], { encoding: 'utf8' }).trim().split('\n');
    expect(parseTree(reader.read(commit.tree)!.data).map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.name}`)).toEqual(lsTree);
    expect(reader.read('0'.repeat(40))).toBeUndefined();
  });

  it('finds one tree entry by name as the full parse lists it', () => {
    const utf8 = new TextEncoder();
    const trees = execFileSync('git', ['-C', repoDir, 'rev-list', '--objects', '--all'], { encoding: 'utf8', maxBuffer: 1 << 26 })
      .split('\n')
      .map((l) => l.slice(0, 40))
      .filter((oid) => oid && reader.read(oid)?.type === 'tree');
    let compared = 0;
    for (const oid of trees) {
      const data = reader.read(oid)!.data;
      const listed = parseTree(data);
      for (const entry of listed) {
        expect(findTreeEntry(data, utf8.encode(entry.name))).toEqual(entry);
        compared++;
      }
      if (listed[0]) {
        expect(findTreeEntry(data, utf8.encode(listed[0].name.slice(0, -1)))).toEqual(listed.find((e) => e.name === listed[0]!.name.slice(0, -1)));
        expect(findTreeEntry(data, utf8.encode(`${listed[0].name}~absent`))).toBeUndefined();
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('finds every object of an index where git show-index puts it, searching the index in place', () => {
    const idxFile = `${packDir}/${readdirSync(packDir).find((n) => n.endsWith('.idx'))!}`;
    const idx = new Uint8Array(readFileSync(idxFile));
    const index = new PackIndex(idx);
    const entries = execFileSync('git', ['show-index'], { input: idx, encoding: 'utf8', maxBuffer: 1 << 26 })
      .trim()
      .split('\n')
      .map((l) => l.split(' ') as [string, string]);
    expect(index.size).toBe(entries.length);
    expect(entries.filter(([offset, oid]) => index.offsetOf(oid) !== Number(offset))).toEqual([]);
    // absent, short and non-hex names are not found (no throw)
    expect(index.offsetOf('f'.repeat(40))).toBeUndefined();
    expect(index.offsetOf(entries[0]![1].slice(0, 39))).toBeUndefined();
    expect(index.offsetOf('zz' + entries[0]![1].slice(2))).toBeUndefined();
    expect(() => new PackIndex(idx.subarray(0, 2000))).toThrow(/cut short/);
  });
});
