import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../package-info';
import { NO_BODY, RESPONSE_SCHEMAS_FILE, type ResponseSchemas } from '../api/response-schemas';
import { TypeSchemas, type JsonSchema } from './type-schema';

const ROOT = packageRoot();

/** A route declaration found in the source: where it is and what its success body is built from. */
interface Declared {
  key: string;
  at: string;
  body: () => JsonSchema;
}

const pascal = (name: string) => name.replace(/(^|[_-])([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

/** The text of a property's initializer when it is a string known at compile time. */
function constantString(checker: ts.TypeChecker, obj: ts.ObjectLiteralExpression, name: string): string | undefined {
  for (const p of obj.properties) {
    if (!p.name || !ts.isIdentifier(p.name) || p.name.text !== name) continue;
    if (ts.isPropertyAssignment(p)) {
      const init = p.initializer;
      if (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init)) return init.text;
      const t = checker.getTypeAtLocation(init);
      if (t.isStringLiteral()) return t.value;
    }
    if (ts.isShorthandPropertyAssignment(p)) {
      const t = checker.getTypeAtLocation(p.name);
      if (t.isStringLiteral()) return t.value;
    }
  }
  return undefined;
}

/**
 * The success-response schema of every route declared with defineAction, defineQuery or
 * defineReport, read from the types of the code that builds the body: an action's `view` (or the
 * `{ id }` the pipeline answers with when it has none), a query's `run`, a report's `run`; each
 * with the fields the pipeline adds (event_id, business_date). Refusals and `undefined` (a 404)
 * are left out: they are problem responses.
 */
export function routeResponses(program: ts.Program, root = ROOT): ResponseSchemas {
  const checker = program.getTypeChecker();
  const schemas = new TypeSchemas(checker);
  const declared: Declared[] = [];
  const unresolved: string[] = [];
  const refusal = (t: ts.Type) => {
    const ok = t.getProperty('ok');
    return !!ok && t.getProperty('code') !== undefined && t.getProperty('detail') !== undefined && checker.typeToString(checker.getTypeOfSymbol(ok)) === 'false';
  };
  /** What a function returns that is a success body: never when all it returns is a refusal or nothing (a 404). */
  const returned = (fn: ts.Expression | ts.MethodDeclaration): ts.Type | undefined => {
    const sig = checker.getTypeAtLocation(fn).getCallSignatures()[0];
    if (!sig) return undefined;
    const ret = checker.getReturnTypeOfSignature(sig);
    const members = ret.isUnion() ? ret.types : [ret];
    const kept = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) && !refusal(t));
    if (kept.length === members.length) return ret;
    if (kept.length === 0) return checker.getNeverType();
    // A union narrowed: its alias (if any) no longer names it, so describe the members kept.
    return kept.length === 1 ? kept[0] : (checker as unknown as { getUnionType(types: ts.Type[]): ts.Type }).getUnionType(kept);
  };
  /** A view function's own name names its body's component; a local `view` or `run` names nothing. */
  const nameOf = (fn: ts.Node): string | undefined => {
    const name = ts.isIdentifier(fn) ? fn.text : ts.isPropertyAccessExpression(fn) ? fn.name.text : undefined;
    return name && !['view', 'run'].includes(name) ? pascal(name) : undefined;
  };
  /**
   * A body's schema: the pipeline spreads the result into the response, so a `null` result answers
   * with none of its fields, and they are not required; never is no success body at all.
   */
  const bodySchema = (type: ts.Type, name: string | undefined): JsonSchema => {
    if (type.flags & ts.TypeFlags.Never) return NO_BODY;
    if (type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Null)) {
      const rest = type.types.filter((t) => !(t.flags & ts.TypeFlags.Null));
      const { required: _r, ...optional } = rest.length === 1 ? schemas.objectOf(rest[0]!) : { anyOf: rest.map((t) => schemas.schemaOf(t)) };
      return optional;
    }
    return schemas.schemaOf(type, name);
  };
  const withFields = (body: JsonSchema, fields: Record<string, JsonSchema>): JsonSchema => {
    const added = { type: 'object', properties: fields, required: Object.keys(fields) };
    if (body === NO_BODY) return NO_BODY;
    if (body.$ref) return { allOf: [body, added] };
    // Each form of a union gets the fields, so that a body of one form is that form and the fields.
    if (body.anyOf) return { ...body, anyOf: (body.anyOf as JsonSchema[]).map((form) => withFields(form, fields)) };
    return { ...body, type: 'object', properties: { ...(body.properties as object), ...fields }, required: [...new Set([...((body.required as string[]) ?? []), ...Object.keys(fields)])] };
  };
  const date = { type: 'string', format: 'date', description: 'The business date the request was answered on' };
  const eventId = { type: 'integer', description: 'The event id (seq) of the audit row this write recorded' };

  const property = (obj: ts.ObjectLiteralExpression, name: string): ts.Expression | ts.MethodDeclaration | undefined => {
    for (const p of obj.properties) {
      if (!p.name || !ts.isIdentifier(p.name) || p.name.text !== name) continue;
      if (ts.isPropertyAssignment(p)) return p.initializer;
      if (ts.isMethodDeclaration(p)) return p;
      if (ts.isShorthandPropertyAssignment(p)) return p.name;
    }
    return undefined;
  };

  /** A string the expression has at compile time, with a factory's parameters bound to its arguments. */
  const evaluate = (e: ts.Expression, bound: Map<string, ts.Expression>): string | undefined => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
    if (ts.isIdentifier(e) && bound.has(e.text)) return evaluate(bound.get(e.text)!, new Map());
    if (ts.isTemplateExpression(e)) {
      let out = e.head.text;
      for (const span of e.templateSpans) {
        const v = evaluate(span.expression, bound);
        if (v === undefined) return undefined;
        out += v + span.literal.text;
      }
      return out;
    }
    const t = checker.getTypeAtLocation(e);
    return t.isStringLiteral() ? t.value : undefined;
  };
  const propertyExpr = (obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined => {
    const p = property(obj, name);
    return p && !ts.isMethodDeclaration(p) ? p : undefined;
  };
  /**
   * The body type a route's view or run function returns. A factory's function that only hands on
   * to a function it was given (`run: (...) => view(read, id)`) returns what the given one does, by its name.
   */
  const bodyType = (fn: ts.Expression | ts.MethodDeclaration | undefined, bound: Map<string, ts.Expression>): { type: ts.Type; name?: string } | undefined => {
    if (!fn) return undefined;
    if (ts.isIdentifier(fn) && bound.has(fn.text)) return bodyType(bound.get(fn.text), new Map());
    if (ts.isArrowFunction(fn) && ts.isCallExpression(fn.body) && ts.isIdentifier(fn.body.expression) && bound.has(fn.body.expression.text)) {
      return bodyType(bound.get(fn.body.expression.text), new Map());
    }
    const type = returned(fn);
    return type ? { type, name: nameOf(fn) } : undefined;
  };
  const declare = (callee: string, obj: ts.ObjectLiteralExpression, at: string, bound: Map<string, ts.Expression>): boolean => {
    const methodExpr = propertyExpr(obj, 'method');
    const pathExpr = propertyExpr(obj, 'path');
    const method = callee === 'defineQuery' ? 'GET' : methodExpr && evaluate(methodExpr, bound);
    const path = pathExpr && evaluate(pathExpr, bound);
    if (!method || !path) return false;
    const fn = property(obj, callee === 'defineAction' ? 'view' : 'run');
    declared.push({
      key: `${method} ${path}`, at,
      body: () => {
        const body = bodyType(fn, bound);
        if (callee === 'defineAction') {
          const view = body ? bodySchema(body.type, body.name) : { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
          return withFields(view, { event_id: eventId, business_date: date });
        }
        return withFields(body ? bodySchema(body.type, body.name) : {}, { business_date: date });
      },
    });
    return true;
  };
  /** Declarations whose path a factory's parameters make: resolved at each call of the factory. */
  const factories = new Map<ts.Symbol, { fn: ts.SignatureDeclaration; callee: string; obj: ts.ObjectLiteralExpression; at: string }[]>();
  const calls: ts.CallExpression[] = [];
  const factoryOf = (node: ts.Node): { fn: ts.SignatureDeclaration; symbol: ts.Symbol } | undefined => {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
      if (ts.isFunctionDeclaration(n) && n.name) { const symbol = checker.getSymbolAtLocation(n.name); return symbol ? { fn: n, symbol } : undefined; }
      if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent) && ts.isIdentifier(n.parent.name)) {
        const symbol = checker.getSymbolAtLocation(n.parent.name);
        return symbol ? { fn: n, symbol } : undefined;
      }
    }
    return undefined;
  };
  const bindings = (fn: ts.SignatureDeclaration, args: readonly ts.Expression[]): Map<string, ts.Expression> => {
    const bound = new Map<string, ts.Expression>();
    fn.parameters.forEach((p, i) => {
      const arg = args[i];
      if (!arg) return;
      if (ts.isIdentifier(p.name)) bound.set(p.name.text, arg);
      else if (ts.isArrayBindingPattern(p.name) && ts.isArrayLiteralExpression(arg)) {
        p.name.elements.forEach((el, j) => { if (ts.isBindingElement(el) && ts.isIdentifier(el.name) && arg.elements[j]) bound.set(el.name.text, arg.elements[j]!); });
      }
    });
    return bound;
  };

  const visit = (file: ts.SourceFile) => (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) calls.push(node);
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
      const callee = node.expression.text;
      const obj = node.arguments[0];
      const at = `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if ((callee === 'defineAction' || callee === 'defineQuery') && !declare(callee, obj, at, new Map())) {
        const factory = factoryOf(node);
        if (factory) factories.set(factory.symbol, [...(factories.get(factory.symbol) ?? []), { fn: factory.fn, callee, obj, at }]);
        else unresolved.push(at);
      }
      if (callee === 'defineReport') {
        const id = constantString(checker, obj, 'id');
        const run = property(obj, 'run');
        if (!id || !run) unresolved.push(at);
        else {
          declared.push({
            key: `GET /reports/${id}`, at,
            body: () => {
              const sig = checker.getTypeAtLocation(run).getCallSignatures()[0]!;
              const params = sig.parameters[1] ? checker.getTypeOfSymbol(sig.parameters[1]) : undefined;
              const out = returned(run);
              const body = out ? schemas.objectOf(out) : { type: 'object' };
              return withFields(body, { report: { type: 'string', const: id }, params: params ? schemas.objectOf(params) : { type: 'object' }, business_date: date });
            },
          });
        }
      }
    }
    ts.forEachChild(node, visit(file));
  };
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !relative(root, file.fileName).startsWith('src')) continue;
    visit(file)(file);
  }
  const instantiated = new Set<string>();
  for (const call of calls) {
    const symbol = checker.getSymbolAtLocation(call.expression);
    const made = symbol && factories.get(symbol);
    if (!made) continue;
    for (const d of made) {
      if (declare(d.callee, d.obj, d.at, bindings(d.fn, call.arguments))) instantiated.add(d.at);
    }
  }
  // The report registry's route per report is declared by defineReport above.
  for (const list of factories.values()) for (const d of list) if (!instantiated.has(d.at)) unresolved.push(d.at);
  const routes: ResponseSchemas['routes'] = {};
  for (const d of declared.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    if (routes[d.key]) throw new Error(`Route ${d.key} is declared twice: ${routes[d.key]!.at} and ${d.at}.`);
    routes[d.key] = { at: d.at, schema: d.body() };
  }
  const components = Object.fromEntries(Object.keys(schemas.components).sort().map((k) => [k, schemas.components[k]!]));
  return { routes, components, unresolved };
}

/** The project's program as tsconfig.build.json describes it. */
export function buildProgram(root = ROOT): ts.Program {
  const configFile = join(root, 'tsconfig.build.json');
  const config = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!config) throw new Error(`Cannot read ${configFile}.`);
  return ts.createProgram({ rootNames: config.fileNames.filter((f) => f.includes(`${join(root, 'src')}`)), options: { ...config.options, noEmit: true } });
}

/** Writes the response schemas beside dist/src (precompiled/response-schemas.json). Run by `npm run build`. */
export function writeRouteResponses(file = RESPONSE_SCHEMAS_FILE): ResponseSchemas {
  const out = routeResponses(buildProgram());
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(out, null, 1) + '\n');
  renameSync(`${file}.tmp`, file);
  return out;
}

if (require.main === module) {
  const out = writeRouteResponses();
  process.stdout.write(`wrote ${Object.keys(out.routes).length} response schemas, ${Object.keys(out.components).length} components\n`);
}
