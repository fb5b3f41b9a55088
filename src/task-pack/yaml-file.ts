import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { validatorFor } from '../events/validators';
import { sharedCodeHint } from './shared-code';
import { cachedYamlData, rememberYamlData } from './yaml-cache';

/** A defect in a task pack: the file, the field (`checks[2].cites`) and what is wrong with it. */
export class PackError extends Error {
  constructor(readonly file: string, readonly field: string, readonly problem: string, readonly line?: number) {
    super(`${file}${line ? `:${line}` : ''}: ${field ? `${field}: ` : ''}${problem}`);
    this.name = 'PackError';
  }
}

interface Parsed {
  doc: Document;
  lines: LineCounter;
}

function parse(path: string, text: string): Parsed {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) throw new PackError(path, '', `not valid YAML: ${first.message.split('\n')[0]}`, lines.linePos(first.pos[0]).line);
  return { doc, lines };
}

/**
 * A parsed YAML file that can say on which line a field is. A text parsed before has its data from
 * the cache (yaml-cache), and is parsed again only to say where a field is.
 */
export class YamlFile {
  private parsed: Parsed | undefined;

  private constructor(readonly path: string, readonly data: unknown, private readonly text: string, parsed?: Parsed) {
    this.parsed = parsed;
  }

  static read(path: string): YamlFile {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new PackError(path, '', `the file is missing or unreadable${sharedCodeHint(path)}`);
    }
    const cached = cachedYamlData(text);
    if (cached) return new YamlFile(path, cached.data, text);
    const parsed = parse(path, text);
    const data: unknown = parsed.doc.toJS();
    rememberYamlData(text, data);
    return new YamlFile(path, data, text, parsed);
  }

  lineOf(path: readonly (string | number)[]): number | undefined {
    this.parsed ??= parse(this.path, this.text);
    const { doc, lines } = this.parsed;
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  }

  error(path: readonly (string | number)[], problem: string): PackError {
    return new PackError(this.path, fieldName(path), problem, this.lineOf(path));
  }

  /** Validates `value` (at `base` in this file) against a schema; throws a PackError on the first defect. */
  check(schema: TSchema, value: unknown, base: readonly (string | number)[] = []): void {
    const validate = compiled(schema);
    if (validate(value)) return;
    throw this.fromAjv(validate.errors![0]!, base, validate.errors!);
  }

  private fromAjv(e: ErrorObject, base: readonly (string | number)[], all: readonly ErrorObject[] = [e]): PackError {
    const path = [...base, ...e.instancePath.split('/').filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')))];
    if (e.keyword === 'const' || e.keyword === 'enum') {
      // A union of literals (a check's type, a band): name what is allowed rather than "must be equal to constant".
      const allowed = all.filter((x) => x.instancePath === e.instancePath).flatMap((x) => (x.keyword === 'const' ? [x.params.allowedValue] : x.keyword === 'enum' ? (x.params.allowedValues as unknown[]) : []));
      return this.error(path, `'${String(valueAt(this.data, path))}' is not one of: ${[...new Set(allowed.map(String))].join(', ')}`);
    }
    if (e.keyword === 'additionalProperties') return this.error(path, `unknown field '${String(e.params.additionalProperty)}'`);
    if (e.keyword === 'required') return this.error(path, `missing required field '${String(e.params.missingProperty)}'`);
    if (e.keyword === 'propertyNames') return this.error(path, `has a key that ${e.message ?? 'is invalid'}`);
    if (e.keyword === 'pattern') return this.error(path, `'${String(valueAt(this.data, path))}' must match ${String(e.params.pattern)}`);
    return this.error(path, e.message ?? 'is invalid');
  }
}

function compiled(schema: TSchema): ValidateFunction {
  return validatorFor('payload', schema);
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let v = data;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[p] : undefined;
  return v;
}

/** `['checks', 2, 'cites']` → `checks[2].cites`. */
export function fieldName(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
