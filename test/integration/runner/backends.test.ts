// Sandbox backends refuse to claim isolation they cannot get.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRunner } from '../../../runner/src/index.ts';
import { TMP_MB } from '../../../runner/src/sandbox.ts';

const dockerEngine = spawnSync('docker', ['info'], { encoding: 'utf8', timeout: 15_000 }).status === 0;

describe('sandbox backends', () => {
  it('refuses to run unsandboxed without the explicit flag', async () => {
    await expect(startRunner({ port: 0, sandbox: 'none', log: () => undefined })).rejects.toThrow(/--allow-unsandboxed/);
  });

  it('reports no isolation at all for an explicitly unsandboxed runner', async () => {
    const lines: string[] = [];
    const r = await startRunner({ port: 0, sandbox: 'none', allowUnsandboxed: true, log: (l) => lines.push(l) });
    try {
      expect(r.isolation).toMatchObject({ backend: 'none', network: false, readOnlySystem: false, privateTmp: false });
      expect(lines.join('\n')).toMatch(/WARNING.*WITHOUT a sandbox/);
    } finally {
      await r.close();
    }
  });

  it('reports the docker backend unavailable when no Docker engine answers', async () => {
    // a socket no engine listens on: the same answer as a machine without Docker, whether or not one runs here
    const before = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'unix:///nonexistent/repairlab-no-docker.sock';
    try {
      await expect(startRunner({ port: 0, sandbox: 'docker', log: () => undefined })).rejects.toThrow(/docker sandbox unavailable: no Docker engine answered/);
    } finally {
      if (before === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = before;
    }
  });

  // scripts/docker-sandbox.sh gives `npm test` an engine and the image where it can
  it.runIf(dockerEngine)('probes a container of the docker backend at start and reports what it really got', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-docker-probe-'));
    const r = await startRunner({ port: 0, sandbox: 'docker', dataDir, log: () => undefined });
    try {
      expect(r.isolation).toMatchObject({ backend: 'docker', network: true, readOnlySystem: true, privateTmp: true, processLimits: true });
      expect(r.isolation.limits).toMatchObject({ tmpMb: TMP_MB, cgroup: true });
      expect(r.isolation.limits?.memoryMb).toBeGreaterThan(0);
      expect(r.isolation.limits?.processes).toBeGreaterThan(0);
    } finally {
      await r.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
