import { Type, type TSchema } from '@sinclair/typebox';

/** Shared schema pieces of event payloads. Money inside events is integer cents. */
export const Cents = Type.Integer({ minimum: -1e15, maximum: 1e15 });
export const PositiveCents = Type.Integer({ minimum: 0, maximum: 1e15 });
export const DateString = Type.String({ format: 'date' });
export const Id = Type.String({ minLength: 1, maxLength: 80 });
export const Text = Type.String({ maxLength: 4000 });
export const Quantity = Type.Number({ minimum: -1e9, maximum: 1e9 });
export const BasisPoints = Type.Integer({ minimum: -100000, maximum: 100000 });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A strict object: unknown fields are refused, so contracts cannot drift silently. */
export const Obj = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });
