// `pool up --docker N`: N runner containers of the runner service image (runner/service.Dockerfile, built offline by
// scripts/docker-runner-image.sh) on this machine, for laptops and CI. Each container runs one runner with its
// bubblewrap sandbox inside; the token is the pool's secret file mounted read-only (--token-file), never an
// environment variable or an argument. The container is otherwise locked down: read-only root, every capability
// dropped but those bwrap needs to build its namespaces (SYS_ADMIN, SETUID, SETGID; with seccomp, AppArmor and
// Docker's masked /proc paths lifted, which bwrap's own mount of /proc needs) and those the runner, as root, needs to
// hand a validation's directory to `nobody` and clean up after it (CHOWN, DAC_OVERRIDE, FOWNER, KILL), a memory and
// process cap. `--sandbox none` drops all of them, and the runner's /v1/health then says that no sandbox holds inside
// the container.
//
// Where the engine has a bridge network the runner's port is published on 127.0.0.1 only; an engine without one
// (scripts/docker-sandbox.sh starts dockerd with --bridge=none) gives the container the host's network and the runner
// listens on 127.0.0.1 on a free port — its log says which. Either way only this machine reaches it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, chmod } from 'node:fs/promises';
import { promisify } from 'node:util';
import { BWRAP_CAPABILITIES, CHECKOUT, type PoolEngineDriver } from './pool-engine.ts';

const run = promisify(execFile);
const TOKEN_IN_CONTAINER = '/run/secrets/repairlab-runner-token';
const PORT_IN_CONTAINER = 8765;
/** memory per runner container when `--mem` is not given: a JVM per worker and javac beside them */
export const DOCKER_DEFAULT_MEMORY_MB = 3072;

async function docker(args: string[], timeoutMs = 60_000): Promise<string> {
  try {
    const { stdout } = await run('docker', args, { timeout: timeoutMs, maxBuffer: 16 << 20 });
    return stdout.trim();
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') throw new Error('pool --docker: there is no docker command here; install Docker (or run scripts/docker-sandbox.sh as root on Debian) and try again.');
    throw new Error(`docker ${args[0]} failed: ${(err.stderr ?? err.message).trim().split('\n').slice(-3).join(' ')}`);
  }
}

/**
 * The runner service image: `--image` when given, else the one scripts/docker-runner-image.sh builds (offline, cached
 * by the hash of its inputs: seconds when nothing changed).
 */
export async function runnerImage(given: string | undefined, log: (line: string) => void): Promise<string> {
  if (given) {
    await docker(['image', 'inspect', given]).catch(() => {
      throw new Error(`--image ${given}: Docker has no such image; build it (bash scripts/docker-runner-image.sh) or drop --image to build it now.`);
    });
    return given;
  }
  log('pool: building (or finding) the runner service image: bash scripts/docker-runner-image.sh');
  let out: string;
  try {
    ({ stdout: out } = await run('bash', [`${CHECKOUT}scripts/docker-runner-image.sh`], { cwd: CHECKOUT, timeout: 30 * 60_000, maxBuffer: 16 << 20 }));
  } catch (e) {
    const err = e as { code?: number; stderr?: string };
    throw new Error(`pool --docker: the runner service image could not be had${err.code === 3 ? ' (no Docker engine here)' : ''}: ${(err.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`);
  }
  const m = /^RUNNER_IMAGE=(\S+)$/m.exec(out);
  if (!m) throw new Error('pool --docker: scripts/docker-runner-image.sh named no image (its last line is RUNNER_IMAGE=…).');
  return m[1]!;
}

async function hasBridge(): Promise<boolean> {
  return docker(['network', 'inspect', 'bridge']).then(() => true, () => false);
}

const listening = /RepairLab runner listening on (\S+)/;

