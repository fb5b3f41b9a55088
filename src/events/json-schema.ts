import type Ajv2020 from 'ajv/dist/2020';
import type { KeywordCxt } from 'ajv/dist/2020';

let payload: Ajv2020 | undefined;
let query: Ajv2020 | undefined;

/**
 * The one ajv instance of the process. Event payloads, request bodies and task packs are all
 * validated with it, so formats and keywords mean the same thing everywhere. Made on first use:
 * validators are written out ahead of time (validators.ts), so a process that only runs them
 * never loads ajv's compiler.
 */
export function payloadAjv(): Ajv2020 {
  return (payload ??= createAjv('payload'));
}

/** Query strings arrive as text: this instance coerces `limit=5` to a number and fills defaults. */
export function queryAjv(): Ajv2020 {
  return (query ??= createAjv('query'));
}

/** The two configurations of the process's validators: JSON payloads, and query strings. */
export type AjvKind = 'payload' | 'query';

/**
 * `withSource` keeps each validator's generated code, for writing it out ahead of time
 * (src/build/precompile-validators.ts); the code is the same either way.
 */
export function createAjv(kind: AjvKind, withSource = false): Ajv2020 {
  const { default: Ajv, _ } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  const forQueries = kind === 'query';
  const instance = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults: forQueries, coerceTypes: forQueries, code: { source: withSource } });
  addFormats(instance, ['date', 'date-time', 'email', 'uri']);
  /**
   * Decimal money at the API: a number or numeric string with at most two decimal places. The
   * test is generated code (isMoneyLiteral, inlined) so that validators can be written out ahead
   * of time; the pattern avoids backslashes, which the code template would not keep.
   */
  instance.addKeyword({
    keyword: 'x-money',
    type: ['number', 'string'],
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const { data } = cxt;
      cxt.fail(_`!(typeof ${data} == "number" ? (Number.isFinite(${data}) && Math.abs(${data} * 100 - Math.round(${data} * 100)) < 1e-6 && Math.abs(${data}) < 1e13) : /^-?[0-9]{1,13}([.][0-9]{1,2})?$/.test(${data}))`);
    },
  });
  return instance;
}

export function isMoneyLiteral(value: unknown): boolean {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    const cents = value * 100;
    return Math.abs(cents - Math.round(cents)) < 1e-6 && Math.abs(value) < 1e13;
  }
  return typeof value === 'string' && /^-?\d{1,13}(\.\d{1,2})?$/.test(value);
}

/** Renders ajv errors as one sentence naming the field. */
export function describeErrors(errors: readonly { instancePath: string; message?: string; params?: Record<string, unknown>; keyword: string }[] | null | undefined, subject = 'body'): string {
  if (!errors || errors.length === 0) return `${subject} is invalid.`;
  // A choice among constants fails as one const (or enum) error per choice and an anyOf error: one sentence listing the choices.
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) {
    const values = e.keyword === 'const' ? [e.params?.allowedValue] : e.keyword === 'enum' ? ((e.params?.allowedValues as unknown[]) ?? []) : [];
    if (values.length) allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), ...values]);
  }
  const shown = errors.filter((e) => !allowed.has(e.instancePath) || e.keyword === 'const' || e.keyword === 'enum')
    .filter((e, i, all) => !allowed.has(e.instancePath) || all.findIndex((o) => o.instancePath === e.instancePath) === i);
  const parts = shown.slice(0, 3).map((e) => {
    const where = e.instancePath ? `${subject}${e.instancePath.replace(/\//g, '.')}` : subject;
    const choices = allowed.get(e.instancePath);
    if (choices) return choices.length === 1 ? `${where} must be ${JSON.stringify(choices[0])}` : `${where} must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`;
    if (e.keyword === 'additionalProperties') return `${where} has unknown field '${String(e.params?.additionalProperty)}'`;
    if (e.keyword === 'required') return `${where} is missing required field '${String(e.params?.missingProperty)}'`;
    if (e.keyword === 'x-money') return `${where} must be an amount with at most two decimal places`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
  return parts.join('; ') + '.';
}
