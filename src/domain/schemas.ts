import { Type, type TSchema } from '@sinclair/typebox';

/** Request-schema pieces shared by every area. Requests carry decimal money; events carry cents. */
export const MoneyInput = Type.Unsafe<number | string>({ type: ['number', 'string'], 'x-money': true, description: 'Amount, at most two decimal places' });
/** A decimal amount whose description says more (what it is, its default). */
export const MoneyField = (description: string) => Type.Unsafe<number | string>({ type: ['number', 'string'], 'x-money': true, description: `${description}; at most two decimal places` });
/** The discount of a payment: 0 unless given, whatever the invoice's terms offer, since a handbook decides when one is taken. */
export const DiscountInput = MoneyField('Early-payment discount taken; default 0: none is taken unless given here, whatever the invoice\'s terms offer');
export const DateInput = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const IdInput = Type.String({ minLength: 1, maxLength: 80 });
export const NoteInput = Type.String({ maxLength: 4000 });
export const ReasonInput = Type.String({ minLength: 1, maxLength: 80, pattern: '^[a-z][a-z0-9_]*$', description: 'Reason code, lower_snake_case' });
export const QuantityInput = Type.Number({ minimum: 0, maximum: 1e9 });

export const Body = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

/** The largest offset a list accepts: past it, a 400 rather than a number SQLite cannot bind. */
export const MAX_OFFSET = 1_000_000_000;

/** A list's order: up to five fields, each ascending or, after a leading -, descending. */
export const SortInput = Type.String({
  pattern: '^-?[a-z][a-z0-9_]*(,-?[a-z][a-z0-9_]*){0,4}$', maxLength: 200,
  description: 'Order of the list: comma-separated fields of its rows, each ascending or, after a leading -, descending (sort=-due_date,vendor); ties fall back to the id. Default: the order the endpoint states',
});

/** Offset/limit and sort of every list endpoint: default 200, at most 1,000. */
export const Page = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
  sort: Type.Optional(SortInput),
};

export const ListQuery = <P extends Parameters<typeof Type.Object>[0]>(filters: P) => Type.Object({ ...filters, ...Page }, { additionalProperties: false });

export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
