// `repairlab pool up|status|down`: runner pools on the engines researchers run (docs/deploy.md). A pool is a
// descriptor (contracts/pool-descriptor.ts) under REPAIRLAB_HOME/pools/<name>/ that `experiment run --pool <name>` and
// the page's runner settings take; its runners share one secret token kept beside it (0600, never printed).
import type { Command } from 'commander';
import type { PoolEngine, PoolStart, RunnerPoolDescriptor } from '../contracts/pool-descriptor.ts';
import type { PoolEngineDriver } from './pool/pool-engine.ts';

export async function poolDriver(engine: PoolEngine): Promise<PoolEngineDriver> {
  if (engine === 'local') return (await import('./pool/local-runners.ts')).localRunners;
  if (engine === 'slurm') return (await import('./pool/slurm-runners.ts')).slurmRunners;
  if (engine === 'docker') return (await import('./pool/docker-runners.ts')).dockerRunners;
  throw new Error(`pool: runners of engine "${engine}" are not started or stopped by this command (${engine === 'kubernetes' ? 'kubectl applies them: docs/deploy.md' : 'they were started by hand'}).`);
}

/** a whole number from 1 to `max`, or an error naming the flag and what it counts */
function whole(flag: string, v: string, what: string, max = 256): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${flag} ${v}: give ${what}, a whole number from 1 to ${max}.`);
  return n;
}

interface UpFlags {
  local?: string;
  slurm?: string;
  docker?: string;
  image?: string;
  name: string;
  capacity: string;
  sandbox: string;
  partition?: string;
  cpus?: string;
  mem?: string;
  time?: string;
  runnerHost: string;
}

function runnerHost(v: string): 'loopback' | 'node' {
  if (v !== 'loopback' && v !== 'node') throw new Error(`--runner-host ${v}: give loopback (the submit host is the node) or node (runners listen on their node's name).`);
  return v;
}

