import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import taskConfigSchema from '../harbor-schema.json';

/**
 * Harbor 0.22.0's TaskConfig as a JSON Schema (src/export/harbor-schema.json, written from its
 * config.py): every task.toml the export writes is checked against it before it is written.
 */
let validate: ValidateFunction | undefined;

export function taskConfigProblems(config: unknown): string[] {
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(taskConfigSchema);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

export function validateTaskConfig(config: unknown): void {
  const problems = taskConfigProblems(config);
  if (problems.length) throw new Error(`The task.toml would not match Harbor's TaskConfig: ${problems.join('; ')}.`);
}
