// startRunner: the runner service in-process (tests, the start script) — see main.ts for the command line.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RUNNER_API_VERSION, type Health, type Isolation } from '../../worker/contracts/runner-api.ts';
import type { JitMode, RunnerContext } from './context.ts';
import { DEFAULT_GIT_HOSTS } from './cors-proxy.ts';
import { keptToken, markRunner, otherRunnersAlive, prepareDataDir, sweepLeftovers } from './data-dir.ts';
import { buildHarness, jdkVersion, missingJars, JAVA_DIR } from './java-env.ts';
import { openSandbox, type SandboxBackend } from './sandbox.ts';
import { createHandler } from './server.ts';
import { SnapshotStore } from './store.ts';
import { ValidationService } from './validation.ts';
import { RUNNER_VERSION } from './version.ts';

export { RUNNER_VERSION } from './version.ts';

export interface RunnerOptions {
  /** 0 = an ephemeral port (default 8765) */
  port?: number;
  /** bind address; default 127.0.0.1 */
  host?: string;
  /**
   * bearer token; when absent or empty, the one kept in the data directory (runner-token, 0600), made on the first start, so
   * a restart on the same data directory keeps it. A given token is used as is and never written to disk.
   */
  token?: string;
  /** browser origins allowed by CORS (e.g. http://127.0.0.1:5173) */
  allowedOrigins?: string[];
  sandbox?: SandboxBackend;
  /** required for sandbox 'none' */
  allowUnsandboxed?: boolean;
  /** concurrent JVMs (warm workers + cold runs); default: number of cores */
  workers?: number;
  /** snapshots, blobs, work dirs; default <tmp>/repairlab-runner */
  dataDir?: string;
  /** hosts the git CORS proxy forwards to */
  gitHosts?: string[];
  /** JVM heap cap per sandboxed JVM (MB); default 512 */
  heapMb?: number;
  /** warm workers are replaced after this many validations; default 200 */
  recycleAfter?: number;
  /**
   * the test JVMs' JIT: 'c1' (default) suits an agent's many short validations of fresh classes; 'tiered' (C1 + C2)
   * runs long whole suites faster (Math's, 4,164 tests: 35 s against 57 s), as `defects4j check` runs them
   */
  jit?: JitMode;
  log?: (line: string) => void;
}

export interface RunningRunner {
  url: string;
  token: string;
  /** the file that keeps the token between starts (absent: the token was given) */
  tokenFile?: string;
  isolation: Isolation;
  close(): Promise<void>;
}

export async function startRunner(opts: RunnerOptions = {}): Promise<RunningRunner> {
  const log = opts.log ?? ((line: string) => console.error(`[runner] ${line}`));
  const dataDir = path.resolve(opts.dataDir ?? path.join(os.tmpdir(), 'repairlab-runner'));
  const jdk = jdkVersion();
  const missing = missingJars();
  if (missing.length) {
    throw new Error(`Java libraries missing under ${JAVA_DIR}: ${missing.join(', ')}. Debian: apt-get install junit4 junit5 libhamcrest-java libjacoco-java`);
  }
  // as root, bwrap runs the code as nobody, who must be able to reach the trees and work directories
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  await prepareDataDir(dataDir, isRoot && (opts.sandbox ?? 'bwrap') === 'bwrap');
  // before anything slow: a token file this user cannot trust stops the start at once
  // an empty token is no token (one of '' would refuse everyone): the kept one is used
  const given = opts.token || undefined;
  const kept = given === undefined ? await keptToken(dataDir) : undefined;
  if (kept?.replaced) log(`${kept.replaced}: replaced by a new token (clients need the new one)`);
  const store = new SnapshotStore(dataDir);
  await store.init();
  // marked before looking for others, so that two runners starting together never sweep each other's files
  const marker = await markRunner(dataDir);
  const othersAlive = await otherRunnersAlive(dataDir, marker.name);
  const swept = await sweepLeftovers(dataDir, othersAlive);
  if (swept.length) log(`removed ${swept.length} leftovers of earlier runs from ${dataDir} (temporary files, dead workers' directories)`);
  if (othersAlive) log(`another runner is using ${dataDir}: leftovers of earlier runs are not swept`);
  const heapMb = opts.heapMb ?? 512;
  const sandbox = await openSandbox({ sandbox: opts.sandbox, allowUnsandboxed: opts.allowUnsandboxed, dataDir, memoryMb: heapMb + 512 });
  if (sandbox.backend === 'none') {
    log('WARNING: running WITHOUT a sandbox (--sandbox none --allow-unsandboxed): code written by a model runs with your user\'s full access to this machine and network.');
  }
  const harnessDir = await buildHarness(dataDir);
  const workers = Math.max(1, opts.workers ?? os.availableParallelism());
  const ctx: RunnerContext = {
    sandbox,
    store,
    harnessDir,
    dataDir,
    jvm: { heapMb, metaspaceMb: 256, stackKb: 2048 },
    process: { nproc: 1024, cpuSeconds: 600, fileSizeBytes: 256 * 1024 * 1024 },
    recycleAfter: opts.recycleAfter ?? 200,
    jit: opts.jit ?? 'c1',
  };
  const validation = new ValidationService(ctx, workers);
  const token = given ?? kept!.token;
  const health = (): Health => ({
    ok: true,
    api: RUNNER_API_VERSION,
    version: RUNNER_VERSION,
    isolation: sandbox.isolation,
    jdk,
    junit: ['junit3', 'junit4', 'junit5'],
    workers,
  });
  const server = createServer(
    createHandler({
      token,
      allowedOrigins: opts.allowedOrigins ?? [],
      gitHosts: opts.gitHosts ?? DEFAULT_GIT_HOSTS,
      store,
      validation,
      health,
      log,
      dataDir,
    }),
  );
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8765, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    token,
    ...(kept ? { tokenFile: kept.file } : {}),
    isolation: sandbox.isolation,
    async close() {
      validation.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
      await marker.unmark();
    },
  };
}

/** One line describing the isolation obtained, for start-up banners. */
export function describeIsolation(i: Isolation): string {
  if (i.backend === 'none') return 'NONE — no sandbox: tests run with full access to this machine';
  const parts = [
    i.network ? 'no network' : 'NETWORK REACHABLE',
    i.readOnlySystem ? 'read-only system' : 'WRITABLE system',
    i.privateTmp ? 'private /tmp' : 'shared /tmp',
    i.processLimits ? 'process/CPU/file-size limits' : 'NO process limits',
  ];
  return `${i.backend} (${parts.join(', ')})${i.notes.length ? ` — ${i.notes.join('; ')}` : ''}`;
}
