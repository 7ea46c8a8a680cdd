// Benchmark packs (.rlpack): written from an index and its files, read back bundles first, and refused — naming the
// pack and what is wrong — when not a zip, without index.json, lacking a file, or with a damaged bundle.
import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readBenchmarkPack, writeBenchmarkPack } from '../../../worker/bugs/benchmark-pack.ts';
import type { BenchmarkIndex } from '../../../worker/contracts/bug.ts';

const bundle = strToU8('# v2 git bundle\nnot really, but bytes\n');
const spec = strToU8('{"id":"Calc-1"}\n');
const index: BenchmarkIndex = {
  schemaVersion: 1,
  repositories: [{ repoId: 'd4j-Calc-1', library: 'Calc', bundle: 'd4j-Calc-1.bundle', sha256: createHash('sha256').update(bundle).digest('hex'), bytes: bundle.length, commits: 3 }],
  bugs: ['bugs/Calc-1.json'],
};
const files = new Map([['d4j-Calc-1.bundle', bundle], ['bugs/Calc-1.json', spec]]);

describe('benchmark packs', () => {
  it('round-trips: the bundles first, then the BugSpecs by file name', async () => {
    const pack = writeBenchmarkPack(index, files);
    expect(await readBenchmarkPack('calc.rlpack', pack)).toEqual([
      { name: 'd4j-Calc-1.bundle', bytes: bundle },
      { name: 'Calc-1.json', bytes: spec },
    ]);
  });

  it('refuses a damaged bundle, a missing file, a pack without index.json and a file that is not a zip', async () => {
    const damaged = zipSync({ 'index.json': strToU8(JSON.stringify(index)), 'd4j-Calc-1.bundle': strToU8('other bytes'), 'bugs/Calc-1.json': spec });
    await expect(readBenchmarkPack('calc.rlpack', damaged)).rejects.toThrow(/^calc\.rlpack \(a RepairLab benchmark pack\): d4j-Calc-1\.bundle is damaged \(SHA-256 [0-9a-f]{12}…, the index says [0-9a-f]{12}…\); download or write the pack again\.$/);
    const lacking = zipSync({ 'index.json': strToU8(JSON.stringify(index)), 'd4j-Calc-1.bundle': bundle });
    await expect(readBenchmarkPack('calc.rlpack', lacking)).rejects.toThrow('calc.rlpack (a RepairLab benchmark pack) lacks bugs/Calc-1.json, which its index.json names');
    await expect(readBenchmarkPack('calc.rlpack', zipSync({ 'x.txt': spec }))).rejects.toThrow('has no index.json');
    await expect(readBenchmarkPack('calc.rlpack', strToU8('hello'))).rejects.toThrow('calc.rlpack (a RepairLab benchmark pack) is not a zip file');
    expect(() => writeBenchmarkPack(index, new Map([['d4j-Calc-1.bundle', bundle]]))).toThrow('the pack needs bugs/Calc-1.json');
  });
});
