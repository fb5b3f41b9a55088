/** Small statistics the campaign metrics state their conventions by. */

export function median(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** Zero-based sorted index floor(0.9·n), capped at n−1: the convention of seed 000 §8's pilot. */
export function p90(sorted: readonly number[]): number | null {
  const n = sorted.length;
  return n === 0 ? null : sorted[Math.min(Math.floor(0.9 * n), n - 1)]!;
}

export const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for `successes` of `n` Bernoulli trials (95% by default): unlike the
 * normal approximation it stays inside [0, 1] and is not empty at 0 or n. Null when n is 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | null {
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
