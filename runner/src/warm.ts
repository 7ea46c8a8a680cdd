// The warm path: one long-lived harness JVM per base snapshot (inside the sandbox) that compiled the project once
// and then validates patches by compiling only changed files in memory and loading them in a fresh classloader.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import type { Limits, TestSelection } from '../../worker/contracts/runner-api.ts';
import { jitFlags, jvmFlags, workDir, type RunnerContext } from './context.ts';
import { ECJ_JAR, harnessLaunch, projectJars } from './java-env.ts';
import { projectSettings } from './project-settings.ts';
import { killTree, newKey, ProtocolReader } from './proc.ts';
import { bundleOf, requestText, writeRequestFile, type RequestEntries } from './request-file.ts';
import { readHarnessAnswer, type HarnessAnswer } from './results.ts';
import { hostsFileText } from './sandbox.ts';

/** How long a worker may take to start and compile the base project. */
const START_TIMEOUT_MS = 180_000;
/** Extra time past a validation's wall clock before the worker is killed from outside. */
const GRACE_MS = 5_000;
/** Idle warm workers are stopped after this long (a new one starts, in seconds, on the next request). */
const IDLE_MS = 10 * 60_000;

export class WarmStartError extends Error {}

export interface WarmJob {
  overlay: Record<string, string | null>;
  tests: TestSelection;
  limits: Limits;
  coverage: boolean;
  /** test classes of this validation outside the layout's suite (layout.suiteFiles): left out as excluded classes */
  outsideSuite?: string[];
}

/** The answer for a validation whose JVM died or overran: never cached, the worker is replaced. */
function crashAnswer(reason: string, overran: boolean, elapsedMs: number): HarnessAnswer {
  return {
    compiled: true,
    diagnostics: [],
    tests: [],
    stopped: overran ? 'wall-clock' : 'crash',
    compileMs: 0,
    testsMs: elapsedMs,
    poisoned: true,
    crashReason: reason,
  };
}

export class WarmWorker {
  runs = 0;
  busy = false;
  dead = false;
  /** retires the worker when it stays idle (frees its JVM's memory) */
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  private child!: ChildProcess;
  private pending: ((msg: Record<string, unknown> | Error) => void) | undefined;
  private stderrTail = '';
  private reader!: ProtocolReader;
  baselineCompiled = false;

  private constructor(
    readonly key: string,
    private readonly ctx: RunnerContext,
    private readonly dir: string,
  ) {}

  static async start(ctx: RunnerContext, key: string, treeId: string, treeDir: string, layout: ProjectLayout): Promise<WarmWorker> {
    const dir = workDir(ctx, 'warm', randomUUID());
    await mkdir(path.join(dir, 'out'), { recursive: true });
    const home = path.join(dir, 'home');
    await mkdir(home, { recursive: true });
    const settings = await projectSettings(ctx.store, layout, home);
    const config: RequestEntries = [
      ['root', treeDir],
      ['out', path.join(dir, 'out')],
      ['release', layout.javaRelease],
      ['junit', layout.junit],
      // in bubblewrap's PID namespace every other process is one a validation left behind
      ['privatePids', ctx.sandbox.backend === 'bwrap'],
    ];
    for (const d of layout.sourceDirs) config.push(['sourceDir', d]);
    for (const d of layout.testDirs) config.push(['testDir', d]);
    for (const d of layout.resourceDirs) config.push(['resourceDir', d]);
    for (const d of layout.testResourceDirs) config.push(['testResourceDir', d]);
    for (const j of settings.jars) config.push(['jar', j]);
    config.push(['compiler', settings.compiler], ['source', settings.source], ['target', settings.target], ['encoding', settings.encoding]);
    if (settings.compiler === 'ecj') config.push(['ecjJar', ECJ_JAR]);
    if (settings.bootClassPath) config.push(['bootClassPath', settings.bootClassPath.join(':')]);
    for (const t of settings.excludedTests) config.push(['exclude', t]);
    config.push(['testClassLoaders', settings.testClassLoaders]);
    if (settings.singleClassPath) config.push(['singleClassPath', 'true']);
    for (const step of settings.buildSteps) config.push(['buildStep', step]);
    if (settings.buildSteps.length) config.push(['generatedDir', path.join(dir, 'generated')]);
    // The tests' working directory: a view of the tree the harness builds (ProjectView) — links into the read-only
    // tree, a fresh copy of each writable directory per validation, and the build's output directories linked to the
    // validation's classes. Without writable or output directories it is the tree itself, as before.
    const view = settings.writableDirs.length || settings.outputDirs ? path.join(dir, 'project') : undefined;
    if (view) {
      await mkdir(view, { recursive: true });
      config.push(['view', view]);
      for (const d of settings.writableDirs) config.push(['writableDir', d]);
      if (settings.outputDirs) config.push(['outputClasses', settings.outputDirs.classes], ['outputTestClasses', settings.outputDirs.testClasses]);
    }
    await writeRequestFile(path.join(dir, 'config.txt'), config);
    // beside the worker's directory, not in it: the sandbox sees it only as its read-only /etc/hosts
    const hostsFile = settings.resolvableHosts.length ? `${dir}.hosts` : undefined;
    if (hostsFile) await writeFile(hostsFile, hostsFileText(settings.resolvableHosts), { mode: 0o644 });
    await ctx.sandbox.prepareWritable(dir);
    const worker = new WarmWorker(key, ctx, dir);
    const argv = await ctx.sandbox.command({
      argv: [
        'java', ...jvmFlags(ctx.jvm),
        // a large young generation costs measurably less CPU per validation, which is what parallel variants need
        ...jitFlags(ctx), `-Xmn${Math.floor(ctx.jvm.heapMb / 2)}m`,
        ...settings.jvmOptions,
        ...harnessLaunch(ctx.harnessDir, { runner: projectJars(layout.junit, layout.classpath), project: settings.uploadedJars }, ['serve', path.join(dir, 'config.txt')]),
      ],
      binds: [
        { path: treeDir, writable: false },
        { path: dir, writable: true },
        { path: ctx.harnessDir, writable: false },
        ...settings.uploadedJars.map((j) => ({ path: j, writable: false })),
        ...(settings.bootClassPath ?? []).map((p) => ({ path: p, writable: false })),
        ...(settings.compiler === 'ecj' && !ECJ_JAR.startsWith('/usr/') ? [{ path: ECJ_JAR, writable: false }] : []),
      ],
      cwd: view ?? treeDir,
      env: settings.env,
      ...(hostsFile ? { hostsFile, resolvableHosts: settings.resolvableHosts } : {}),
      // CPU time accumulates over the worker's life; it is recycled after ctx.recycleAfter validations anyway
      limits: { ...ctx.process, cpuSeconds: 3600 },
      group: treeId,
    });
    const ready = await worker.launch(argv);
    worker.baselineCompiled = ready.compiled === true;
    return worker;
  }

