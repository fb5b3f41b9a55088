/**
 * How many passes blind guessing should get: each run passes with its own probability, so the count
 * follows a Poisson-binomial distribution. `expected` is its mean; `upper` the smallest count that
 * chance reaches or stays under with probability at least `level`.
 */
export function chanceOfPasses(probabilities: readonly number[], level = 0.95): { expected: number; upper: number; distribution: number[] } {
  let dist = [1];
  for (const p of probabilities) {
    if (p < 0 || p > 1) throw new RangeError(`A probability must lie in [0, 1], not ${p}.`);
    const next = new Array<number>(dist.length + 1).fill(0);
    dist.forEach((q, k) => {
      next[k]! += q * (1 - p);
      next[k + 1]! += q * p;
    });
    dist = next;
  }
  let cumulative = 0;
  let upper = dist.length - 1;
  for (let k = 0; k < dist.length; k++) {
    cumulative += dist[k]!;
    if (cumulative >= level - 1e-12) {
      upper = k;
      break;
    }
  }
  return { expected: probabilities.reduce((s, p) => s + p, 0), upper, distribution: dist };
}
