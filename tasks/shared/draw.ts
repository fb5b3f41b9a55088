/** Small helpers over a seeded stream: the pack may use only what its context gives it. */
export interface Draw {
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
  /** A whole-dollar amount in cents between lo and hi dollars. */
  dollars(lo: number, hi: number): number;
}

export function draw(next: () => number): Draw {
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
    dollars: (lo, hi) => int(lo, hi) * 100,
  };
}

export const money = (cents: number) => (cents / 100).toFixed(2);
