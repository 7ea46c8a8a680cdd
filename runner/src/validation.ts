// POST /v1/validate: picks the warm or cold path, caches verdicts by content hash, and shapes the result.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { Limits, ValidateRequest, type ValidationResult } from '../../worker/contracts/runner-api.ts';
import { coldValidate } from './cold.ts';
import { normaliseLayout, type RunnerContext } from './context.ts';
import { HttpError } from './errors.ts';
import { projectJars } from './java-env.ts';
import { toValidationResult, type HarnessAnswer } from './results.ts';
import { checkRepoPath } from './store.ts';
import { WarmStartError, WarmWorker, WorkerPool } from './warm.ts';

type ParsedRequest = z.output<typeof ValidateRequest>;

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

  async validate(req: ParsedRequest): Promise<ValidationResult> {
    const started = Date.now();
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
      if (content === null && !tree.manifest.files.some((f) => f.path === p) ) {
        throw new HttpError(400, 'bad-request', `overlay deletes "${p}", which is not in snapshot ${req.treeId}.`);
      }
    }

    const cacheKey = createHash('sha256')
      .update(stableJson({ treeId: req.treeId, overlay: req.overlay, layout, tests: req.tests, limits, coverage: req.coverage, path: req.path === 'cold' ? 'cold' : 'warm' }))
      .digest('hex');
    const hit = this.cache.get(cacheKey);
    if (hit) return { ...hit, cached: true, timingsMs: { ...hit.timingsMs, total: Date.now() - started } };

    const javaOnly = Object.keys(req.overlay).every((p) => p.endsWith('.java') && [...layout.sourceDirs, ...layout.testDirs].some((d) => p.startsWith(`${d}/`)));
    const warmKey = `${req.treeId}:${createHash('sha256').update(stableJson(layout)).digest('hex').slice(0, 16)}`;
    const brokenUntil = this.warmBroken.get(warmKey) ?? 0;
    const tryWarm = req.path !== 'cold' && javaOnly && brokenUntil < Date.now();

    let answer: HarnessAnswer | undefined;
    let path: 'warm' | 'cold' = 'cold';
    if (tryWarm) {
      answer = await this.pool.slot(async () => {
        try {
          return await this.pool.withWorker(
            warmKey,
            () => WarmWorker.start(this.ctx, warmKey, req.treeId, tree.dir, layout),
            async (w) => {
              const a = await w.validate({ overlay: req.overlay, tests: req.tests, limits, coverage: req.coverage });
              if (a.poisoned) this.pool.retire(w);
              return a;
            },
          );
        } catch (e) {
          if (e instanceof WarmStartError) {
            this.warmBroken.set(warmKey, Date.now() + 60_000);
            return undefined;
          }
          throw e;
        }
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
    // crashes, wall-clock stops and timeouts depend on machine load: do not cache them
    const loadDependent = answer.stopped === 'crash' || answer.stopped === 'wall-clock' || answer.tests.some((t) => t.status === 'timeout');
    if (!loadDependent) this.cache.set(cacheKey, result);
    return result;
  }

  close(): void {
    this.pool.close();
  }
}
