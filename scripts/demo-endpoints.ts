// The keyless demo's model endpoints: one local OpenAI-compatible server per recorded demo run
// (public/cassettes/*.cassette.json), each described for the app from its cassette's provenance (what it replays, and
// who wrote its replies), in the order public/cassettes/index.json lists them.
// `npm start` serves them; the e2e tests start the same ones.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startCassetteServer, type CassetteServer } from '../worker/llm/cassette-server.node.ts';
import { parseCassette, type Cassette } from '../worker/contracts/cassette.ts';
import { demoEndpointName, type DemoRecording, type ModelEndpointChoice } from '../src/state/settings.ts';
import { demoServes } from '../src/state/demo-recordings.ts';

export interface DemoEndpoints {
  endpoints: ModelEndpointChoice[];
  servers: CassetteServer[];
  close(): Promise<void>;
}

export async function startDemoEndpoints(opts: { cassetteDir?: string; allowedOrigins: string[] }): Promise<DemoEndpoints> {
  const cassetteDir = opts.cassetteDir ?? 'public/cassettes';
  // the index lists the recordings in the order offered (its first is a fresh profile's model: src/state/settings.ts)
  // and what each replays, for a cassette whose provenance does not say
  const listed = new Map<string, Omit<DemoRecording, 'file' | 'source'>>();
  try {
    const index = JSON.parse(await readFile(join(cassetteDir, 'index.json'), 'utf8')) as { cassettes: ({ file: string } & DemoRecording)[] };
    for (const c of index.cassettes) listed.set(c.file, { bugId: c.bugId, preset: c.preset, overrides: c.overrides ?? {} });
  } catch {
    // without the index the recordings are still served, in file-name order, described by their own provenance
  }
  const files = (await readdir(cassetteDir).catch(() => [])).filter((f) => f.endsWith('.cassette.json')).sort();
  const order = [...listed.keys()];
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  files.sort((a, b) => rank(a) - rank(b));
  const endpoints: ModelEndpointChoice[] = [];
  const servers: CassetteServer[] = [];
  for (const f of files) {
    const cassette = parseCassette(JSON.parse(await readFile(join(cassetteDir, f), 'utf8')), f);
    // answers by the conversation: every browser and every run replays it from the start
    const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: opts.allowedOrigins });
    servers.push(server);
    const file = f.replace(/\.cassette\.json$/, '');
    const demo = demoRecordingOf(cassette, file, listed.get(f), join(cassetteDir, f));
    endpoints.push({ name: demoEndpointName(file, cassette.provenance.source), baseURL: server.baseURL, model: cassette.model, ...(demo ? { demo } : {}) });
  }
  return { endpoints, servers, close: async () => void (await Promise.allSettled(servers.map((s) => s.close()))) };
}

/**
 * What a recording replays and who wrote its replies, from the cassette's own provenance (the index's entry where the
 * cassette does not say); undefined when neither names its bug and preset (it is served, and picked by hand). An index
 * that says otherwise than the cassette is refused: the run panel would offer the recording for a run it cannot replay.
 */
export function demoRecordingOf(cassette: Cassette, file: string, listed: Omit<DemoRecording, 'file' | 'source'> | undefined, path: string): DemoRecording | undefined {
  const p = cassette.provenance;
  const bugId = p.bugId ?? listed?.bugId;
  const preset = p.preset ?? listed?.preset;
  if (!bugId || !preset) return undefined;
  const overrides = p.overrides ?? (p.bugId ? {} : (listed?.overrides ?? {}));
  if (listed && !demoServes(listed, { bugId, preset, overrides })) {
    throw new Error(
      `${path}: index.json says it replays ${listed.preset} on ${listed.bugId} with overrides ${JSON.stringify(listed.overrides)}, ` +
        `but the cassette was recorded with ${preset} on ${bugId} with overrides ${JSON.stringify(overrides)}. ` +
        'Re-record the demo cassettes (node --import tsx worker/cli/record-demo-cassettes.ts), or correct index.json.',
    );
  }
  return { bugId, preset, overrides, file, source: p.source };
}
