/** A benchmark figure: a name, a value and its unit; a target when the issue sets one. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
  /** The most (or, with `atLeast`, the least) the figure may be, and where that bound comes from. */
  target?: { value: number; from: string; atLeast?: boolean };
}

export function timeIt<T>(fn: () => T): { result: T; seconds: number; cpuSeconds: number } {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(cpu);
  return { result, seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: (used.user + used.system) / 1e6 };
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

export function targetMet(f: Figure): boolean | undefined {
  if (!f.target) return undefined;
  return f.target.atLeast ? f.value >= f.target.value : f.value <= f.target.value;
}

export function printFigures(title: string, figures: readonly Figure[], asJson: boolean): void {
  if (asJson) {
    const out = Object.fromEntries(figures.map((f) => [f.name, {
      value: round(f.value), unit: f.unit,
      ...(f.target ? { target: round(f.target.value), target_from: f.target.from, met: targetMet(f) } : {}),
    }]));
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return;
  }
  const width = Math.max(...figures.map((f) => f.name.length));
  process.stdout.write(`\n${title}\n${'-'.repeat(title.length)}\n`);
  for (const f of figures) {
    const target = f.target ? `  [${targetMet(f) ? 'met' : 'NOT MET'}: ${f.target.atLeast ? '≥' : '≤'} ${formatValue(f.target.value)} ${f.unit}, ${f.target.from}]` : '';
    process.stdout.write(`${f.name.padEnd(width)}  ${formatValue(f.value).padStart(12)} ${f.unit}${target}${f.note ? `  (${f.note})` : ''}\n`);
  }
  const targets = figures.filter((f) => f.target);
  if (targets.length > 0) process.stdout.write(`\n${targets.filter((f) => targetMet(f)).length} of ${targets.length} targets met.\n`);
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

/** How many times each measured command runs; the best run counts (BENCH_REPEAT, default 3). */
export const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