  private launch(argv: string[]): Promise<Record<string, unknown>> {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child = child;
    // the start key authenticates the ready message only; every command then carries a key of its own
    const startKey = newKey();
    const reader = new ProtocolReader((msg) => {
      // one answer per key: nothing more is accepted until the next command names a new one
      reader.key = undefined;
      const p = this.pending;
      this.pending = undefined;
      p?.(msg);
    }, startKey);
    this.reader = reader;
    child.stdout!.on('data', (d: Buffer) => reader.push(d));
    child.stderr!.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.write(`KEY ${startKey.toString('hex')}\n`);
    const onGone = (why: string) => {
      this.dead = true;
      const p = this.pending;
      this.pending = undefined;
      p?.(new Error(why));
    };
    child.on('error', (e) => onGone(`the worker JVM could not start: ${e.message}`));
    child.on('exit', (code, signal) => onGone(`the worker JVM exited (code ${code}${signal ? `, signal ${signal}` : ''})${this.stderrTail ? `: ${this.stderrTail.trim().slice(-800)}` : ''}`));
    return this.next(START_TIMEOUT_MS).then((msg) => {
      if (msg.ready !== true) throw new WarmStartError(`the warm worker did not start: ${JSON.stringify(msg).slice(0, 500)}`);
      return msg;
    }, (e: Error) => {
      this.kill();
      throw new WarmStartError(e.message);
    });
  }

