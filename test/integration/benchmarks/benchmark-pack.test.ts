// A benchmark pack end to end in Node: fixture Defects4J bugs imported with a shipped exclusion, packed by the real
// CLI (`repairlab defects4j pack`), opened by the engine the page uses (importFiles of the .rlpack): the bugs are in
// the catalogue with their repositories, the exclusion with its measurement in the spec. The CLI's refusals name
// the input. (The browser path: test/e2e/benchmark-pack.spec.ts.)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { importDefects4j } from '../../../worker/node/defects4j/defects4j-import.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-pack-'));
let fixture: Defects4jFixture;
const out = join(root, 'out');

beforeAll(() => {
  fixture = createDefects4jFixture(root);
  const exclusions = join(root, 'exclusions');
  mkdirSync(exclusions);
  writeFileSync(join(exclusions, 'Calc.json'), JSON.stringify({
    schemaVersion: 1, project: 'Calc',
    measurements: { m: { jdk: '17.0.15', date: '2026-11-28', command: 'repairlab defects4j check --project Calc --record-env-failures' } },
    bugs: { 'Calc-1': [{ test: 'org.fixture.CalcTest::testAdd', reason: 'shown', measurement: 'm' }] },
  }));
  importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', bugs: '1-2', outDir: out, exclusionsDir: exclusions });
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('benchmark packs', () => {
  it('the CLI packs chosen bugs; the engine opens the pack into its catalogue and repository store', async () => {
    const pack = join(root, 'calc.rlpack');
    const r = await cli(['defects4j', 'pack', '--from', out, '--bugs', 'Calc-1', '--out', pack], join(root, 'home'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`wrote ${pack}: 1 bug(s) (Calc-1)`);
    const engine = new Engine(createNodePlatform({ root: join(root, 'engine-home') }));
    const results = await engine.importFiles([{ name: 'calc.rlpack', bytes: new Uint8Array(readFileSync(pack)) }]);
    expect(results.map((x) => [x.name, x.ok])).toEqual([['calc.rlpack: d4j-Calc-1.bundle', true], ['calc.rlpack: Calc-1.json', true]]);
    expect(await engine.repos.has('d4j-Calc-1')).toBe(true);
    const bug = (await engine.catalog.bugs()).find((b) => b.id === 'Calc-1')!;
    expect(bug.layout.environmentExcludedTests).toEqual([{ test: 'org.fixture.CalcTest::testAdd', reason: 'shown', measured: { jdk: '17.0.15', date: '2026-11-28', command: 'repairlab defects4j check --project Calc --record-env-failures' } }]);
    expect((await engine.catalog.bugs()).some((b) => b.id === 'Calc-2')).toBe(false);
  }, 120_000);

  it('refuses a folder without index.json, an unknown bug and a name without .rlpack', async () => {
    const home = join(root, 'home');
    expect((await cli(['defects4j', 'pack', '--from', root, '--out', join(root, 'x.rlpack')], home)).stderr).toContain(`--from ${root} has no index.json`);
    expect((await cli(['defects4j', 'pack', '--from', out, '--bugs', 'Calc-9', '--out', join(root, 'x.rlpack')], home)).stderr).toContain('--bugs: Calc-9 not in');
    expect((await cli(['defects4j', 'pack', '--from', out, '--out', join(root, 'x.zip')], home)).stderr).toContain("a benchmark pack's name ends in .rlpack");
  }, 120_000);
});
