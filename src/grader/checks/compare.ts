import type { Table } from '../csv';

export type Normalizer = 'lower' | 'whitespace' | 'alnum';

/** A value as compared: trimmed, then each normaliser in turn. */
export function normalizeText(value: string, normalize: readonly Normalizer[] = []): string {
  let v = value.trim();
  if (normalize.includes('whitespace')) v = v.replace(/\s+/g, ' ');
  if (normalize.includes('lower')) v = v.toLowerCase();
  if (normalize.includes('alnum')) v = v.replace(/[^\p{L}\p{N}]/gu, '');
  return v;
}

/** A missing key column is a task bug, reported by the check rather than thrown. */
export function missingColumns(table: Table, columns: readonly string[]): string[] {
  return columns.filter((c) => !table.columns.includes(c));
}

export interface Keyed {
  /** Normalised key → rows with that key (more than one is a duplicate). */
  rows: Map<string, Record<string, string>[]>;
}

export function keyString(row: Readonly<Record<string, string>>, key: readonly string[], normalize: readonly Normalizer[]): string {
  return JSON.stringify(key.map((k) => normalizeText(row[k] ?? '', normalize)));
}

export function byKey(table: Table, key: readonly string[], normalize: readonly Normalizer[]): Map<string, Record<string, string>[]> {
  const out = new Map<string, Record<string, string>[]>();
  for (const row of table.rows) {
    const k = keyString(row, key, normalize);
    const list = out.get(k) ?? [];
    list.push(row);
    out.set(k, list);
  }
  return out;
}

export function keyOf(row: Readonly<Record<string, string>>, key: readonly string[]): Record<string, string> {
  return Object.fromEntries(key.map((k) => [k, row[k] ?? '']));
}

/** Sorted map keys, so reports list rows in one order. */
export function sortedKeys<V>(map: ReadonlyMap<string, V>): string[] {
  return [...map.keys()].sort();
}
