import seedrandom from 'seedrandom';

/**
 * A named random stream derived from a scenario seed. Each part of a generator draws from its own
 * stream (`rng(seed, 'vendors')`), so adding draws to one part never shifts another's.
 */
export class Rng {
  private readonly next: () => number;

  constructor(seed: number | string, name: string) {
    this.next = seedrandom(`bb-erp:${seed}:${name}`);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A new array in a random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `n` distinct items, in a random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    if (n > items.length) throw new Error(`cannot sample ${n} of ${items.length}`);
    return this.shuffle(items).slice(0, n);
  }

  /** Cents in [lo, hi], a multiple of `step` cents. */
  cents(lo: number, hi: number, step = 1): number {
    return this.int(Math.ceil(lo / step), Math.floor(hi / step)) * step;
  }

  /** A string of `n` decimal digits, the first not zero. */
  digits(n: number): string {
    let s = String(this.int(1, 9));
    while (s.length < n) s += String(this.int(0, 9));
    return s;
  }
}

export function rng(seed: number | string, name: string): Rng {
  return new Rng(seed, name);
}
