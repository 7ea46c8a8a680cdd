// `bench validation --candidates realistic` and `bench fidelity`: one bug's realistic candidate set
// (realistic-candidates.ts) validated, side by side in one runner:
//   cold      the fix (and the first mutants) on the cold path: fresh javac + JVM, failing-first
//   warm fix  the fix alone on the warm path
//   one by one every candidate on the warm path in turn, as an agent's validations arrive (failing-first, relevant
//             test classes first, equal candidates sharing a verdict)
//   batch     every candidate in one /v1/validate-batch request (write_fix's path: merged compiles, parallel workers)
//   plain     (fidelity) every candidate alone, the whole suite (`tests: all`), never from the cache: the reference
// Every phase asks with limits of its own, which are part of the cache key, so no phase is served by another's work.
import os from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { median } from 'simple-statistics';
import type { ValidationResult } from '../../worker/contracts/runner-api.ts';
import { RunnerClient } from '../../worker/runner-client/client.ts';
import { startRunner } from '../src/index.ts';
import { realisticCandidates, type Candidate, type CandidateKind } from './realistic-candidates.ts';
import type { BenchSubject } from './validation.ts';

export type Verdict = 'plausible' | 'fails' | 'does-not-compile' | 'unfinished';

export interface CandidateRow {
  index: number;
  kind: CandidateKind;
  label: string;
  verdict: Verdict;
  warm_ms: number;
  /** answered from an equal candidate's verdict */
  shared: boolean;
  batch_ms: number;
  cold_ms?: number;
  /** fidelity: the plain whole-suite verdict, and whether every fast path agreed with it */
  plain?: Verdict;
  agrees?: boolean;
  disagreement?: string;
}

export interface RealisticBench {
  bug: string;
  candidates: number;
  isolation: string;
  cold_fix_ms: number;
  warm_fix_ms: number;
  /** cold_fix_ms / warm_fix_ms (goal ≥ 30) */
  fix_ratio: number;
  one_by_one_ms: number;
  /** the whole set one by one, over one warm validation of the fix (goal ≤ 4) */
  one_by_one_ratio: number;
  batch_ms: number;
  batch_ratio: number;
  /** median warm one-by-one time of the candidates that fail their tests (goal ≤ 500 ms, or ≤ 10% of the fix's) */
  failing_median_ms: number;
  per_kind: Record<string, { count: number; verdicts: Record<string, number>; warm_median_ms: number; shared: number }>;
  rows: CandidateRow[];
  /** fidelity: how many candidates' fast-path verdicts equal the plain one (undefined when not checked) */
  fidelity?: { checked: number; agree: number };
}

function verdictOf(r: ValidationResult): Verdict {
  if (!r.compiled) return 'does-not-compile';
  if (r.stopped === 'crash' || r.stopped === 'wall-clock') return 'unfinished';
  return r.plausible ? 'plausible' : 'fails';
}

const round = (x: number) => Math.round(x);