export const dockerRunners: PoolEngineDriver = {
  engine: 'docker',
  async start(id, pool, opts) {
    if (!opts.image) throw new Error(`pool --docker: runner ${id} has no image to start (the descriptor's started.image); start the pool again with \`repairlab pool up --docker N\`.`);
    if (opts.sandbox === 'docker') throw new Error('pool up --docker: --sandbox docker would need Docker inside the container; give --sandbox bwrap (default) or none.');
    const data = `${pool.dir}/${id}`;
    await mkdir(data, { recursive: true });
    // as root the runner hands validations to `nobody`, which must pass through its data directory
    await chmod(data, 0o711);
    const bridge = await hasBridge();
    // named after the pool's directory too: two homes' pools of the same name never touch each other's containers
    const name = `repairlab-pool-${pool.name}-${id}-${createHash('sha256').update(pool.dir).digest('hex').slice(0, 8)}`;
    // a container of that name left by this pool, not brought down, would block this one
    await docker(['rm', '-f', name]).catch(() => undefined);
    const sandboxCaps = opts.sandbox === 'bwrap'
      ? [...BWRAP_CAPABILITIES.flatMap((c) => ['--cap-add', c]), '--security-opt', 'seccomp=unconfined', '--security-opt', 'apparmor=unconfined', '--security-opt', 'systempaths=unconfined']
      : [];
    const args = [
      'run', '-d', '--name', name,
      '--label', `repairlab.pool=${pool.name}`, '--label', `repairlab.runner=${id}`,
      '--read-only', '--tmpfs', '/tmp', '--cap-drop', 'ALL', ...sandboxCaps,
      '--memory', `${opts.memoryMb ?? DOCKER_DEFAULT_MEMORY_MB}m`, '--pids-limit', '4096',
      '-v', `${data}:/data`, '-v', `${pool.tokenFile}:${TOKEN_IN_CONTAINER}:ro`,
      ...(bridge ? ['-p', `127.0.0.1::${PORT_IN_CONTAINER}`] : ['--network', 'host']),
      opts.image,
      '--token-file', TOKEN_IN_CONTAINER, '--data-dir', '/data', '--workers', String(opts.capacity), '--sandbox', opts.sandbox,
      ...(opts.sandbox === 'none' ? ['--allow-unsandboxed'] : []),
      ...(bridge ? ['--host', '0.0.0.0', '--port', String(PORT_IN_CONTAINER)] : ['--host', '127.0.0.1', '--port', '0']),
    ];
    const container = (await docker(args)).slice(0, 12);
    const until = Date.now() + 180_000;
    for (;;) {
      const logs = await docker(['logs', container]).catch(() => '');
      const m = listening.exec(logs);
      if (m) {
        if (!bridge) return { url: m[1]!, job: { kind: 'container', id: container } };
        const port = /:(\d+)\s*$/.exec(await docker(['port', container, `${PORT_IN_CONTAINER}/tcp`]))?.[1];
        if (!port) throw new Error(`runner ${id}: container ${container} published no port for ${PORT_IN_CONTAINER}; \`docker port ${container}\` says why.`);
        return { url: `http://127.0.0.1:${port}`, job: { kind: 'container', id: container } };
      }
      if (await this.ended({ kind: 'container', id: container })) {
        const tail = (await docker(['logs', container]).catch(() => '')).split('\n').slice(-12).join('\n');
        await docker(['rm', '-f', container]).catch(() => undefined);
        throw new Error(`runner ${id} (container ${container}, image ${opts.image}) ended before it listened; its log ends:\n${tail}`);
      }
      if (Date.now() > until) throw new Error(`runner ${id} (container ${container}) did not listen within 180 s; \`docker logs ${container}\` says why.`);
      await new Promise((r) => setTimeout(r, 300));
    }
  },
  async ended(job) {
    const state = await docker(['inspect', '-f', '{{.State.Running}}', job.id]).catch(() => 'gone');
    return state !== 'true';
  },
  async stop(job) {
    await docker(['rm', '-f', job.id]).catch(() => undefined);
    for (let i = 0; i < 50; i++) {
      if ((await docker(['inspect', job.id]).then(() => 'there', () => 'gone')) === 'gone') return;
      await new Promise((r) => setTimeout(r, 200));
    }
  },
};
