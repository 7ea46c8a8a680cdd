// Command line: node --import tsx runner/src/main.ts [--port 8765] [--host 127.0.0.1] [--token T] [--token-file F]
//   [--allow-origin URL]... [--sandbox bwrap|docker|none] [--allow-unsandboxed] [--workers N] [--data-dir DIR]
//   [--git-host HOST]... [--heap-mb MB] [--recycle-after N] [--jit c1|tiered]
// Environment fallbacks: REPAIRLAB_RUNNER_PORT, _HOST, _TOKEN, _TOKEN_FILE, _ORIGINS (comma-separated), _SANDBOX, _WORKERS, _DATA_DIR.
// Without --token / REPAIRLAB_RUNNER_TOKEN the token is the one kept in the data directory (data-dir.ts keptToken).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeIsolation, startRunner } from './index.ts';
import type { SandboxBackend } from './sandbox.ts';

const env = (name: string) => process.env[`REPAIRLAB_RUNNER_${name}`];

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    sandbox: { type: 'string' },
    'allow-unsandboxed': { type: 'boolean' },
    workers: { type: 'string' },
    'data-dir': { type: 'string' },
    'git-host': { type: 'string', multiple: true },
    'heap-mb': { type: 'string' },
    'recycle-after': { type: 'string' },
    jit: { type: 'string' },
    help: { type: 'boolean' },
  },
});

if (values.help) {
  console.log('Usage: node --import tsx runner/src/main.ts [--port 8765] [--host 127.0.0.1] [--token T] [--token-file F] [--allow-origin URL]... [--sandbox bwrap|docker|none] [--allow-unsandboxed] [--workers N] [--data-dir DIR] [--git-host HOST]... [--heap-mb MB] [--recycle-after N] [--jit c1|tiered]\nSee docs/runner-api.md.');
  process.exit(0);
}

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got "${v}"`);
    process.exit(2);
  }
  return n;
}

const sandbox = (values.sandbox ?? env('SANDBOX') ?? 'bwrap') as SandboxBackend;
if (!['bwrap', 'docker', 'none'].includes(sandbox)) {
  console.error(`--sandbox must be bwrap, docker or none, got "${sandbox}"`);
  process.exit(2);
}
const jit = values.jit ?? env('JIT') ?? 'c1';
if (jit !== 'c1' && jit !== 'tiered') {
  console.error(`--jit must be c1 or tiered, got "${jit}"`);
  process.exit(2);
}
// a pool's runners share a secret file (`repairlab pool up`): the token is read from it and never printed
const tokenFile = values['token-file'] ?? env('TOKEN_FILE');
let fileToken: string | undefined;
if (tokenFile) {
  try {
    fileToken = readFileSync(tokenFile, 'utf8').trim();
  } catch (e) {
    console.error(`--token-file ${tokenFile}: cannot read it (${(e as Error).message}); give a file holding the token (repairlab pool up writes one).`);
    process.exit(2);
  }
  if (!fileToken) {
    console.error(`--token-file ${tokenFile} is empty; put the token in it, or drop --token-file.`);
    process.exit(2);
  }
}
const origins = values['allow-origin'] ?? env('ORIGINS')?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];

try {
  const runner = await startRunner({
    port: int('port', values.port ?? env('PORT')) ?? 8765,
    host: values.host ?? env('HOST'),
    token: fileToken ?? (values.token || env('TOKEN')),
    allowedOrigins: origins,
    sandbox,
    allowUnsandboxed: values['allow-unsandboxed'] ?? env('ALLOW_UNSANDBOXED') === '1',
    workers: int('workers', values.workers ?? env('WORKERS')),
    dataDir: values['data-dir'] ?? env('DATA_DIR'),
    gitHosts: values['git-host'],
    heapMb: int('heap-mb', values['heap-mb']),
    recycleAfter: int('recycle-after', values['recycle-after']),
    jit,
  });
  console.log(`RepairLab runner listening on ${runner.url}`);
  console.log(fileToken ? `Token: read from ${tokenFile} (not printed)` : `Token: ${runner.token}`);
  console.log(
    fileToken ? 'Token given by --token-file or REPAIRLAB_RUNNER_TOKEN_FILE (not written elsewhere).' : runner.tokenFile
      ? `Token kept in ${runner.tokenFile} (mode 0600): a restart on this data directory keeps it; --token or REPAIRLAB_RUNNER_TOKEN overrides it.`
      : 'Token given by --token or REPAIRLAB_RUNNER_TOKEN (not written to disk).',
  );
  console.log(`Isolation: ${describeIsolation(runner.isolation)}`);
  console.log(`Allowed origins: ${origins.length ? origins.join(', ') : '(none: browsers cannot call this runner)'}`);
  const stop = () => {
    void runner.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`The runner did not start: ${(e as Error).message}`);
  process.exit(1);
}
