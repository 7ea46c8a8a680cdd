// The keyless demo's model endpoints: one local OpenAI-compatible server per recorded demo run
// (public/cassettes/*.cassette.json), each described for the app (what it replays, and who wrote its replies).
// `npm start` serves them; the e2e tests start the same ones.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startCassetteServer, type CassetteServer } from '../worker/llm/cassette-server.node.ts';
import { parseCassette } from '../worker/contracts/cassette.ts';
import { demoEndpointName, type DemoRecording, type ModelEndpointChoice } from '../src/state/settings.ts';

export interface DemoEndpoints {
  endpoints: ModelEndpointChoice[];
  servers: CassetteServer[];
  close(): Promise<void>;
}

export async function startDemoEndpoints(opts: { cassetteDir?: string; allowedOrigins: string[] }): Promise<DemoEndpoints> {
  const cassetteDir = opts.cassetteDir ?? 'public/cassettes';
  // what each recording replays: its bug, preset and overrides (index.json)
  const recordings = new Map<string, Omit<DemoRecording, 'file' | 'source'>>();
  try {
    const index = JSON.parse(await readFile(join(cassetteDir, 'index.json'), 'utf8')) as { cassettes: ({ file: string } & DemoRecording)[] };
    for (const c of index.cassettes) recordings.set(c.file, { bugId: c.bugId, preset: c.preset, overrides: c.overrides ?? {} });
  } catch {
    // without the index the recordings are still served; the user picks preset and overrides by hand
  }
  const endpoints: ModelEndpointChoice[] = [];
  const servers: CassetteServer[] = [];
  for (const f of (await readdir(cassetteDir).catch(() => [])).filter((f) => f.endsWith('.cassette.json')).sort()) {
    const cassette = parseCassette(JSON.parse(await readFile(join(cassetteDir, f), 'utf8')), f);
    // answers by the conversation: every browser and every run replays it from the start
    const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: opts.allowedOrigins });
    servers.push(server);
    const file = f.replace(/\.cassette\.json$/, '');
    const known = recordings.get(f);
    const demo: DemoRecording | undefined = known ? { ...known, file, source: cassette.provenance.source } : undefined;
    endpoints.push({ name: demoEndpointName(file, cassette.provenance.source), baseURL: server.baseURL, model: cassette.model, ...(demo ? { demo } : {}) });
  }
  return { endpoints, servers, close: async () => void (await Promise.allSettled(servers.map((s) => s.close()))) };
}
