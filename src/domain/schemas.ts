import { Type, type TSchema } from '@sinclair/typebox';

/** Request-schema pieces shared by every area. Requests carry decimal money; events carry cents. */
export const MoneyInput = Type.Unsafe<number | string>({ type: ['number', 'string'], 'x-money': true, description: 'Amount, at most two decimal places' });
export const DateInput = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const IdInput = Type.String({ minLength: 1, maxLength: 80 });
export const NoteInput = Type.String({ maxLength: 4000 });
export const ReasonInput = Type.String({ minLength: 1, maxLength: 80, pattern: '^[a-z][a-z0-9_]*$', description: 'Reason code, lower_snake_case' });
export const QuantityInput = Type.Number({ minimum: 0, maximum: 1e9 });

export const Body = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

/** The largest offset a list accepts: past it, a 400 rather than a number SQLite cannot bind. */
export const MAX_OFFSET = 1_000_000_000;

/** Offset/limit of every list endpoint: default 200, at most 1,000. */
export const Page = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
};

export const ListQuery = <P extends Parameters<typeof Type.Object>[0]>(filters: P) => Type.Object({ ...filters, ...Page }, { additionalProperties: false });

export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