export function registerPoolCommands(program: Command): void {
  const pool = program.command('pool').description('runner pools: start, watch and stop runners on this machine (--local processes, --docker containers) or on Slurm (--slurm); docs/deploy.md');

  pool
    .command('up')
    .description('start a pool of runners and write its descriptor (experiment run --pool <name> uses it)')
    .option('--local <n>', 'N runner processes on this machine')
    .option('--slurm <n>', 'N runners as Slurm jobs (sbatch)')
    .option('--docker <n>', 'N runner containers on this machine (the runner service image, bwrap inside)')
    .option('--image <image>', 'Docker: the runner service image (default: built or found by scripts/docker-runner-image.sh)')
    .option('--name <name>', 'the pool\'s name', 'default')
    .option('--capacity <n>', 'validations each runner takes at once (its --workers)', '2')
    .option('--sandbox <backend>', 'the runners\' sandbox: bwrap, docker or none', 'bwrap')
    .option('--partition <name>', 'Slurm: the partition (default: the cluster\'s default)')
    .option('--cpus <n>', 'Slurm: CPUs per runner (default: its capacity)')
    .option('--mem <mb>', 'Slurm, Docker: memory per runner in MB (Slurm 2048, Docker 3072)')
    .option('--time <limit>', 'Slurm: each job\'s time limit (sbatch --time, e.g. 12:00:00)', '04:00:00')
    .option('--runner-host <where>', 'Slurm: where runners listen — loopback (a one-machine cluster) or node (their node\'s name, for a real cluster)', 'loopback')
    .action(async (flags: UpFlags) => {
      const engines = (['local', 'slurm', 'docker'] as const).filter((e) => flags[e] !== undefined);
      if (engines.length !== 1) throw new Error('pool up: give one of --local N, --docker N or --slurm N (Kubernetes: `repairlab pool manifests`, then kubectl apply; docs/deploy.md).');
      const engine = engines[0]!;
      const n = whole(`--${engine}`, flags[engine]!, 'how many runners');
      const capacity = whole('--capacity', flags.capacity, 'how many validations each runner takes at once');
      if (!['bwrap', 'docker', 'none'].includes(flags.sandbox)) throw new Error(`--sandbox ${flags.sandbox}: give bwrap, docker or none.`);
      const started: PoolStart = {
        sandbox: flags.sandbox as PoolStart['sandbox'],
        capacity,
        ...(engine === 'slurm'
          ? { ...(flags.partition ? { partition: flags.partition } : {}), cpusPerRunner: flags.cpus ? whole('--cpus', flags.cpus, 'CPUs per runner') : capacity, memoryMb: whole('--mem', flags.mem ?? '2048', 'MB of memory per runner', 1 << 24), timeLimit: flags.time ?? '04:00:00', bindHost: runnerHost(flags.runnerHost) }
          : engine === 'docker'
            ? { ...(flags.mem ? { memoryMb: whole('--mem', flags.mem, 'MB of memory per runner', 1 << 24) } : {}), image: await (await import('./pool/docker-runners.ts')).runnerImage(flags.image, (line) => console.error(line)) }
            : {}),
      };
      const { createPoolDir, removePoolDir, writeDescriptor } = await import('./pool/pool-files.ts');
      const driver = await poolDriver(engine);
      const dir = await createPoolDir(flags.name);
      const ids = Array.from({ length: n }, (_, i) => `runner-${i + 1}`);
      const results = await Promise.allSettled(ids.map((id) => driver.start(id, dir, started)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        // nothing half-started is left behind
        await Promise.all(results.map((r) => (r.status === 'fulfilled' ? driver.stop(r.value.job) : undefined)));
        await removePoolDir(dir);
        throw failed.reason;
      }
      const descriptor: RunnerPoolDescriptor = {
        schemaVersion: 1,
        kind: 'repairlab-runner-pool',
        name: flags.name,
        engine,
        tokenFrom: { file: dir.tokenFile },
        runners: results.map((r, i) => {
          const { url, job } = (r as PromiseFulfilledResult<Awaited<ReturnType<PoolEngineDriver['start']>>>).value;
          return { id: ids[i]!, url, capacity, engine, job };
        }),
        started,
      };
      await writeDescriptor(dir, descriptor);
      for (const r of descriptor.runners) console.log(`${r.id}  ${r.url}  capacity ${r.capacity}  ${r.job!.kind} ${r.job!.id}`);
      console.log(`Pool "${flags.name}" is up: ${dir.descriptorFile} (token in ${dir.tokenFile}, 0600). Run on it: repairlab experiment run <spec> --pool ${flags.name}`);
    });

  pool
    .command('manifests')
    .description('write the Kubernetes manifests of a pool (Deployment, headless Service, PodDisruptionBudget) for kubectl apply; docs/deploy.md')
    .requiredOption('--kubernetes <n>', 'N runner pods')
    .requiredOption('--image <image>', 'an image that runs the runner (its entry point takes the runner\'s flags)')
    .option('--name <name>', "the pool's name", 'default')
    .option('--namespace <ns>', 'the namespace', 'default')
    .option('--capacity <n>', 'validations each runner takes at once', '2')
    .option('--cpus <n>', 'CPUs per runner (default: its capacity)')
    .option('--mem <mb>', 'memory per runner in MB', '4096')
    .option('--token-secret <name>', 'the Secret holding the token (key "token")', 'repairlab-runner-token')
    .option('--out <file>', 'write there (default: stdout)')
    .action(async (flags: { kubernetes: string; image: string; name: string; namespace: string; capacity: string; cpus?: string; mem: string; tokenSecret: string; out?: string }) => {
      const { kubernetesManifests } = await import('./pool/kubernetes-manifests.ts');
      const capacity = whole('--capacity', flags.capacity, 'how many validations each runner takes at once');
      const items = kubernetesManifests({
        name: flags.name,
        runners: whole('--kubernetes', flags.kubernetes, 'how many runners'),
        image: flags.image,
        namespace: flags.namespace,
        capacity,
        cpus: flags.cpus ? whole('--cpus', flags.cpus, 'CPUs per runner') : capacity,
        memoryMb: whole('--mem', flags.mem, 'MB of memory per runner', 1 << 24),
        tokenSecret: flags.tokenSecret,
      });
      // a List: `kubectl apply -f` takes it as one file
      const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2) + '\n';
      if (flags.out) await (await import('node:fs/promises')).writeFile(flags.out, text);
      else process.stdout.write(text);
    });

  pool
    .command('status')
    .description("each runner of a pool: whether its engine still has it, whether it answers, and which isolation holds")
    .option('--name <name>', "the pool's name or its descriptor file", 'default')
    .option('--json', 'print JSON')
    .action(async (flags: { name: string; json?: boolean }) => {
      const { readPool, readToken } = await import('./pool/pool-files.ts');
      const { RunnerClient } = await import('../runner-client/client.ts');
      const { descriptor } = await readPool(flags.name, '--name');
      const driver = descriptor.engine === 'local' || descriptor.engine === 'slurm' || descriptor.engine === 'docker' ? await poolDriver(descriptor.engine) : undefined;
      const rows = await Promise.all(
        descriptor.runners.map(async (r) => {
          const ended = driver && r.job ? await driver.ended(r.job) : undefined;
          const token = await readToken(r.tokenFrom ?? descriptor.tokenFrom, r.id, process.env.REPAIRLAB_RUNNER_TOKEN);
          const health = await new RunnerClient({ url: r.url, token, retries: 0, timeoutMs: 5_000 }).health().catch((e: unknown) => e as Error);
          return { id: r.id, url: r.url, capacity: r.capacity, engine: r.engine, job: r.job, ended, answers: !(health instanceof Error), isolation: health instanceof Error ? undefined : health.isolation.backend, error: health instanceof Error ? health.message : undefined };
        }),
      );
      if (flags.json) return void console.log(JSON.stringify({ name: descriptor.name, engine: descriptor.engine, runners: rows }, null, 2));
      for (const r of rows) {
        const job = r.job ? `${r.job.kind} ${r.job.id}${r.ended ? ' (ended)' : ''}` : 'no job';
        console.log(`${r.id}  ${r.url}  capacity ${r.capacity}  ${job}  ${r.answers ? `answers · isolation ${r.isolation}` : `does not answer: ${r.error}`}`);
      }
    });

  pool
    .command('down')
    .description('stop every runner of a pool (kill, scancel) and remove its directory: nothing of it is left')
    .option('--name <name>', "the pool's name", 'default')
    .action(async (flags: { name: string }) => {
      const { poolDir, readPool, removePoolDir } = await import('./pool/pool-files.ts');
      const { descriptor } = await readPool(flags.name, '--name');
      const driver = await poolDriver(descriptor.engine);
      await Promise.all(descriptor.runners.map((r) => (r.job ? driver.stop(r.job) : undefined)));
      const left = (await Promise.all(descriptor.runners.map(async (r) => (r.job && !(await driver.ended(r.job)) ? `${r.id} (${r.job.kind} ${r.job.id})` : undefined)))).filter(Boolean);
      if (left.length) throw new Error(`pool down: ${left.join(', ')} still running; run \`repairlab pool down --name ${flags.name}\` again, or stop them by hand.`);
      await removePoolDir(poolDir(descriptor.name));
      console.log(`Pool "${descriptor.name}" is down: ${descriptor.runners.length} runner${descriptor.runners.length === 1 ? '' : 's'} stopped, its directory removed.`);
    });
}
