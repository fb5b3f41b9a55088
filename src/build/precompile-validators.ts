import standaloneCode from 'ajv/dist/standalone';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRoutes } from '../api/routes';
import { ANY_OBJECT } from '../api/pipeline';
import { advanceClock } from '../domain/clock/actions';
import { eventContract, knownEventTypes } from '../events/event-types';
import { createAjv, type AjvKind } from '../events/json-schema';
import { PRECOMPILED_DIR, validatorKey } from '../events/validators';
import { AUDIT_RULES } from '../grader/rules';
import * as packSchemas from '../task-pack/schema';

/** Every schema the running system validates against: event payloads, requests, task packs, rule params. */
export function knownSchemas(): { kind: AjvKind; schema: object; what: string }[] {
  const out: { kind: AjvKind; schema: object; what: string }[] = [];
  for (const type of knownEventTypes()) out.push({ kind: 'payload', schema: eventContract(type)!.schema, what: `event ${type}` });
  // The clock's action has no public route; the control API runs it.
  for (const route of [...allRoutes(), advanceClock]) {
    const name = `${route.method} ${route.path}`;
    out.push({ kind: 'payload', schema: route.params ?? ANY_OBJECT, what: `${name} path` });
    if (route.kind === 'action') out.push({ kind: 'payload', schema: route.body, what: `${name} body` });
    else out.push({ kind: 'query', schema: route.query, what: `${name} query` });
  }
  for (const rule of AUDIT_RULES) out.push({ kind: 'payload', schema: rule.params, what: `rule ${rule.name}` });
  const addPack = (name: string, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    if ('type' in value || 'anyOf' in value) out.push({ kind: 'payload', schema: value, what: `task pack ${name}` });
    else for (const [k, v] of Object.entries(value)) addPack(`${name}.${k}`, v);
  };
  for (const [name, value] of Object.entries(packSchemas)) addPack(name, value);
  return out;
}

/**
 * Writes one CommonJS module per schema into precompiled/validators/ (beside src/ in dist):
 * ajv's standalone code, the same function ajv.compile would build. Run by `npm run build`.
 */
export function precompileValidators(dir = PRECOMPILED_DIR): number {
  const instances = { payload: createAjv('payload', true), query: createAjv('query', true) };
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const written = new Set<string>();
  for (const { kind, schema, what } of knownSchemas()) {
    const key = validatorKey(kind, schema);
    if (written.has(key)) continue;
    let code: string;
    try {
      code = standaloneCode(instances[kind], instances[kind].compile(schema));
    } catch (err) {
      throw new Error(`Cannot write out the validator of ${what}: ${(err as Error).message}`);
    }
    writeFileSync(join(tmp, `${key}.js`), code);
    written.add(key);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return written.size;
}

if (require.main === module) {
  const n = precompileValidators();
  process.stdout.write(`wrote ${n} validators to ${PRECOMPILED_DIR}\n`);
}
