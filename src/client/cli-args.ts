import { UsageError } from './cli-errors';

/**
 * `k=v` arguments of the agent CLI. In a body each value is parsed as JSON when it parses
 * (`qty=5` → 5, `lines='[...]'` → an array, `note=late` → "late"); in a query every value is text.
 */
export function parsePairs(pairs: readonly string[], asJson: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`Expected key=value, got '${pair}'.`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    out[key] = asJson ? parseValue(raw) : raw;
  }
  return out;
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function normalisePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}
