// Sandbox backends refuse to claim isolation they cannot get.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';

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

  it.skipIf(dockerEngine)('reports the docker backend unavailable when no Docker engine runs (as on this CI machine)', async () => {
    await expect(startRunner({ port: 0, sandbox: 'docker', log: () => undefined })).rejects.toThrow(/docker sandbox unavailable/);
  });
});
