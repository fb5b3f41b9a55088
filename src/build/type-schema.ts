import ts from 'typescript';

export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Whether a schema says nothing about its value's fields: `{}` or a bare `{ type: 'object' }`. */
export function isUntyped(schema: JsonSchema): boolean {
  const keys = Object.keys(schema).filter((k) => k !== 'description');
  return keys.length === 0 || (keys.length === 1 && schema.type === 'object');
}

const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const bareType = (s: JsonSchema) => Object.keys(s).length === 1 && typeof s.type === 'string' && PRIMITIVE.has(s.type);

/**
 * JSON Schemas of the values TypeScript types describe, as a JSON response carries them: named
 * interfaces and type aliases become shared components (referenced, written once), functions and
 * `undefined` disappear the way JSON.stringify drops them, and fields that may be undefined are
 * not required. Places where the type says nothing (`unknown`, `object`, `Record<string, unknown>`)
 * come out as `{}` or `{ type: 'object' }`, which isUntyped names.
 */
export class TypeSchemas {
  readonly components: Record<string, JsonSchema> = {};
  private readonly names = new Map<ts.Type, string>();
  private readonly taken = new Map<string, ts.Type>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** The schema of `type`, a `$ref` to a component named `name` when one is given. */
  schemaOf(type: ts.Type, name?: string): JsonSchema {
    if (name) return this.component(type, name);
    const known = this.names.get(type);
    if (known) return ref(known);
    const alias = this.componentName(type);
    if (alias) return this.component(type, alias);
    return this.inline(type);
  }

  /** The properties of an object type, as an object schema written out (not a `$ref`). */
  objectOf(type: ts.Type): JsonSchema {
    return this.object(type);
  }

  private component(type: ts.Type, name: string): JsonSchema {
    const known = this.names.get(type);
    if (known) return ref(known);
    let unique = name;
    for (let n = 2; this.taken.has(unique) && this.taken.get(unique) !== type; n++) unique = `${name}${n}`;
    this.names.set(type, unique);
    this.taken.set(unique, type);
    this.components[unique] = {};
    this.components[unique] = this.inline(type);
    return ref(unique);
  }

  /** A name for a type declared once under a name of its own: a non-generic interface or type alias. */
  private componentName(type: ts.Type): string | undefined {
    if (type.aliasSymbol && !type.aliasTypeArguments?.length) return this.declaredName(type.aliasSymbol);
    if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Interface && !(type as ts.InterfaceType).typeParameters?.length) {
      return type.symbol ? this.declaredName(type.symbol) : undefined;
    }
    return undefined;
  }

  /** Only the project's own declarations become components; the library's types are written inline. */
  private declaredName(symbol: ts.Symbol): string | undefined {
    const decl = symbol.declarations?.[0];
    if (!decl || decl.getSourceFile().isDeclarationFile) return undefined;
    return symbol.name;
  }

  private inline(type: ts.Type): JsonSchema {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Never) return { not: {} };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: (type as { intrinsicName?: string }).intrinsicName === 'true' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.EnumLike) return {};
    if (type.isUnion()) return this.union(type.types);
    if (this.checker.isArrayType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: item ? this.schemaOf(item) : {} };
    }
    if (this.checker.isTupleType(type)) {
      const items = this.checker.getTypeArguments(type as ts.TypeReference).map((t) => this.schemaOf(t));
      return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length };
    }
    if (f & ts.TypeFlags.NonPrimitive) return { type: 'object' };
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return this.object(type);
    return {};
  }

  private union(members: readonly ts.Type[]): JsonSchema {
    const kept = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) && !this.isFunction(t));
    // `boolean` is the union true | false; keep it one type.
    const booleans = kept.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest = booleans.length === 2 ? kept.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral)) : kept;
    const parts: JsonSchema[] = booleans.length === 2 ? [{ type: 'boolean' }] : [];
    const strings = rest.filter((t) => t.flags & ts.TypeFlags.StringLiteral).map((t) => (t as ts.StringLiteralType).value);
    const numbers = rest.filter((t) => t.flags & ts.TypeFlags.NumberLiteral).map((t) => (t as ts.NumberLiteralType).value);
    if (strings.length) parts.push(strings.length === 1 ? { type: 'string', const: strings[0] } : { type: 'string', enum: [...new Set(strings)].sort() });
    if (numbers.length) parts.push(numbers.length === 1 ? { type: 'number', const: numbers[0] } : { type: 'number', enum: [...new Set(numbers)].sort((a, b) => a - b) });
    for (const t of rest) if (!(t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral))) parts.push(this.schemaOf(t));
    if (parts.some((p) => Object.keys(p).length === 0)) return {};
    const unique = [...new Map(parts.map((p) => [JSON.stringify(p), p])).values()];
    if (unique.length === 1) return unique[0]!;
    if (unique.every(bareType)) return { type: unique.map((p) => p.type as string) };
    return { anyOf: unique };
  }

  private isFunction(type: ts.Type): boolean {
    return type.getCallSignatures().length > 0 && type.getProperties().length === 0;
  }

  private object(type: ts.Type): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const propType = this.checker.getTypeOfSymbol(prop);
      if (this.isFunction(propType) || propType.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Never)) continue;
      const mayBeMissing = (prop.flags & ts.SymbolFlags.Optional) !== 0 || (propType.isUnion() && propType.types.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
      properties[prop.name] = this.schemaOf(propType);
      if (!mayBeMissing) required.push(prop.name);
    }
    const out: JsonSchema = { type: 'object' };
    if (Object.keys(properties).length) out.properties = properties;
    if (required.length) out.required = required;
    const index = this.checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    if (index) out.additionalProperties = this.schemaOf(index.type);
    return out;
  }
}
