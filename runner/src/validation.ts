// POST /v1/validate: picks the warm or cold path, shares verdicts between equal candidates (verdict-cache.ts), and
// shapes the result.
// POST /v1/validate-batch: many overlays of one snapshot (write_fix's variants), spread over the warm workers.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { Limits, ValidateBatchRequest, ValidateRequest, type ValidationResult } from '../../worker/contracts/runner-api.ts';
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import { coldValidate } from './cold.ts';
import { classNameOf, normaliseLayout, type RunnerContext } from './context.ts';
import { HttpError } from './errors.ts';
import { checkLayoutSettings, uploadedJarFiles } from './project-settings.ts';
import { crossChecked, skipsJudged, toValidationResult, wouldPass, type HarnessAnswer, type SuiteExpectation } from './results.ts';
import { suiteFilter } from './test-suite.ts';
import { checkTestEdits } from './test-edit-check.ts';
import { checkRepoPath } from './store.ts';
import { stableJson, VerdictCache, verdictKey, type VerdictKey } from './verdict-cache.ts';
import { WarmStartError, WarmWorker, WorkerPool } from './warm.ts';

type ParsedRequest = z.output<typeof ValidateRequest>;
type ParsedBatchRequest = z.output<typeof ValidateBatchRequest>;

export class ValidationService {
  private cache = new VerdictCache(1000);
  /** validations under way by cache key: an equal candidate asked meanwhile waits for that verdict, not a JVM */
  private inflight = new Map<string, Promise<unknown>>();
  /** keys whose warm worker failed to start recently → go cold for a while */
  private warmBroken = new Map<string, number>();
  /** the suite's test ids per (snapshot, layout), from the first clean run of the whole, unpatched-tests suite */
  private suites = new Map<string, string[]>();
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
    checkLayoutSettings(layout);
    // a jar the runner lacks is answered (409 missing-jars) before any work starts
    await uploadedJarFiles(this.ctx.store, layout);
    const limits = Limits.parse(req.limits ?? {});
    const tree = await this.ctx.store.tree(req.treeId);
    for (const [p, content] of Object.entries(req.overlay)) {
      if (content === null && !tree.manifest.files.some((f) => f.path === p)) {
        throw new HttpError(400, 'bad-request', `overlay deletes "${p}", which is not in snapshot ${req.treeId}.`);
      }
    }
    // the tests that define the bug are not the patch's to change (400 test-edit), before any work starts
    checkTestEdits(req.overlay, layout, new Set(tree.manifest.files.map((f) => f.path)), req.testEdits);
    const cacheKey = verdictKey({ treeId: req.treeId, layout, tests: req.tests, limits, coverage: req.coverage, path: req.path === 'cold' ? 'cold' : 'warm' }, req.overlay);
    const javaOnly = Object.keys(req.overlay).every((p) => p.endsWith('.java') && [...layout.sourceDirs, ...layout.testDirs].some((d) => p.startsWith(`${d}/`)));
    const warmKey = `${req.treeId}:${createHash('sha256').update(stableJson(layout)).digest('hex').slice(0, 16)}`;
    const tryWarm = req.path !== 'cold' && javaOnly && (this.warmBroken.get(warmKey) ?? 0) < Date.now();
    // the test classes a run of the suite must account for: the snapshot's test sources as the overlay leaves them
    const inTests = (p: string) => classNameOf(p, layout.testDirs) !== undefined;
    const testFiles = new Set(tree.manifest.files.map((f) => f.path).filter(inTests));
    for (const [p, content] of Object.entries(req.overlay)) {
      if (!inTests(p)) continue;
      if (content === null) testFiles.delete(p);
      else testFiles.add(p);
    }
    const testsUntouched = !Object.keys(req.overlay).some(inTests);
    // ... those of the suite (layout.suiteFiles); the others are left out of the run as excluded classes
    const inSuite = suiteFilter(layout);
    const allTestClasses = [...testFiles].map((p) => classNameOf(p, layout.testDirs)!).sort();
    const testClasses = allTestClasses.filter(inSuite);
    const outsideSuite = allTestClasses.filter((c) => !inSuite(c));
    return { layout, limits, tree, cacheKey, warmKey, tryWarm, testClasses, outsideSuite, testsUntouched };
  }

  /** Refuses a pass that does not account for the suite, and learns the suite's ids from a clean run. */
  private checked(answer: HarnessAnswer, req: ParsedRequest, prep: { warmKey: string; testClasses: string[]; testsUntouched: boolean }): HarnessAnswer {
    const expected: SuiteExpectation = { testClasses: answer.testClasses ?? prep.testClasses };
    const known = prep.testsUntouched ? this.suites.get(prep.warmKey) : undefined;
    if (known) expected.ids = known;
    const checked = crossChecked(answer, req.tests, expected);
    if (prep.testsUntouched && !known && req.tests.mode !== 'listed' && checked.stopped === 'none' && clean(checked) && checked.suite) {
      if (this.suites.size >= 1000) this.suites.clear();
      this.suites.set(prep.warmKey, Object.values(checked.suite).flat().sort());
    }
    return checked;
  }

  /**
   * Skips judged as failures where they must be passes (results.ts skipsJudged). Trigger tests are known from the
   * request; for the others the snapshot's own results are needed, and only when they decide the verdict: a pass
   * with skips asks for one run of the whole suite without the overlay (memoised per snapshot, layout and limits).
   */
  private async skipsJudged(answer: HarnessAnswer, req: ParsedRequest): Promise<HarnessAnswer> {
    if (!answer.tests.some((t) => t.status === 'skipped')) return answer;
    const judged = skipsJudged(answer, req.tests);
    if (!wouldPass(judged, req.tests) || Object.keys(req.overlay).length === 0) return judged;
    const unpatched = await this.unpatchedStatuses(req);
    if (!unpatched) {
      const skipped = judged.tests.filter((t) => t.status === 'skipped').length;
      const crashReason = `verdict refused: ${skipped} test(s) skipped, and the unpatched version's results, which decide whether a skip may count as a pass, could not be had`;
      return { ...judged, stopped: 'crash', crashReason, refused: true };
    }
    return skipsJudged(judged, req.tests, unpatched);
  }

  private unpatched = new Map<string, Map<string, string>>();

  /** Test id → status of a whole-suite run of the snapshot without overlay; undefined when that run did not end clean. */
  private async unpatchedStatuses(req: ParsedRequest): Promise<Map<string, string> | undefined> {
    const key = createHash('sha256').update(stableJson({ treeId: req.treeId, layout: req.layout, limits: req.limits ?? {} })).digest('hex');
    const known = this.unpatched.get(key);
    if (known) return known;
    const base = await this.validate(
      ValidateRequest.parse({ treeId: req.treeId, overlay: {}, layout: req.layout, tests: { mode: 'all' }, ...(req.limits ? { limits: req.limits } : {}), path: req.path }),
    );
    if (base.stopped === 'crash' || base.stopped === 'wall-clock' || base.tests.some((t) => t.status === 'timeout')) return undefined;
    const statuses = new Map(base.tests.map((t) => [t.id, t.status]));
    if (this.unpatched.size >= 1000) this.unpatched.clear();
    this.unpatched.set(key, statuses);
    return statuses;
  }

  /** Caches a verdict only from a validation that ended clean (no crash, stop by the clock, timeout, poisoning or refusal). */
  private remember(cacheKey: VerdictKey, answer: HarnessAnswer, result: ValidationResult): void {
    if (clean(answer)) this.cache.set(cacheKey, result);
  }

  async validate(req: ParsedRequest): Promise<ValidationResult> {
    const started = Date.now();
    const prep = await this.prepare(req);
    const { cacheKey } = prep;
    const cachedResult = () => {
      const hit = this.cache.get(cacheKey);
      return hit ? { ...hit, cached: true, timingsMs: { ...hit.timingsMs, total: Date.now() - started } } : undefined;
    };
    const hit = cachedResult();
    if (hit) return hit;
    const other = this.inflight.get(cacheKey.key);
    if (other) {
      await other.catch(() => undefined);
      // an equal candidate's verdict, unless its run did not end clean (then this one runs on its own)
      const after = cachedResult();
      if (after) return after;
    }
    const run = this.run(req, prep, started);
    this.inflight.set(cacheKey.key, run);
    try {
      return await run;
    } finally {
      if (this.inflight.get(cacheKey.key) === run) this.inflight.delete(cacheKey.key);
    }
  }

  private async run(req: ParsedRequest, prep: Awaited<ReturnType<ValidationService['prepare']>>, started: number): Promise<ValidationResult> {
    const { layout, limits, tree, cacheKey, warmKey, tryWarm } = prep;

    let answer: HarnessAnswer | undefined;
    let path: 'warm' | 'cold' = 'cold';
    if (tryWarm) {
      answer = await this.onWarmWorker(warmKey, req.treeId, tree.dir, layout, async (w) => {
        const a = await w.validate({ overlay: req.overlay, tests: req.tests, limits, coverage: req.coverage, outsideSuite: prep.outsideSuite });
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
    answer = await this.skipsJudged(this.checked(answer, req, prep), req);
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
      testEdits: req.testEdits,
    }));
    const prepared = await Promise.all(singles.map((s) => this.prepare(s)));
    const results: Array<ValidationResult | undefined> = prepared.map((p) => {
      const hit = this.cache.get(p.cacheKey);
      return hit ? { ...hit, cached: true, timingsMs: { ...hit.timingsMs, total: Date.now() - started } } : undefined;
    });
    // candidates equal to an earlier one of the batch (or one under way) wait for its verdict (validate, below)
    const seen = new Set<string>(this.inflight.keys());
    const firsts = prepared.map((p) => !seen.has(p.cacheKey.key) && (seen.add(p.cacheKey.key), true));
    const warm = results.flatMap((r, i) => (r === undefined && firsts[i] && prepared[i]!.tryWarm ? [i] : []));
    const chunks = Math.min(this.pool.size, Math.ceil(warm.length / 2));
    // dealt round-robin: neighbouring variants tend to be alike (cheap failures, full-suite passes, compile errors)
    const batches: number[][] = Array.from({ length: chunks }, (_, c) => warm.filter((_, k) => k % chunks === c));
    await Promise.all(
      batches.map(async (indices) => {
        const first = prepared[indices[0]!]!;
        const answers = await this.onWarmWorker(first.warmKey, req.treeId, first.tree.dir, first.layout, async (w) => {
          const a = await w.validateBatch(indices.map((i) => ({ overlay: singles[i]!.overlay, tests: req.tests, limits: prepared[i]!.limits, coverage: req.coverage, outsideSuite: prepared[i]!.outsideSuite })));
          if (a.some((x) => x === null || x.poisoned)) this.pool.retire(w);
          return a;
        });
        await Promise.all(
          indices.map(async (i, k) => {
            const raw = answers?.[k];
            // unanswered, or the JVM crashed under it: validated alone (which retries a crash cold)
            if (!raw || (raw.stopped === 'crash' && req.path === 'auto')) return;
            const answer = await this.skipsJudged(this.checked(raw, singles[i]!, prepared[i]!), singles[i]!);
            const result = toValidationResult(answer, req.tests, 'warm', Date.now() - started);
            this.remember(prepared[i]!.cacheKey, answer, result);
            results[i] = result;
          }),
        );
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

/** A validation that ended clean: its verdict does not depend on load, and nothing hostile was detected. */
function clean(answer: HarnessAnswer): boolean {
  return (
    answer.stopped !== 'crash' &&
    answer.stopped !== 'wall-clock' &&
    !answer.poisoned &&
    !answer.refused &&
    !answer.tests.some((t) => t.status === 'timeout')
  );
}
