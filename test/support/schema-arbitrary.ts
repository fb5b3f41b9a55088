import fc from 'fast-check';

/** The JSON Schema keywords the route registry uses (TypeBox output). */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  'x-money'?: boolean;
}

/**
 * Values the world already holds (document ids, codes, addresses), so that a generated request
 * names real things often enough to reach the deciders rather than stopping at a 404.
 */
export interface Pools {
  strings: readonly string[];
  /** Business dates around the world's today. */
  dates: readonly string[];
}

/**
 * A fast-check arbitrary of values valid against a route's JSON Schema: every value it draws
 * passes the route's own validator (the fuzz test checks that too), so what it finds lies past
 * validation, in deciders, projections and views.
 */
export function arbitraryFor(schema: Schema, pools: Pools): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => arbitraryFor(s, pools)));
  if (schema['x-money']) return money(schema);
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) return fc.oneof(...types.map((t) => arbitraryFor({ ...schema, type: t }, pools)));
  switch (types[0]) {
    case 'string': return stringFor(schema, pools);
    case 'integer': return integerFor(schema);
    case 'number': return numberFor(schema);
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': return arrayFor(schema, pools);
    case 'object': return objectFor(schema, pools);
    case undefined: return fc.jsonValue({ maxDepth: 2 });
    default: throw new Error(`no arbitrary for type ${String(types[0])}`);
  }
}

function objectFor(schema: Schema, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(props)) model[k] = arbitraryFor(s, pools);
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) }) as fc.Arbitrary<Record<string, unknown>>;
}

function arrayFor(schema: Schema, pools: Pools): fc.Arbitrary<unknown[]> {
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
  if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((s) => arbitraryFor(s, pools)));
  const item = arbitraryFor(schema.items ?? {}, pools);
  return schema.uniqueItems
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength, maxLength });
}

function integerFor(schema: Schema): fc.Arbitrary<number> {
  const min = Math.ceil(schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum ?? -1e12);
  const max = Math.floor(schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : schema.maximum ?? 1e12);
  // Line numbers and counts are small: most draws name the first few, where the world's documents are.
  const small = fc.integer({ min: Math.max(min, 0), max: Math.min(max, Math.max(min, 0) + 1) });
  return fc.oneof({ weight: 6, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) }, fc.constantFrom(min, max));
}

function numberFor(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e12;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e12;
  const inside = (v: number) => v >= min && v <= max && (schema.exclusiveMinimum === undefined || v > schema.exclusiveMinimum) && (schema.exclusiveMaximum === undefined || v < schema.exclusiveMaximum);
  return fc.oneof(
    fc.integer({ min: Math.ceil(Math.max(min, 0)), max: Math.floor(Math.min(max, 1000)) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(min, max),
  ).filter(inside);
}

/** A decimal amount with at most two places, as a number or a string, as the API accepts. */
function money(schema: Schema): fc.Arbitrary<number | string> {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'number'];
  const cents = fc.oneof(fc.integer({ min: -100_00, max: 100_000_00 }), fc.constantFrom(0, 1, -1, 99_999_999_999_99, -99_999_999_999_99));
  const asNumber = cents.map((c) => c / 100);
  const asString = cents.map((c) => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`);
  return types.includes('string') ? fc.oneof(asNumber, asString) : asNumber;
}

/** Building a stringMatching arbitrary costs far more than drawing from it: one per pattern. */
const byPattern = new Map<string, fc.Arbitrary<string>>();
export function matching(pattern: string): fc.Arbitrary<string> {
  let arb = byPattern.get(pattern);
  if (!arb) byPattern.set(pattern, (arb = fc.stringMatching(new RegExp(pattern), { size: 'xsmall' })));
  return arb;
}

function stringFor(schema: Schema, pools: Pools): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 200;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength && (!schema.pattern || new RegExp(schema.pattern, 'u').test(s));
  if (schema.format === 'date') return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pools.dates) }, { weight: 1, arbitrary: fc.date({ min: new Date('1900-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) });
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'email') {
    const addresses = pools.strings.filter((s) => s.includes('@'));
    return (addresses.length ? fc.oneof(fc.constantFrom(...addresses), fc.emailAddress()) : fc.emailAddress()).filter(fits);
  }
  const free = schema.pattern ? matching(schema.pattern).filter(fits) : fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 40), unit: 'grapheme' }).filter(fits);
  const known = pools.strings.filter(fits);
  return known.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 2, arbitrary: free }) : free;
}