export async function benchRealistic(subject: BenchSubject, opts: { fidelity?: boolean; coldMutants?: number; workers?: number; log?: (line: string) => void } = {}): Promise<RealisticBench> {
  const log = opts.log ?? (() => undefined);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-bench-realistic-'));
  const runner = await startRunner({ port: 0, dataDir, workers: opts.workers ?? os.availableParallelism(), log: () => undefined });
  try {
    const client = new RunnerClient({ url: runner.url, token: runner.token });
    const buggy: Record<string, string> = {};
    for (const f of Object.keys(subject.fix)) buggy[f] = await subject.workspace.read(f).catch(() => '');
    const candidates = realisticCandidates(subject, buggy);
    let phase = 0;
    const limits = () => ({ perTestTimeoutMs: 10_000 + ++phase, wallClockMs: 1_800_000 });
    const ws = (c: Candidate) => {
      const w = subject.workspace.fork();
      w.setOverlay(c.overlay);
      return w;
    };
    const timed = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
      const t0 = performance.now();
      const v = await fn();
      return [performance.now() - t0, v];
    };
    // warm-up (not measured): the warm worker starts and compiles the project; the JIT settles on a few validations
    log(`${subject.id}: warming up`);
    for (let i = 0; i < 2; i++) await client.validate(ws(candidates[1] ?? candidates[0]!), subject.layout, subject.tests, { path: 'warm', limits: limits() });
    // ... and every worker of the pool starts (a batch spreads over them), on the mutants
    const pool = opts.workers ?? os.availableParallelism();
    const mutants = candidates.filter((c) => c.kind === 'mutant').slice(0, 2 * pool);
    if (mutants.length) await client.validateBatch(mutants.map(ws), subject.layout, subject.tests, { path: 'warm', limits: limits() });

    const [coldFix, coldFixResult] = await timed(() => client.validate(ws(candidates[0]!), subject.layout, subject.tests, { path: 'cold', limits: limits() }));
    log(`${subject.id}: cold fix ${round(coldFix)} ms (${verdictOf(coldFixResult)})`);
    const [warmFix, warmFixResult] = await timed(() => client.validate(ws(candidates[0]!), subject.layout, subject.tests, { path: 'warm', limits: limits() }));
    log(`${subject.id}: warm fix ${round(warmFix)} ms (${verdictOf(warmFixResult)})`);
    if (coldFixResult.path !== 'cold' || warmFixResult.path !== 'warm' || !coldFixResult.plausible || !warmFixResult.plausible) {
      throw new Error(
        `${subject.id}: the developer fix did not validate as expected (cold: ${verdictOf(coldFixResult)} on ${coldFixResult.path}, warm: ${verdictOf(warmFixResult)} on ${warmFixResult.path}); ` +
          'check the bug first with `repairlab defects4j check` or `repairlab validate <bug> --patch ground-truth --tests all`',
      );
    }
    const rows: CandidateRow[] = candidates.map((c, index) => ({ index, kind: c.kind, label: c.label, verdict: 'unfinished', warm_ms: 0, shared: false, batch_ms: 0 }));
    rows[0]!.cold_ms = round(coldFix);
    for (let k = 1; k <= (opts.coldMutants ?? 2) && k < candidates.length && candidates[k]!.kind === 'mutant'; k++) {
      const [ms] = await timed(() => client.validate(ws(candidates[k]!), subject.layout, subject.tests, { path: 'cold', limits: limits() }));
      rows[k]!.cold_ms = round(ms);
    }

    // one by one: one keyspace for the whole set, so equal candidates share verdicts as in an agent's run
    const oneByOne = limits();
    const fast: ValidationResult[] = [];
    const [oneMs] = await timed(async () => {
      for (const [i, c] of candidates.entries()) {
        const [ms, r] = await timed(() => client.validate(ws(c), subject.layout, subject.tests, { path: 'warm', limits: oneByOne }));
        fast.push(r);
        Object.assign(rows[i]!, { verdict: verdictOf(r), warm_ms: round(ms), shared: r.cached });
      }
    });
    log(`${subject.id}: ${candidates.length} candidates one by one ${round(oneMs)} ms`);
    const [batchMs, batch] = await timed(() => client.validateBatch(candidates.map(ws), subject.layout, subject.tests, { path: 'warm', limits: limits() }));
    batch.forEach((r, i) => (rows[i]!.batch_ms = round(r.timingsMs.total)));
    log(`${subject.id}: batch ${round(batchMs)} ms`);

    let fidelity: RealisticBench['fidelity'];
    if (opts.fidelity) {
      let agree = 0;
      for (const [i, c] of candidates.entries()) {
        const plain = await client.validate(ws(c), subject.layout, { mode: 'all' }, { path: 'warm', limits: limits() });
        const row = rows[i]!;
        row.plain = verdictOf(plain);
        const problems: string[] = [];
        for (const [name, r] of [['one by one', fast[i]!], ['batch', batch[i]!]] as const) {
          if (verdictOf(r) !== row.plain) problems.push(`${name}: ${verdictOf(r)}`);
          // a test the fast path saw fail must fail in the whole suite too
          const plainFailing = new Set(plain.failingTests);
          const extra = r.failingTests.filter((t) => !plainFailing.has(t));
          if (extra.length) problems.push(`${name} fails ${extra.join(', ')}, which pass(es) in the whole suite`);
        }
        row.agrees = problems.length === 0;
        if (!row.agrees) row.disagreement = problems.join('; ');
        if (row.agrees) agree++;
      }
      fidelity = { checked: candidates.length, agree };
      log(`${subject.id}: fidelity ${agree}/${candidates.length}`);
    }

    const perKind: RealisticBench['per_kind'] = {};
    for (const r of rows) {
      const k = (perKind[r.kind] ??= { count: 0, verdicts: {}, warm_median_ms: 0, shared: 0 });
      k.count++;
      k.verdicts[r.verdict] = (k.verdicts[r.verdict] ?? 0) + 1;
      if (r.shared) k.shared++;
    }
    for (const [kind, k] of Object.entries(perKind)) k.warm_median_ms = round(median(rows.filter((r) => r.kind === kind).map((r) => r.warm_ms)));
    const failing = rows.filter((r) => r.verdict === 'fails' && !r.shared).map((r) => r.warm_ms);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      bug: subject.id,
      candidates: candidates.length,
      isolation: runner.isolation.backend,
      cold_fix_ms: round(coldFix),
      warm_fix_ms: round(warmFix),
      fix_ratio: ratio(coldFix, warmFix),
      one_by_one_ms: round(oneMs),
      one_by_one_ratio: ratio(oneMs, warmFix),
      batch_ms: round(batchMs),
      batch_ratio: ratio(batchMs, warmFix),
      failing_median_ms: failing.length ? round(median(failing)) : 0,
      per_kind: perKind,
      rows,
      ...(fidelity ? { fidelity } : {}),
    };
  } finally {
    await runner.close();
    for (const clean of [() => rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }), subject.cleanup]) {
      await clean().catch((e: Error) => console.error(`warning: could not remove a temporary directory of the bench: ${e.message}`));
    }
  }
}

