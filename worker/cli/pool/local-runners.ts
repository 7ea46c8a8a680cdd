// `pool up --local N`: N runner processes on this machine, each in its own process group (so stopping one stops the
// JVMs it started), detached from the CLI that started them.
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { CHECKOUT, logFile, runnerArgs, urlFromLog, type PoolEngineDriver } from './pool-engine.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export const localRunners: PoolEngineDriver = {
  engine: 'local',
  async start(id, pool, opts) {
    const log = logFile(pool, id);
    const fd = openSync(log, 'w', 0o600);
    const child = spawn(process.execPath, runnerArgs(id, pool, opts), { cwd: CHECKOUT, detached: true, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    child.unref();
    const pid = child.pid!;
    const url = await urlFromLog(log, id, async () => !alive(pid));
    return { url, job: { kind: 'pid', id: String(pid) } };
  },
  async ended(job) {
    return !alive(Number(job.id));
  },
  async stop(job) {
    const pid = Number(job.id);
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        // the group is gone already
      }
    };
    signal('SIGTERM');
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    // what the runner left in its group (a JVM that ignored its close) goes with it
    signal('SIGKILL');
  },
};
