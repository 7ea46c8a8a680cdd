// The keyless demo's endpoints as `npm start` serves them (scripts/demo-endpoints.ts): one cassette server per
// recording, in the order public/cassettes/index.json lists them (its first is a fresh profile's model), each described
// from its cassette's own provenance — what it replays and who wrote its replies — and an index that says otherwise
// than a cassette refused by name.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemoEndpoints } from '../../../scripts/demo-endpoints.ts';

const CASSETTES = new URL('../../../public/cassettes/', import.meta.url).pathname;
const index = JSON.parse(readFileSync(join(CASSETTES, 'index.json'), 'utf8')) as { cassettes: { file: string; bugId: string; preset: string; overrides: Record<string, unknown> }[] };
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the demo endpoints', () => {
  it('are served in the index\'s order, each named and described from its cassette\'s provenance', async () => {
    const demos = await startDemoEndpoints({ allowedOrigins: ['http://127.0.0.1:1'] });
    try {
      expect(demos.endpoints.map((e) => e.demo?.file)).toEqual(index.cassettes.map((c) => c.file.replace(/\.cassette\.json$/, '')));
      for (const [i, e] of demos.endpoints.entries()) {
        const cassette = JSON.parse(readFileSync(join(CASSETTES, index.cassettes[i]!.file), 'utf8')) as { provenance: { source: string; bugId: string; preset: string; overrides: Record<string, unknown> } };
        expect(e.demo).toEqual({ bugId: cassette.provenance.bugId, preset: cassette.provenance.preset, overrides: cassette.provenance.overrides, file: e.demo!.file, source: cassette.provenance.source });
        expect(e.name).toBe(`Demo recording ${e.demo!.file} (no key; replies written by hand, not by a model)`);
        expect(e.baseURL).toBe(demos.servers[i]!.baseURL);
      }
    } finally {
      await demos.close();
    }
  });

  it('refuse an index that says a cassette replays another run than it was recorded with, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairlab-demo-endpoints-'));
    dirs.push(dir);
    const file = 'textkit-1.passerine.fix.cassette.json';
    copyFileSync(join(CASSETTES, file), join(dir, file));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ schemaVersion: 1, cassettes: [{ file, bugId: 'textkit-1', preset: 'passerine', overrides: {} }] }));
    await expect(startDemoEndpoints({ cassetteDir: dir, allowedOrigins: [] })).rejects.toThrow(
      `${join(dir, file)}: index.json says it replays passerine on textkit-1 with overrides {}, but the cassette was recorded with passerine on textkit-1 with overrides {"sampling":{"trajectories":1}}.`,
    );
  });
});