  private next(timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending = (msg) => {
        clearTimeout(timer);
        if (msg instanceof Error) reject(msg);
        else resolve(msg);
      };
    });
  }

  /**
   * One validation's request and the changed files it names, as bundle files named with `prefix` (the harness keeps
   * them in memory; the repo path travels in the request).
   */
  private static requestFiles(job: WarmJob, prefix: string): { name: string; files: Array<[name: string, content: string]> } {
    const entries: RequestEntries = [
      ['mode', job.tests.mode],
      ['perTestTimeoutMs', job.limits.perTestTimeoutMs],
      ['wallClockMs', job.limits.wallClockMs],
      ['coverage', job.coverage],
    ];
    if (job.tests.mode !== 'all') for (const t of job.tests.tests) entries.push(['test', t]);
    for (const c of job.outsideSuite ?? []) entries.push(['exclude', c]);
    const files: Array<[string, string]> = [];
    for (const [file, content] of Object.entries(job.overlay)) {
      if (content === null) {
        entries.push(['deleted', file]);
        continue;
      }
      const name = `${prefix}src-${files.length}`;
      files.push([name, content]);
      entries.push(['changed', `${file}\t${name}`]);
    }
    const name = `${prefix}request`;
    files.push([name, requestText(entries)]);
    return { name, files };
  }

  /** Sends a command with its bundle and waits for the answer; a dead JVM or an overrun kills the worker. */
  private async exchange(command: 'VALIDATE' | 'VALIDATE_BATCH', jobs: WarmJob[], timeoutMs: number): Promise<{ msg: Record<string, unknown> } | { failure: string; overran: boolean }> {
    const reqs = jobs.map((job, i) => WarmWorker.requestFiles(job, `v${i}/`));
    const bundle = bundleOf(reqs.map((r) => r.name), reqs.flatMap((r) => r.files));
    const answer = this.next(timeoutMs);
    const key = newKey();
    this.reader.key = key;
    this.child.stdin!.write(`${command} ${bundle.length} ${key.toString('hex')}\n`);
    this.child.stdin!.write(bundle);
    try {
      return { msg: await answer };
    } catch (e) {
      this.reader.key = undefined;
      const overran = !this.dead;
      this.kill();
      return { failure: overran ? `no answer within the wall clock (${timeoutMs - GRACE_MS} ms); the worker was killed` : (e as Error).message, overran };
    }
  }

  /** One validation. Resolves with a crash answer (never rejects) when the JVM dies or overruns the wall clock. */
  async validate(job: WarmJob): Promise<HarnessAnswer> {
    if (this.dead) throw new Error('worker is dead');
    this.runs++;
    const t0 = Date.now();
    const r = await this.exchange('VALIDATE', [job], job.limits.wallClockMs + GRACE_MS);
    if ('msg' in r) return readHarnessAnswer(r.msg);
    return crashAnswer(r.failure, r.overran, Date.now() - t0);
  }

  /**
   * Several validations that share tests and limits (write_fix's variants) in one exchange: the harness compiles
   * variants that differ only inside method bodies together once (VariantMerge). Answers come in job order; null
   * for a job the worker did not get to (it was poisoned or died), which the caller validates elsewhere.
   */
  async validateBatch(jobs: WarmJob[]): Promise<Array<HarnessAnswer | null>> {
    if (this.dead) throw new Error('worker is dead');
    this.runs += jobs.length;
    // each validation keeps its own wall clock inside the harness; the exchange as a whole gets their sum
    const timeoutMs = jobs.reduce((a, j) => a + j.limits.wallClockMs, 0) + GRACE_MS;
    const r = await this.exchange('VALIDATE_BATCH', jobs, timeoutMs);
    if (!('msg' in r)) return jobs.map(() => null);
    if (typeof r.msg.error === 'string' || !Array.isArray(r.msg.batch)) {
      if (r.msg.poisoned === true) this.kill();
      return jobs.map(() => null);
    }
    const answers = r.msg.batch as unknown[];
    if (process.env.REPAIRLAB_DEBUG_BATCH) console.error(`batch of ${jobs.length}: merged ${String(r.msg.merged)}, phases ${JSON.stringify(r.msg.phasesMs)}${r.msg.note ? `, ${String(r.msg.note)}` : ''}`);
    return jobs.map((_, i) => {
      const a = answers[i];
      return a && typeof a === 'object' ? readHarnessAnswer(a as Record<string, unknown>) : null;
    });
  }

  kill(): void {
    this.dead = true;
    if (this.child) killTree(this.child);
    rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
    rm(`${this.dir}.hosts`, { force: true }).catch(() => undefined);
  }
}

/**
 * Spreads JVM work over at most `size` concurrent slots (cold runs take a slot too) and keeps idle warm workers
 * per (snapshot, layout) key, evicting idle workers of other keys when a new one is needed.
 */
export class WorkerPool {
  private active = 0;
  private queue: Array<() => void> = [];
  private workers: WarmWorker[] = [];
  private starting = new Map<string, number>();

  constructor(
    readonly size: number,
    private readonly ctx: RunnerContext,
  ) {}

  async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Runs fn on an idle warm worker for key (starting one if needed). Call inside slot(). */
  async withWorker<T>(key: string, start: () => Promise<WarmWorker>, fn: (w: WarmWorker) => Promise<T>): Promise<T> {
    this.workers = this.workers.filter((w) => !w.dead);
    let worker = this.workers.find((w) => w.key === key && !w.busy);
    if (!worker) {
      const alive = this.workers.length + [...this.starting.values()].reduce((a, b) => a + b, 0);
      if (alive >= this.size) {
        const idle = this.workers.find((w) => !w.busy && w.key !== key) ?? this.workers.find((w) => !w.busy);
        if (idle) this.retire(idle);
      }
      this.starting.set(key, (this.starting.get(key) ?? 0) + 1);
      try {
        worker = await start();
      } finally {
        this.starting.set(key, (this.starting.get(key) ?? 1) - 1);
      }
      this.workers.push(worker);
    }
    worker.busy = true;
    clearTimeout(worker.idleTimer);
    try {
      return await fn(worker);
    } finally {
      worker.busy = false;
      if (worker.runs >= this.ctx.recycleAfter) this.retire(worker);
      else if (!worker.dead) {
        const idle = worker;
        idle.idleTimer = setTimeout(() => {
          if (!idle.busy) this.retire(idle);
        }, IDLE_MS);
        idle.idleTimer.unref();
      }
    }
  }

  retire(worker: WarmWorker): void {
    clearTimeout(worker.idleTimer);
    worker.kill();
    this.workers = this.workers.filter((w) => w !== worker);
  }

  stats(): { workers: number; busy: number; queued: number } {
    return { workers: this.workers.filter((w) => !w.dead).length, busy: this.active, queued: this.queue.length };
  }

  close(): void {
    for (const w of this.workers) w.kill();
    this.workers = [];
  }
}
