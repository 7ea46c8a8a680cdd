// Sandbox backends for everything that runs project code (javac, the Java harness). Each backend probes itself at
// start and reports only the isolation it actually obtained (runner-api.ts Isolation).
//
// Paths are the same inside and outside the sandbox: each backend binds host directories at their own path, so
// commands, request files and javac diagnostics need no translation.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chown, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Isolation } from '../../worker/contracts/runner-api.ts';

export type SandboxBackend = 'bwrap' | 'docker' | 'none';

export interface Bind {
  path: string;
  writable: boolean;
}

export interface ProcessLimits {
  /** RLIMIT_NPROC: processes + threads of the sandbox user */
  nproc: number;
  /** RLIMIT_CPU in seconds */
  cpuSeconds: number;
  /** RLIMIT_FSIZE: largest file the code may write */
  fileSizeBytes: number;
  /**
   * RLIMIT_DATA: private writable memory of each process — the Java heap, but also native memory (malloc,
   * Unsafe.allocateMemory, thread stacks), which JVM flags do not cap. Absent: the backend's default.
   */
  dataBytes?: number;
}

/** Size of the sandbox's private /tmp (and /var/tmp): a tmpfs lives in memory, so an unsized one lets tests fill it. */
export const TMP_MB = 128;
const VAR_TMP_MB = 16;
/** Private writable memory a sandboxed process may have beyond the sandbox's memory budget (metaspace, code, stacks). */
const DATA_HEADROOM_MB = 512;

/** The memory cap (RLIMIT_DATA) for a sandbox whose JVMs are given `memoryMb` (heap + 512 MB). */
export function dataLimitBytes(memoryMb: number): number {
  return (memoryMb + DATA_HEADROOM_MB) * 1024 * 1024;
}

export interface SandboxCommand {
  argv: string[];
  binds: Bind[];
  cwd: string;
  env?: Record<string, string>;
  limits: ProcessLimits;
  /** groups commands that share a long-lived container (docker): the base snapshot id */
  group: string;
  /**
   * a file to stand as the sandbox's /etc/hosts (layout.resolvableHosts, hostsFileText): bwrap binds it read-only
   * over the host's (docs/runner-api.md)
   */
  hostsFile?: string;
  /** the names that file answers: docker has no per-command bind, so its container is made with them (--add-host) */
  resolvableHosts?: string[];
}

/** The documentation address (RFC 5737 TEST-NET-1) resolvable names map to: routed nowhere, and no sandbox has a route. */
export const UNREACHABLE_ADDRESS = '192.0.2.1';

/**
 * The /etc/hosts of a sandbox whose tests resolve `hosts`: localhost as usual, and each name at an address nothing
 * answers on. Names are checked host names (ProjectLayout.resolvableHosts), so no line can be smuggled in.
 */
export function hostsFileText(hosts: string[]): string {
  return ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', ...hosts.map((h) => `${UNREACHABLE_ADDRESS}\t${h}`), ''].join('\n');
}

export interface Sandbox {
  readonly backend: SandboxBackend;
  readonly isolation: Isolation;
  /** The host argv that runs `cmd` inside the sandbox. */
  command(cmd: SandboxCommand): Promise<string[]>;
  /** Makes a directory writable by the sandbox user (it may be an unprivileged uid). */
  prepareWritable(dir: string): Promise<void>;
  close(): Promise<void>;
}

export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
/** When the runner runs as root, sandboxed code runs as nobody so that RLIMIT_NPROC applies (root ignores it). */
const SANDBOX_UID = 65534;

function have(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' }).status === 0;
}

function prlimitArgs(l: ProcessLimits): string[] {
  const data = l.dataBytes ? [`--data=${l.dataBytes}`] : [];
  return ['prlimit', `--nproc=${l.nproc}`, `--cpu=${l.cpuSeconds}`, `--fsize=${l.fileSizeBytes}`, ...data, '--core=0', '--'];
}

const BASE_ENV: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8' };