/** The bench as text: the side-by-side figures, per kind, then per candidate. */
export function realisticText(r: RealisticBench): string {
  const lines = [
    `${r.bug}: ${r.candidates} realistic candidates (${r.isolation})`,
    `  fix: cold ${r.cold_fix_ms} ms, warm ${r.warm_fix_ms} ms = ${r.fix_ratio}× (goal ≥ 30)`,
    `  set: one by one ${r.one_by_one_ms} ms = ${r.one_by_one_ratio}× one warm fix; one batch ${r.batch_ms} ms = ${r.batch_ratio}× (goal ≤ 4)`,
    `  failing candidates (validated, not shared): median warm ${r.failing_median_ms} ms (goal ≤ 500 ms, or ≤ 10% of the fix's)`,
    ...(r.fidelity ? [`  fidelity: ${r.fidelity.agree}/${r.fidelity.checked} fast-path verdicts equal the plain whole-suite one`] : []),
    '  per kind:',
    ...Object.entries(r.per_kind).map(([k, v]) => `    ${k}: ${v.count} (${Object.entries(v.verdicts).map(([vv, n]) => `${n} ${vv}`).join(', ')}), warm median ${v.warm_median_ms} ms, ${v.shared} shared`),
    '  per candidate (warm one by one | in the batch | cold):',
    ...r.rows.map(
      (x) =>
        `    ${String(x.index).padStart(2)} ${x.kind.padEnd(15)} ${x.verdict.padEnd(16)} ${String(x.warm_ms).padStart(7)} ms${x.shared ? ' shared' : '       '} | ${String(x.batch_ms).padStart(7)} ms | ${x.cold_ms !== undefined ? `${x.cold_ms} ms` : '-'}  ${x.label}${x.plain ? `  plain: ${x.plain}${x.agrees ? '' : ` DISAGREES (${x.disagreement})`}` : ''}`,
    ),
  ];
  return lines.join('\n');
}
