/**
 * TOML for the files Harbor reads (task.toml, dataset.toml): a writer for plain data, strings,
 * finite numbers, booleans, arrays of scalars, tables and arrays of tables. Keys are quoted when
 * they are not bare; strings are written as basic strings with JSON's escapes, which TOML shares.
 */
export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue | undefined;
}

const BARE = /^[A-Za-z0-9_-]+$/;

function key(k: string): string {
  return BARE.test(k) ? k : JSON.stringify(k);
}

function isTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An array of tables that holds tables itself gets `[[…]]` sections; one of flat tables is written inline. */
function isTableArray(v: TomlValue | undefined): v is TomlTable[] {
  return Array.isArray(v) && v.length > 0 && v.every(isTable) && v.some((t) => Object.values(t).some((x) => isTable(x) || (Array.isArray(x) && x.some(isTable))));
}

function scalar(v: TomlValue, path: string): string {
  if (typeof v === 'string') return JSON.stringify(v).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`${path} is not a finite number.`);
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map((x, i) => (isTable(x) ? inlineTable(x, `${path}[${i}]`) : scalar(x, `${path}[${i}]`))).join(', ')}]`;
  return inlineTable(v, path);
}

function inlineTable(t: TomlTable, path: string): string {
  const parts = Object.entries(t).filter(([, v]) => v !== undefined).map(([k, v]) => `${key(k)} = ${scalar(v!, `${path}.${k}`)}`);
  return parts.length ? `{ ${parts.join(', ')} }` : '{}';
}

function section(t: TomlTable, path: string[], header: string | undefined, out: string[], always = false): void {
  const entries = Object.entries(t).filter(([, v]) => v !== undefined) as [string, TomlValue][];
  const plain = entries.filter(([, v]) => !isTable(v) && !isTableArray(v));
  const nested = entries.filter(([, v]) => isTable(v) || isTableArray(v));
  if (header !== undefined && (always || plain.length > 0 || nested.length === 0)) out.push(header);
  for (const [k, v] of plain) out.push(`${key(k)} = ${scalar(v, [...path, k].join('.'))}`);
  for (const [k, v] of nested) {
    const sub = [...path, k];
    const name = sub.map(key).join('.');
    if (isTableArray(v)) {
      for (const item of v) {
        out.push('');
        section(item, sub, `[[${name}]]`, out, true);
      }
      continue;
    }
    out.push('');
    section(v as TomlTable, sub, `[${name}]`, out);
  }
}

/** A document for a table: plain keys first, then each sub-table and array of tables as its own section. */
export function toToml(doc: TomlTable): string {
  const out: string[] = [];
  section(doc, [], undefined, out);
  return out.join('\n').replace(/^\n+/, '').replace(/\n{3,}/g, '\n\n') + '\n';
}