function runCapture(argv: string[], timeoutMs = 20_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: stderr + String(e) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// ---------------------------------------------------------------- bubblewrap

class BwrapSandbox implements Sandbox {
  readonly backend = 'bwrap' as const;
  constructor(
    readonly isolation: Isolation,
    private readonly dataBytes: number,
  ) {}

  static argv(cmd: Omit<SandboxCommand, 'group'>): string[] {
    const out: string[] = [];
    if (isRoot) out.push('setpriv', `--reuid=${SANDBOX_UID}`, `--regid=${SANDBOX_UID}`, '--clear-groups', '--');
    out.push(
      'bwrap',
      '--unshare-all', // user, ipc, pid, net, uts, cgroup namespaces: no network at all
      '--die-with-parent',
      '--new-session',
      '--clearenv',
      '--ro-bind', '/usr', '/usr',
      '--symlink', 'usr/lib', '/lib',
      '--symlink', 'usr/lib64', '/lib64',
      '--symlink', 'usr/bin', '/bin',
      '--symlink', 'usr/sbin', '/sbin',
      '--ro-bind', '/etc', '/etc',
      // after /etc: names the tests resolve without network (the net namespace has no route, so nothing connects)
      ...(cmd.hostsFile ? ['--ro-bind', cmd.hostsFile, '/etc/hosts'] : []),
      '--proc', '/proc',
      '--dev', '/dev',
      // sized: an unsized tmpfs grows in the host's shared memory until the machine runs out
      '--size', String(TMP_MB * 1024 * 1024), '--tmpfs', '/tmp',
      '--size', String(VAR_TMP_MB * 1024 * 1024), '--tmpfs', '/var/tmp',
    );
    for (const b of cmd.binds) out.push(b.writable ? '--bind' : '--ro-bind', b.path, b.path);
    for (const [k, v] of Object.entries({ ...BASE_ENV, ...cmd.env })) out.push('--setenv', k, v);
    out.push('--chdir', cmd.cwd, '--cap-drop', 'ALL', '--', ...prlimitArgs(cmd.limits), ...cmd.argv);
    return out;
  }

  async command(cmd: SandboxCommand): Promise<string[]> {
    return BwrapSandbox.argv({ ...cmd, limits: { ...cmd.limits, dataBytes: cmd.limits.dataBytes ?? this.dataBytes } });
  }

  async prepareWritable(dir: string): Promise<void> {
    if (isRoot) await chownRecursive(dir, SANDBOX_UID);
  }

  async close(): Promise<void> {}
}

async function chownRecursive(dir: string, uid: number): Promise<void> {
  await chown(dir, uid, uid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownRecursive(p, uid);
    else await chown(p, uid, uid);
  }
}

const PROBE_SCRIPT = [
  'cat /proc/net/dev',
  'echo ::usr; (touch /usr/.repairlab-probe 2>/dev/null && echo WRITABLE)',
  'echo ::tmp; ls -A /tmp',
  'echo ::limits; grep -E "^Max (processes|file size|data size)" /proc/self/limits',
  'echo ::tmpsize; df -k /tmp | tail -n 1',
  'echo ::uid; id -u',
].join('; ');

/** Reads what a probe command saw from inside: interfaces, /usr writability, /tmp contents, limits, uid. */
function interpretProbe(stdout: string, hostMarker: string, limits: ProcessLimits): Omit<Isolation, 'backend'> {
  const section = (name: string) => stdout.split(`::${name}\n`)[1]?.split('::')[0] ?? '';
  const interfaces = stdout
    .split('::usr')[0]!
    .split('\n')
    .slice(2)
    .map((l) => l.split(':')[0]!.trim())
    .filter(Boolean);
  const noNetwork = interfaces.every((i) => i === 'lo');
  const readOnlySystem = !section('usr').includes('WRITABLE');
  const privateTmp = !section('tmp').includes(hostMarker);
  const limitLines = section('limits');
  const uid = Number(section('uid').trim());
  const nprocSet = new RegExp(`Max processes\\s+${limits.nproc}\\s`).test(limitLines);
  const fsizeSet = new RegExp(`Max file size\\s+${limits.fileSizeBytes}\\s`).test(limitLines);
  const dataSet = limits.dataBytes !== undefined && new RegExp(`Max data size\\s+${limits.dataBytes}\\s`).test(limitLines);
  const tmpKb = Number(section('tmpsize').trim().split(/\s+/)[1]);
  const notes: string[] = [];
  if (!noNetwork) notes.push(`network interfaces visible inside the sandbox: ${interfaces.join(', ')}`);
  if (uid === 0) notes.push('sandboxed code runs as root: the process-count limit is not enforced for root');
  const cgroup = cgroupV2();
  const uncapped = [
    cgroup.usable ? null : `memory and process count of a sandbox as a whole (no cgroup v2: ${cgroup.why}); each process is capped by rlimits instead`,
    'shared memory (/dev/shm) and kernel memory',
    'CPU time of native code is capped only by RLIMIT_CPU per process, not by the validation\'s wall clock',
  ].filter((x): x is string => x !== null);
  return {
    network: noNetwork,
    readOnlySystem,
    privateTmp,
    processLimits: nprocSet && fsizeSet && uid !== 0,
    notes,
    limits: {
      memoryMb: dataSet ? Math.round(limits.dataBytes! / 1024 / 1024) : null,
      memoryHow: dataSet ? 'RLIMIT_DATA per process (heap and native allocations)' : 'none',
      processes: nprocSet && uid !== 0 ? limits.nproc : null,
      tmpMb: Number.isFinite(tmpKb) && tmpKb > 0 ? Math.round(tmpKb / 1024) : null,
      cgroup: false,
      processGroupKilled: true,
      uncapped,
    },
  };
}

/** Whether cgroup v2 is mounted with memory and pids controllers this runner could delegate (and why not). */
function cgroupV2(): { usable: boolean; why: string } {
  const root = '/sys/fs/cgroup';
  if (!existsSync(path.join(root, 'cgroup.controllers'))) return { usable: false, why: `${root} is not a cgroup v2 hierarchy on this machine` };
  try {
    const controllers = readFileSync(path.join(root, 'cgroup.controllers'), 'utf8');
    if (!/\bmemory\b/.test(controllers) || !/\bpids\b/.test(controllers)) return { usable: false, why: 'the memory or pids controller is not available' };
    accessSync(path.join(root, 'cgroup.subtree_control'), constants.W_OK);
  } catch {
    return { usable: false, why: `${root} is not writable by the runner` };
  }
  // usable in principle; the runner does not create cgroups yet, so it reports them as not obtained
  return { usable: false, why: 'cgroup v2 is available but the runner does not delegate cgroups yet' };
}

const PROBE_LIMITS: ProcessLimits = { nproc: 777, cpuSeconds: 60, fileSizeBytes: 7_777_777 };

async function probeBwrap(dataBytes: number): Promise<Isolation> {
  for (const bin of ['bwrap', 'prlimit', ...(isRoot ? ['setpriv'] : [])]) {
    if (!have(bin)) throw new SandboxUnavailableError(`bubblewrap sandbox unavailable: \`${bin}\` is not installed (Debian: apt-get install bubblewrap util-linux).`);
  }
  const marker = `repairlab-probe-${randomUUID()}`;
  const hostMarker = path.join(os.tmpdir(), marker);
  await writeFile(hostMarker, '');
  try {
    const limits = { ...PROBE_LIMITS, dataBytes };
    const argv = BwrapSandbox.argv({ argv: ['sh', '-c', PROBE_SCRIPT], binds: [], cwd: '/', limits });
    const r = await runCapture(argv);
    if (r.code !== 0) {
      throw new SandboxUnavailableError(
        `bubblewrap failed its start-up probe (exit ${r.code}): ${r.stderr.trim().slice(0, 400)}. ` +
          'Inside Docker or on systems that restrict user namespaces bwrap cannot run: use --sandbox docker, or --sandbox none --allow-unsandboxed on a machine you do not mind tests touching.',
      );
    }
    const seen = interpretProbe(r.stdout, marker, limits);
    return { backend: 'bwrap', ...seen, notes: [...seen.notes, 'JVM heap, metaspace and stack are capped by JVM flags'] };
  } finally {
    await rm(hostMarker, { force: true });
  }
}

// ---------------------------------------------------------------- none (explicit opt-in only)

class UnsandboxedRunner implements Sandbox {
  readonly backend = 'none' as const;
  constructor(readonly isolation: Isolation) {}

  async command(cmd: SandboxCommand): Promise<string[]> {
    // no isolation: only resource limits, and the code sees the host as the runner's user
    return ['env', '-i', ...Object.entries({ ...BASE_ENV, ...cmd.env }).map(([k, v]) => `${k}=${v}`), ...prlimitArgs(cmd.limits), ...cmd.argv];
  }

  async prepareWritable(): Promise<void> {}
  async close(): Promise<void> {}
}

// ---------------------------------------------------------------- docker

export const DOCKER_IMAGE = 'repairlab-runner-sandbox:1';

/**
 * One long-lived container per base snapshot (`docker run -d … sleep infinity`), `docker exec` per command.
 * The container mounts the runner's snapshot trees and harness (read-only) and work directories at the same paths
 * as on the host, so paths need no translation. The image (runner/Dockerfile) holds the JDK and the JUnit jars.
 */
class DockerSandbox implements Sandbox {
  readonly backend = 'docker' as const;
  private containers = new Map<string, Promise<string>>();
  private readonly prefix = `repairlab-${randomUUID().slice(0, 8)}`;

  constructor(
    readonly isolation: Isolation,
    private readonly dataDir: string,
    private readonly memoryMb: number,
    private readonly dataBytes: number,
  ) {}

  /** where project-settings.ts keeps the uploaded jars; made here first, so that Docker does not make it root's */
  private jarsDir(): string {
    const dir = path.join(this.dataDir, 'jars');
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    return dir;
  }

  private container(group: string, cmd: SandboxCommand): Promise<string> {
    // one container per snapshot and set of resolvable names: a container's /etc/hosts is fixed when it starts
    const hosts = [...new Set(cmd.resolvableHosts ?? [])].sort();
    const key = hosts.length ? `${group}\t${hosts.join(',')}` : group;
    let c = this.containers.get(key);
    if (!c) {
      const name = `${this.prefix}-${group.slice(0, 12)}${hosts.length ? `-h${this.containers.size}` : ''}`;
      const jars = this.jarsDir();
      c = runCapture(
        [
          'docker', 'run', '-d', '--rm', '--name', name,
          ...dockerRunFlags(this.memoryMb, cmd.limits.nproc),
          // names the tests resolve, at an address nothing answers on (the container has no network either)
          ...hosts.flatMap((h) => ['--add-host', `${h}:${UNREACHABLE_ADDRESS}`]),
          // snapshots, the harness and the layouts' uploaded jars read-only; only the work directories are writable
          // (without the jars a layout's `jars` were missing in the container: javac "package … does not exist")
          '-v', `${path.join(this.dataDir, 'trees')}:${path.join(this.dataDir, 'trees')}:ro`,
          '-v', `${path.join(this.dataDir, 'harness')}:${path.join(this.dataDir, 'harness')}:ro`,
          '-v', `${jars}:${jars}:ro`,
          '-v', `${path.join(this.dataDir, 'work')}:${path.join(this.dataDir, 'work')}`,
          DOCKER_IMAGE, 'sleep', 'infinity',
        ],
        120_000,
      ).then((r) => {
        if (r.code !== 0) throw new SandboxUnavailableError(`docker run failed: ${r.stderr.trim().slice(0, 400)}`);
        return name;
      });
      this.containers.set(key, c);
    }
    return c;
  }

  async command(cmd: SandboxCommand): Promise<string[]> {
    const name = await this.container(cmd.group, cmd);
    const env = Object.entries({ ...BASE_ENV, ...cmd.env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // the same per-process caps as bubblewrap's (RLIMIT_DATA included), inside the container's own cgroup limits
    const limits = { ...cmd.limits, dataBytes: cmd.limits.dataBytes ?? this.dataBytes };
    return ['docker', 'exec', '-i', '-w', cmd.cwd, ...env, name, ...prlimitArgs(limits), ...cmd.argv];
  }

  async prepareWritable(dir: string): Promise<void> {
    if (isRoot) await chownRecursive(dir, SANDBOX_UID);
  }

  async close(): Promise<void> {
    const names = await Promise.allSettled([...this.containers.values()]);
    await Promise.all(
      names.flatMap((n) => (n.status === 'fulfilled' ? [runCapture(['docker', 'rm', '-f', n.value], 30_000)] : [])),
    );
  }
}

/**
 * What every sandbox container runs with — the validation containers and the start-up probe alike, so the probe sees
 * what code under test will: no network, a read-only root with /tmp and /var/tmp as sized tmpfs (the sizes bubblewrap
 * gives), the memory and process count of the whole container capped by its cgroup, no capabilities.
 */
function dockerRunFlags(memoryMb: number, nproc: number): string[] {
  return [
    '--network', 'none',
    '--memory', `${memoryMb}m`, '--memory-swap', `${memoryMb}m`,
    '--cpus', '1', '--pids-limit', String(nproc),
    '--read-only', '--tmpfs', `/tmp:size=${TMP_MB}m`, '--tmpfs', `/var/tmp:size=${VAR_TMP_MB}m`,
    '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
    '--user', isRoot ? `${SANDBOX_UID}:${SANDBOX_UID}` : `${process.getuid?.() ?? SANDBOX_UID}:${process.getgid?.() ?? SANDBOX_UID}`,
  ];
}

async function probeDocker(memoryMb: number, dataBytes: number): Promise<Isolation> {
  if (!have('docker')) throw new SandboxUnavailableError('docker sandbox unavailable: the docker client is not installed.');
  const info = await runCapture(['docker', 'info', '--format', '{{.ServerVersion}}'], 15_000);
  if (info.code !== 0) {
    throw new SandboxUnavailableError(
      `docker sandbox unavailable: no Docker engine answered (${info.stderr.trim().split('\n')[0] ?? 'docker info failed'}). Start Docker, or use --sandbox bwrap.`,
    );
  }
  const image = await runCapture(['docker', 'image', 'inspect', DOCKER_IMAGE], 15_000);
  if (image.code !== 0) {
    throw new SandboxUnavailableError(`docker sandbox unavailable: image ${DOCKER_IMAGE} is missing. Build it: docker build -t ${DOCKER_IMAGE} runner/ (scripts/docker-sandbox.sh builds it offline)`);
  }
  // what a container of this sandbox really gets, read from inside one (as bubblewrap's probe does), not assumed
  const marker = `repairlab-probe-${randomUUID()}`;
  const hostMarker = path.join(os.tmpdir(), marker);
  await writeFile(hostMarker, '');
  try {
    const limits = { ...PROBE_LIMITS, dataBytes };
    const r = await runCapture(['docker', 'run', '--rm', ...dockerRunFlags(memoryMb, limits.nproc), DOCKER_IMAGE, ...prlimitArgs(limits), 'sh', '-c', PROBE_SCRIPT], 120_000);
    if (r.code !== 0) throw new SandboxUnavailableError(`docker sandbox unavailable: its start-up probe failed (exit ${r.code}): ${r.stderr.trim().slice(0, 400)}`);
    const seen = interpretProbe(r.stdout, marker, limits);
    const rlimits = seen.limits!;
    return {
      backend: 'docker',
      ...seen,
      notes: [...seen.notes, `Docker engine ${info.stdout.trim()}; one container per base snapshot`, 'JVM heap, metaspace and stack are capped by JVM flags'],
      limits: {
        ...rlimits,
        // the container's cgroup caps memory and processes of the sandbox as a whole, beside each process's rlimits
        memoryMb: rlimits.memoryMb === null ? memoryMb : Math.min(memoryMb, rlimits.memoryMb),
        memoryHow: `the container's cgroup memory limit (${memoryMb} MB, no swap)${rlimits.memoryMb === null ? '' : ' and RLIMIT_DATA per process'}`,
        cgroup: true,
        uncapped: rlimits.uncapped.filter((u) => !u.startsWith('memory and process count of a sandbox as a whole')),
      },
    };
  } finally {
    await rm(hostMarker, { force: true });
  }
}

// ---------------------------------------------------------------- selection

export interface SandboxOptions {
  sandbox?: SandboxBackend;
  allowUnsandboxed?: boolean;
  dataDir: string;
  memoryMb: number;
}

/** Picks and probes the backend. bwrap is the default; `none` needs allowUnsandboxed. Never silently downgrades. */
export async function openSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const wanted = opts.sandbox ?? 'bwrap';
  if (wanted === 'bwrap') {
    const data = dataLimitBytes(opts.memoryMb);
    return new BwrapSandbox(await probeBwrap(data), data);
  }
  if (wanted === 'docker') {
    const data = dataLimitBytes(opts.memoryMb);
    return new DockerSandbox(await probeDocker(opts.memoryMb, data), opts.dataDir, opts.memoryMb, data);
  }
  if (!opts.allowUnsandboxed) {
    throw new SandboxUnavailableError('Refusing to run model-written code without a sandbox: --sandbox none also needs --allow-unsandboxed.');
  }
  return new UnsandboxedRunner({
    backend: 'none',
    network: false,
    readOnlySystem: false,
    privateTmp: false,
    processLimits: existsSync('/usr/bin/prlimit') && !isRoot,
    notes: ['NO SANDBOX: tests run as the runner user with full access to this machine and its network'],
  });
}

/** Exposed for tests of the probe parser. */
export const _internal = { interpretProbe };
