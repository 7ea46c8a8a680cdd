// POST /v1/validate: picks the warm or cold path, caches verdicts by content hash, and shapes the result.
// POST /v1/validate-batch: many overlays of one snapshot (write_fix's variants), spread over the warm workers.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { Limits, ValidateBatchRequest, ValidateRequest, type ValidationResult } from '../../worker/contracts/runner-api.ts';
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import { coldValidate } from './cold.ts';
import { normaliseLayout, type RunnerContext } from './context.ts';
import { HttpError } from './errors.ts';
import { projectJars } from './java-env.ts';
import { toValidationResult, type HarnessAnswer } from './results.ts';
import { checkRepoPath } from './store.ts';
import { WarmStartError, WarmWorker, WorkerPool } from './warm.ts';

type ParsedRequest = z.output<typeof ValidateRequest>;
type ParsedBatchRequest = z.output<typeof ValidateBatchRequest>;

/** Least-recently-used verdicts keyed by the hash of everything that decides them. */
class ResultCache {
  private map = new Map<string, ValidationResult>();
  constructor(private readonly capacity: number) {}

  get(key: string): ValidationResult | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: ValidationResult): void {
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export class ValidationService {
  private cache = new ResultCache(1000);
  /** keys whose warm worker failed to start recently → go cold for a while */
  private warmBroken = new Map<string, number>();
  readonly pool: WorkerPool;

  constructor(
    private readonly ctx: RunnerContext,
    workers: number,
  ) {
    this.pool = new WorkerPool(workers, ctx);
  }

  /** Checks a request and works out its cache key and whether it may take the warm path. */
  private async prepare(req: ParsedRequest) {
    const layout = normaliseLayout(req.layout);
    for (const d of [...layout.sourceDirs, ...layout.testDirs, ...layout.resourceDirs, ...layout.testResourceDirs]) checkRepoPath(d, 'layout');
    for (const p of Object.keys(req.overlay)) checkRepoPath(p, 'overlay');
    try {
      projectJars(layout.junit, layout.classpath);
    } catch (e) {
      throw new HttpError(400, 'bad-request', (e as Error).message);
    }
    const limits = Limits.parse(req.limits ?? {});
    const tree = await this.ctx.store.tree(req.treeId);
    for (const [p, content] of Object.entries(req.overlay)) {
      if (content === null && !tree.manifest.files.some((f) => f.path === p)) {
        throw new HttpError(400, 'bad-request', `overlay deletes "${p}", which is not in snapshot ${req.treeId}.`);
      }
    }
    const cacheKey = createHash('sha256')
      .update(stableJson({ treeId: req.treeId, overlay: req.overlay, layout, tests: req.tests, limits, coverage: req.coverage, path: req.path === 'cold' ? 'cold' : 'warm' }))
      .digest('hex');
    const javaOnly = Object.keys(req.overlay).every((p) => p.endsWith('.java') && [...layout.sourceDirs, ...layout.testDirs].some((d) => p.startsWith(`${d}/`)));
    const warmKey = `${req.treeId}:${createHash('sha256').update(stableJson(layout)).digest('hex').slice(0, 16)}`;
    const tryWarm = req.path !== 'cold' && javaOnly && (this.warmBroken.get(warmKey) ?? 0) < Date.now();
    return { layout, limits, tree, cacheKey, warmKey, tryWarm };
  }

  /** Caches a verdict unless it depends on machine load (crashes, wall-clock stops, timeouts). */
  private remember(cacheKey: string, answer: HarnessAnswer, result: ValidationResult): void {
    const loadDependent = answer.stopped === 'crash' || answer.stopped === 'wall-clock' || answer.tests.some((t) => t.status === 'timeout');
    if (!loadDependent) this.cache.set(cacheKey, result);
  }

  async validate(req: ParsedRequest): Promise<ValidationResult> {
    const started = Date.now();
    const { layout, limits, tree, cacheKey, warmKey, tryWarm } = await this.prepare(req);
    const hit = this.cache.get(cacheKey);
    if (hit) return { ...hit, cached: true, timingsMs: { ...hit.timingsMs, total: Date.now() - started } };

    let answer: HarnessAnswer | undefined;
    let path: 'warm' | 'cold' = 'cold';
    if (tryWarm) {
      answer = await this.onWarmWorker(warmKey, req.treeId, tree.dir, layout, async (w) => {
        const a = await w.validate({ overlay: req.overlay, tests: req.tests, limits, coverage: req.coverage });
        if (a.poisoned) this.pool.retire(w);
        return a;
      });
      path = 'warm';
      // a crashed warm run (the JVM died) is retried once on the cold path for an exact account, unless the
      // caller insisted on the warm path
      if (answer && answer.stopped === 'crash' && req.path === 'auto') answer = undefined;
    }
    if (!answer) {
      path = 'cold';
      answer = await this.pool.slot(() =>
        coldValidate(this.ctx, { treeId: req.treeId, treeDir: tree.dir, overlay: req.overlay, layout, tests: req.tests, limits, coverage: req.coverage }),
      );
    }
    const result = toValidationResult(answer, req.tests, path, Date.now() - started);
    this.remember(cacheKey, answer, result);
    return result;
  }

  /**
   * Several validations of one snapshot with the same tests, layout and limits — write_fix's variants. Cached ones
   * are answered from the cache; the rest are split over the warm workers, each taking its share as one batch (the
   * harness compiles variants that differ only inside method bodies together, once). Anything a batch could not
   * answer, and anything that cannot go warm, is validated on its own. Results come in request order.
   */
  async validateBatch(req: ParsedBatchRequest): Promise<ValidationResult[]> {
    const started = Date.now();
    const singles: ParsedRequest[] = req.overlays.map((overlay) => ({
      treeId: req.treeId,
      overlay,
      layout: req.layout,
      tests: req.tests,
      ...(req.limits ? { limits: req.limits } : {}),
      path: req.path,
      coverage: req.coverage,
    }));
    const prepared = await Promise.all(singles.map((s) => this.prepare(s)));
    const results: Array<ValidationResult | undefined> = prepared.map((p) => {
      const hit = this.cache.get(p.cacheKey);
      return hit ? { ...hit, cached: true, timingsMs: { ...hit.timingsMs, total: Date.now() - started } } : undefined;
    });
    const warm = results.flatMap((r, i) => (r === undefined && prepared[i]!.tryWarm ? [i] : []));
    const chunks = Math.min(this.pool.size, Math.ceil(warm.length / 2));
    // dealt round-robin: neighbouring variants tend to be alike (cheap failures, full-suite passes, compile errors)
    const batches: number[][] = Array.from({ length: chunks }, (_, c) => warm.filter((_, k) => k % chunks === c));
    await Promise.all(
      batches.map(async (indices) => {
        const first = prepared[indices[0]!]!;
        const answers = await this.onWarmWorker(first.warmKey, req.treeId, first.tree.dir, first.layout, async (w) => {
          const a = await w.validateBatch(indices.map((i) => ({ overlay: singles[i]!.overlay, tests: req.tests, limits: prepared[i]!.limits, coverage: req.coverage })));
          if (a.some((x) => x === null || x.poisoned)) this.pool.retire(w);
          return a;
        });
        indices.forEach((i, k) => {
          const answer = answers?.[k];
          // unanswered, or the JVM crashed under it: validated alone (which retries a crash cold)
          if (!answer || (answer.stopped === 'crash' && req.path === 'auto')) return;
          const result = toValidationResult(answer, req.tests, 'warm', Date.now() - started);
          this.remember(prepared[i]!.cacheKey, answer, result);
          results[i] = result;
        });
      }),
    );
    return Promise.all(results.map((r, i) => r ?? this.validate(singles[i]!)));
  }

  /** Runs fn on a warm worker of the snapshot (in a pool slot); undefined when the worker cannot start (go cold). */
  private async onWarmWorker<T>(warmKey: string, treeId: string, treeDir: string, layout: ProjectLayout, fn: (w: WarmWorker) => Promise<T>): Promise<T | undefined> {
    return this.pool.slot(async () => {
      try {
        return await this.pool.withWorker(warmKey, () => WarmWorker.start(this.ctx, warmKey, treeId, treeDir, layout), fn);
      } catch (e) {
        if (e instanceof WarmStartError) {
          this.warmBroken.set(warmKey, Date.now() + 60_000);
          return undefined;
        }
        throw e;
      }
    });
  }

  close(): void {
    this.pool.close();
  }
}
