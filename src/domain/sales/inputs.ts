import { Type } from '@sinclair/typebox';
import { FREIGHT_TERMS } from '../../events/contracts/master';
import { SALES_HOLD_REASONS } from '../../events/contracts/sales';
import { DateInput, IdInput, MoneyInput, Opt } from '../schemas';

/** Request pieces of the sales area. */
export const FreightTermsInput = Type.Union(FREIGHT_TERMS.map((t) => Type.Literal(t)), { description: `One of ${FREIGHT_TERMS.join(', ')}` });
export const SalesHoldReasonInput = Type.Union(SALES_HOLD_REASONS.map((r) => Type.Literal(r)), { description: `One of ${SALES_HOLD_REASONS.join(', ')}` });
export const PositiveQty = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });
export const LineNoInput = Type.Integer({ minimum: 1, maximum: 10000 });

/** An order or quote line as entered: an item and a quantity; the price defaults to the one the customer is granted. */
export const OrderLineInput = Type.Object({
  item: IdInput,
  qty: PositiveQty,
  unit_price: Opt(MoneyInput),
  requested_date: Opt(DateInput),
}, { additionalProperties: false });
