type Schema = Record<string, any>;

const EXAMPLE_DATE = '2026-10-05';

/**
 * The smallest string a pattern of the kind the routes use accepts: literals, escapes, classes,
 * groups with alternatives and quantifiers; each part its first choice, repeated its fewest times.
 * Undefined for a construct it does not read.
 */
export function patternExample(pattern: string): string | undefined {
  let i = 0;
  const src = pattern.replace(/^\^/, '').replace(/\$$/, '');
  const atom = (): string | undefined => {
    const c = src[i]!;
    if (c === '\\') {
      const e = src[i + 1]!;
      i += 2;
      return ({ d: '1', w: 'a', s: ' ' } as Record<string, string>)[e] ?? e;
    }
    if (c === '[') {
      const end = src.indexOf(']', i + 2);
      if (end < 0) return undefined;
      const body = src.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('^')) return /[a]/.test(body) ? '0' : 'a';
      return body[0] === '\\' ? ({ d: '1', w: 'a' } as Record<string, string>)[body[1]!] ?? body[1] : body[0];
    }
    if (c === '(') {
      i++;
      if (src.startsWith('?:', i)) i += 2;
      const first = sequence();
      while (src[i] === '|') { i++; sequence(); }
      if (src[i] !== ')') return undefined;
      i++;
      return first;
    }
    if (c === '.') { i++; return 'a'; }
    if ('|)*+?{'.includes(c)) return undefined;
    i++;
    return c;
  };
  const sequence = (): string | undefined => {
    let out = '';
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const a = atom();
      if (a === undefined) return undefined;
      let times = 1;
      const q = src[i];
      if (q === '?' || q === '*') { times = 0; i++; }
      else if (q === '+') i++;
      else if (q === '{') {
        const m = /^\{(\d+)(,\d*)?\}/.exec(src.slice(i));
        if (!m) return undefined;
        times = Number(m[1]);
        i += m[0].length;
      }
      out += a.repeat(times);
    }
    return out;
  };
  const out = sequence();
  return out !== undefined && i === src.length ? out : undefined;
}

/**
 * An example value a JSON Schema accepts, built from the schema alone: its own `examples`,
 * `default`, `const` or first `enum` value when it has one, otherwise the smallest value of its type
 * that meets its bounds, formats and patterns; objects carry their required fields. `components`
 * resolves `#/components/schemas/...` references. Undefined when no such value could be made.
 */
export function exampleOf(schema: Schema, components: Readonly<Record<string, Schema>> = {}, depth = 0): unknown {
  if (depth > 12) return undefined;
  const next = (s: Schema) => exampleOf(s, components, depth + 1);
  if (schema.$ref) return next(components[String(schema.$ref).replace('#/components/schemas/', '')] ?? {});
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.allOf) {
    const parts = (schema.allOf as Schema[]).map(next);
    return parts.every((p) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
  }
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (choices) {
    const first = choices.find((c) => c.type !== 'null') ?? choices[0];
    const base = first ? next(first) : undefined;
    // Fields beside the union (a body with business_date added) join the chosen form.
    if (schema.properties && base && typeof base === 'object') return { ...base, ...(next({ ...schema, anyOf: undefined, oneOf: undefined }) as object) };
    return base;
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') ?? 'null' : schema.type ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of (schema.required ?? []) as string[]) {
        const v = next(schema.properties?.[name] ?? {});
        if (v === undefined) return undefined;
        out[name] = v;
      }
      return out;
    }
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        const items = (schema.prefixItems as Schema[]).map(next);
        return items.every((v) => v !== undefined) ? items : undefined;
      }
      if (schema.items?.not) return [];
      const count = Math.min(Math.max(schema.minItems ?? 0, 1), schema.maxItems ?? Infinity);
      const item = schema.items && typeof schema.items === 'object' ? next(schema.items) : undefined;
      if (item === undefined) return count === 0 || !schema.minItems ? [] : undefined;
      return Array.from({ length: count }, () => item);
    }
    case 'string': {
      if (schema.format === 'date') return EXAMPLE_DATE;
      if (schema.format === 'date-time') return `${EXAMPLE_DATE}T09:00:00.000Z`;
      if (schema.format === 'email') return 'grace.lin@example.com';
      if (schema.format === 'uri') return 'https://example.com/';
      let s = schema.pattern ? patternExample(schema.pattern) : 'text';
      if (s === undefined) return undefined;
      if (s.length < (schema.minLength ?? 0)) s = schema.pattern ? undefined : s.padEnd(schema.minLength, 'x');
      if (s !== undefined && schema.maxLength !== undefined && s.length > schema.maxLength) s = schema.pattern ? undefined : s.slice(0, schema.maxLength);
      return s;
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (type === 'integer' ? 1 : 0.01) : undefined);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (type === 'integer' ? 1 : 0.01) : undefined);
      let n = min !== undefined && min > 1 ? min : 1;
      if (max !== undefined && n > max) n = min ?? max;
      if (schema.multipleOf) n = Math.ceil(n / schema.multipleOf) * schema.multipleOf;
      return n;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
