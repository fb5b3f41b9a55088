import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { payloadAjv, queryAjv, type AjvKind } from './json-schema';

/**
 * Validators written out ahead of time by `npm run build` (src/build/precompile-validators.ts),
 * one file per schema, named by what it validates. Compiling a schema costs milliseconds, and a
 * process that writes a hundred kinds of event would spend most of a second compiling; loading
 * the generated code costs a fraction of that.
 */
export const PRECOMPILED_DIR = join(__dirname, '..', '..', 'precompiled', 'validators');

const AJV_VERSION: string = (require('ajv/package.json') as { version: string }).version;

/** The file name of a schema's validator: what it validates, how, and with which ajv. */
export function validatorKey(kind: AjvKind, schema: object): string {
  return createHash('sha256').update(`${AJV_VERSION}\n${kind}\n${JSON.stringify(schema)}`).digest('hex').slice(0, 32);
}

const compiled = { payload: new WeakMap<object, ValidateFunction>(), query: new WeakMap<object, ValidateFunction>() };
let precompiledExists: boolean | undefined;

/**
 * The validator of a schema, for payloads (`payloadAjv`) or query strings (`queryAjv`): the one written
 * out at build time when it matches the schema exactly, else compiled now. Either validates alike.
 */
export function validatorFor(kind: AjvKind, schema: object): ValidateFunction {
  const cache = compiled[kind];
  let validate = cache.get(schema);
  if (validate) return validate;
  precompiledExists ??= existsSync(PRECOMPILED_DIR);
  const file = precompiledExists ? join(PRECOMPILED_DIR, `${validatorKey(kind, schema)}.js`) : undefined;
  validate = file && existsSync(file) ? (require(file) as ValidateFunction) : (kind === 'query' ? queryAjv() : payloadAjv()).compile(schema);
  cache.set(schema, validate);
  return validate;
}
