import type { Static, TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { describeErrors } from './json-schema';
import { validatorFor } from './validators';

/** A domain event contract: its past-tense name and the JSON Schema of its payload. */
export interface EventContract<T extends string = string, S extends TSchema = TSchema> {
  readonly type: T;
  readonly schema: S;
  /** Type-level carrier for the payload; never read at run time. */
  readonly _data?: Static<S>;
}

export type EventData<C> = C extends EventContract<string, infer S> ? Static<S> : never;

/** Validators are compiled on first use: compiling every contract at import cost half a second of each start. */
const contracts = new Map<string, { contract: EventContract; validate?: ValidateFunction; confidential: boolean }>();

export interface EventOptions {
  /**
   * The payload is for the simulator and the grader only (a counterparty's script, planted truth):
   * API routes that show events, such as /audit, show the row but not its data.
   */
  confidential?: boolean;
}

export function defineEvent<T extends string, S extends TSchema>(type: T, schema: S, options: EventOptions = {}): EventContract<T, S> {
  if (contracts.has(type)) throw new Error(`Event type ${type} is defined twice.`);
  const contract: EventContract<T, S> = { type, schema };
  contracts.set(type, { contract, confidential: options.confidential ?? false });
  return contract;
}

export function isConfidentialEventType(type: string | null): boolean {
  return type !== null && (contracts.get(type)?.confidential ?? false);
}

export function eventContract(type: string): EventContract | undefined {
  return contracts.get(type)?.contract;
}

export function knownEventTypes(): string[] {
  return [...contracts.keys()].sort();
}

export class EventRejected extends Error {
  constructor(readonly code: 'unknown_event_type' | 'invalid_event_payload', message: string) {
    super(message);
    this.name = 'EventRejected';
  }
}

/** The compiled validator of a known event type's payload. */
export function eventValidator(type: string): ValidateFunction | undefined {
  const entry = contracts.get(type);
  if (!entry) return undefined;
  return (entry.validate ??= validatorFor('payload', entry.contract.schema));
}

/** Throws EventRejected unless `data` is a valid payload of a known event type. */
export function validateEvent(type: string, data: unknown): void {
  const validate = eventValidator(type);
  if (!validate) throw new EventRejected('unknown_event_type', `Event type ${type} is not defined.`);
  if (!validate(data)) {
    throw new EventRejected('invalid_event_payload', `${type}: ${describeErrors(validate.errors, 'data')}`);
  }
}
