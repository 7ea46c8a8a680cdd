// The unbiased pass@k estimator of Chen et al. (Codex/HumanEval), used by Passerine as plausible@k and valid@k:
// with n samples of which c succeed, the chance that k samples drawn without replacement hold at least one
// success is 1 − C(n−c, k) / C(n, k). The binomials overflow quickly (C(200, 100) ≈ 9e58), so the ratio is
// computed as the product ∏_{i=n−c+1}^{n} (1 − k/i), which stays in [0, 1] at every factor.

/** Unbiased pass@k for one problem: n samples, c of them successful. */
export function passAtK(n: number, c: number, k: number): number {
  for (const [name, v] of [['n', n], ['c', c], ['k', k]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`pass@k: ${name} must be a non-negative integer (got ${v})`);
  }
  if (k < 1) throw new Error('pass@k: k must be at least 1 (got 0)');
  if (c > n) throw new Error(`pass@k: c (${c} successful samples) cannot exceed n (${n} samples)`);
  if (k > n) throw new Error(`pass@${k} needs at least ${k} samples per bug (have ${n}): lower k or run more samples`);
  // every draw of k samples must contain a success when fewer than k failures exist
  if (n - c < k) return 1;
  let ratio = 1;
  for (let i = n - c + 1; i <= n; i++) ratio *= 1 - k / i;
  return 1 - ratio;
}

/** The mean of pass@k over problems that have at least k samples; `counted` says how many those were. */
export function meanPassAtK(problems: readonly { n: number; c: number }[], k: number): { value: number | null; counted: number; tooFewSamples: number } {
  let sum = 0;
  let counted = 0;
  for (const p of problems) {
    if (p.n < k) continue;
    sum += passAtK(p.n, p.c, k);
    counted++;
  }
  return { value: counted ? sum / counted : null, counted, tooFewSamples: problems.length - counted };
}
