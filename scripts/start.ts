// `npm start`: the runner (sandboxed), a local OpenAI-compatible server replaying the demo cassettes
// (the keyless demo), and the built app — all on 127.0.0.1. Prints the URL to open.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startRunner } from '../runner/src/index.ts';
import { startCassetteServer, type CassetteServer } from '../worker/llm/cassette-server.ts';
import { parseCassette } from '../worker/contracts/cassette.ts';
import { startAppServer } from './serve-app.ts';
import type { DemoRecording } from '../src/state/settings.ts';

const env = process.env;
const appPort = Number(env.REPAIRLAB_APP_PORT ?? 5173);
const runnerPort = Number(env.REPAIRLAB_RUNNER_PORT ?? 8765);
const appOrigin = `http://127.0.0.1:${appPort}`;

const runner = await startRunner({ port: runnerPort, allowedOrigins: [appOrigin], token: env.REPAIRLAB_RUNNER_TOKEN });

// One local OpenAI-compatible endpoint per recorded demo run (public/cassettes/*.cassette.json).
const cassetteDir = 'public/cassettes';
const demoModels: { name: string; baseURL: string; model: string; demo?: DemoRecording; server: CassetteServer }[] = [];
// what each recording replays: its bug, preset and overrides (public/cassettes/index.json)
const recordings = new Map<string, DemoRecording>();
try {
  const index = JSON.parse(await readFile(join(cassetteDir, 'index.json'), 'utf8')) as { cassettes: ({ file: string } & DemoRecording)[] };
  for (const c of index.cassettes) recordings.set(c.file, { bugId: c.bugId, preset: c.preset, overrides: c.overrides ?? {} });
} catch {
  // without the index the recordings are still served; the user picks preset and overrides by hand
}
for (const f of (await readdir(cassetteDir).catch(() => [])).filter((f) => f.endsWith('.cassette.json')).sort()) {
  const cassette = parseCassette(JSON.parse(await readFile(join(cassetteDir, f), 'utf8')), f);
  const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [appOrigin] });
  const demo = recordings.get(f);
  demoModels.push({ name: `Demo recording: ${f.replace(/\.cassette\.json$/, '')} (no key)`, baseURL: server.baseURL, model: cassette.model, ...(demo ? { demo } : {}), server });
}

const app = await startAppServer({
  dir: 'dist',
  port: appPort,
  runtimeConfig: {
    runner: { url: runner.url, token: runner.token },
    modelEndpoints: demoModels.map(({ name, baseURL, model, demo }) => ({ name, baseURL, model, ...(demo ? { demo } : {}) })),
  },
});

console.log(`runner:      ${runner.url}  isolation: ${JSON.stringify(runner.isolation)}`);
for (const m of demoModels) console.log(`demo model:  ${m.baseURL}  ${m.name}`);
console.log(`\nRepairLab is running: open ${app.url}\n(Ctrl-C stops everything)`);

const stop = async () => {
  await Promise.allSettled([app.close(), runner.close(), ...demoModels.map((m) => m.server.close())]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
