/** A benchmark figure: a name, a value and its unit. `npm run bench -- --json` prints them as one object. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export function timeIt<T>(fn: () => T): { result: T; seconds: number } {
  const start = process.hrtime.bigint();
  const result = fn();
  return { result, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

export async function timeAsync<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { result, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.floor(p * sorted.length));
  return sorted[index]!;
}

export function printFigures(title: string, figures: readonly Figure[], asJson: boolean): void {
  if (asJson) {
    process.stdout.write(JSON.stringify(Object.fromEntries(figures.map((f) => [f.name, { value: round(f.value), unit: f.unit }])), null, 2) + '\n');
    return;
  }
  const width = Math.max(...figures.map((f) => f.name.length));
  process.stdout.write(`\n${title}\n${'-'.repeat(title.length)}\n`);
  for (const f of figures) {
    process.stdout.write(`${f.name.padEnd(width)}  ${formatValue(f.value).padStart(12)} ${f.unit}${f.note ? `  (${f.note})` : ''}\n`);
  }
}

function round(v: number): number {
  return Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 1000) / 1000;
}

function formatValue(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : round(v).toString();
}

export function wantsJson(argv: readonly string[] = process.argv): boolean {
  return argv.includes('--json');
}
