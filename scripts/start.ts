// `npm start`: the runner (sandboxed), a local OpenAI-compatible server replaying the demo cassettes
// (the keyless demo), and the built app — all on 127.0.0.1. Prints the URL to open.
import { startRunner } from '../runner/src/index.ts';
import { startAppServer } from './serve-app.ts';
import { startDemoEndpoints } from './demo-endpoints.ts';

const env = process.env;
const appPort = Number(env.REPAIRLAB_APP_PORT ?? 5173);
const runnerPort = Number(env.REPAIRLAB_RUNNER_PORT ?? 8765);
const appOrigin = `http://127.0.0.1:${appPort}`;

// the token: REPAIRLAB_RUNNER_TOKEN, else the one the runner keeps in its data directory (the same after a restart);
// the page gets it from /runtime-config.json, and reads it there again when the runner refuses the one it has
const runner = await startRunner({ port: runnerPort, allowedOrigins: [appOrigin], token: env.REPAIRLAB_RUNNER_TOKEN });

// One local OpenAI-compatible endpoint per recorded demo run (public/cassettes/*.cassette.json); each answers
// by the conversation, so every browser can replay every demo as often as it likes.
const demos = await startDemoEndpoints({ allowedOrigins: [appOrigin] });

const app = await startAppServer({
  dir: 'dist',
  port: appPort,
  runtimeConfig: {
    runner: { url: runner.url, token: runner.token },
    modelEndpoints: demos.endpoints,
  },
});

console.log(`runner:      ${runner.url}  isolation: ${JSON.stringify(runner.isolation)}  token: ${runner.tokenFile ? `kept in ${runner.tokenFile} (the page is given it)` : 'REPAIRLAB_RUNNER_TOKEN'}`);
for (const m of demos.endpoints) console.log(`demo model:  ${m.baseURL}  ${m.name}`);
console.log(`\nRepairLab is running: open ${app.url}\n(Ctrl-C stops everything)`);

const stop = async () => {
  await Promise.allSettled([app.close(), runner.close(), demos.close()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
