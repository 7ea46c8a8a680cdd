import gammainc from '@stdlib/math-base-special-gammainc';

/**
 * P(X ≥ x) for X ~ χ²(df): the regularized upper incomplete gamma Q(df/2, x/2), as scipy's chi2.sf computes it.
 * Taken directly rather than as 1 − CDF so that small p-values keep their digits (1 − CDF rounds 1e-20 to 0).
 */
export function chiSquareSurvival(x: number, df: number): number {
  if (x <= 0) return 1;
  return gammainc(x / 2, df / 2, true, true);
}
