import { fromCents } from './money';

/** A copy of a row with the named cents columns shown as decimals, as every response shows money. */
export function withDecimals<R extends object>(row: R, fields: readonly (keyof R & string)[]): R {
  const out = { ...row } as Record<string, unknown>;
  for (const f of fields) {
    const v = out[f];
    if (typeof v === 'number') out[f] = fromCents(v);
  }
  return out as R;
}

