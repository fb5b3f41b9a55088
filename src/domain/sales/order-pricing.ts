import type { CreditCheck, PriceSource, SalesOrderLine } from '../../events/contracts/sales';
import type { Queries } from '../../projections';
import { refuse, type DecideContext, type Refusal } from '../decision';
import { formatCents, roundCents, toCents } from '../money';
import { grantedPrice } from './pricing';

export interface LineRequest {
  item: string;
  qty: number;
  unit_price?: number | string;
  requested_date?: string;
}

export interface PricedLines {
  lines: SalesOrderLine[];
  /** Lines priced other than the customer is granted: each a sentence, for the pricing hold's note. */
  offPrice: string[];
  total: number;
}

function describeSource(s: PriceSource): string {
  return s.type === 'contract' ? `contract price ${s.id}` : s.type === 'price_list' ? `price list ${s.id}` : 'no price';
}

/**
 * Prices order (or quote) lines for a customer on a date: a line without a price takes the one it
 * is granted; a line with another price keeps it and is named in `offPrice` (the order goes on a
 * pricing hold). Only stock items are sold; a line with no price given or granted is refused.
 */
export function priceLines(read: Queries, customer: string, requests: readonly LineRequest[], date: string, requestedDate: string): PricedLines | Refusal {
  const lines: SalesOrderLine[] = [];
  const offPrice: string[] = [];
  for (const [i, r] of requests.entries()) {
    const item = read.items.item(r.item);
    if (!item) return refuse('not_found', `Line ${i + 1}: no item ${r.item}.`);
    if (item.type !== 'stock' || !item.inventory_account) return refuse('invalid_request', `Line ${i + 1}: ${item.id} is a ${item.type.replace('_', '-')} item; only stock items are sold from stock.`, 422);
    const granted = grantedPrice(read, customer, item.id, r.qty, date);
    const given = r.unit_price === undefined ? undefined : toCents(r.unit_price);
    if (given !== undefined && given <= 0) return refuse('invalid_request', `Line ${i + 1}: a unit price is positive.`, 422);
    const unitPrice = given ?? granted?.unit_price;
    if (unitPrice === undefined) return refuse('invalid_request', `Line ${i + 1}: nothing grants ${customer} a price for ${item.id}; give the unit_price.`, 422);
    if (granted === undefined || unitPrice !== granted.unit_price) {
      offPrice.push(granted === undefined
        ? `line ${i + 1} ${item.id} at ${formatCents(unitPrice)} with no price granted`
        : `line ${i + 1} ${item.id} at ${formatCents(unitPrice)} where the ${describeSource(granted.source)} grants ${formatCents(granted.unit_price)}`);
    }
    lines.push({
      line: i + 1, item: item.id, description: item.description, unit: item.unit, qty: r.qty, unit_price: unitPrice, granted_price: granted?.unit_price ?? null,
      price_source: granted?.source ?? { type: 'none', id: null }, amount: roundCents(r.qty * unitPrice), requested_date: r.requested_date ?? requestedDate,
    });
  }
  return { lines, offPrice, total: lines.reduce((s, l) => s + l.amount, 0) };
}

/**
 * The credit check (seed 000 C1): what the customer owes (its AR, less cash on account) plus the
 * uninvoiced value of its open orders plus this order, against its credit limit. A customer on
 * credit hold fails it whatever the amounts.
 */
export function creditCheck(read: Queries, customer: string, orderTotal: number, except?: string): CreditCheck {
  const c = read.customers.customer(customer)!;
  const open_ar = read.receivables.customerBalance(customer);
  const open_orders = read.sales.openOrderValue(customer, except);
  const exposure = open_ar + open_orders + orderTotal;
  const onHold = read.collections.openCreditHold(customer) !== undefined;
  return {
    credit_limit: c.credit_limit, open_ar, open_orders, order_total: orderTotal, exposure, customer_on_hold: onHold,
    result: onHold ? 'customer_on_hold' : exposure > c.credit_limit ? 'over_limit' : 'ok',
  };
}

export function creditHoldNote(check: CreditCheck): string {
  if (check.result === 'customer_on_hold') return 'The customer is on credit hold.';
  return `Open AR ${formatCents(check.open_ar)} + open orders ${formatCents(check.open_orders)} + this order ${formatCents(check.order_total)} = ${formatCents(check.exposure)}, over the credit limit of ${formatCents(check.credit_limit)}.`;
}

/** The ship-to of a customer with its region and tax: a tax-exempt customer pays none. */
export function shipToOf(ctx: DecideContext, customer: string, code: string) {
  const st = ctx.read.customers.shipTo(customer, code);
  if (!st) return refuse('not_found', `Customer ${customer} has no ship-to ${code}.`);
  const exempt = ctx.read.customers.customer(customer)!.tax_exempt;
  const taxCode = exempt ? null : st.tax_code;
  const rate = taxCode ? ctx.read.finance.taxCode(taxCode)?.rate_bp ?? 0 : 0;
  return { code: st.code, region: st.region, tax_code: taxCode, tax_rate_bp: rate };
}
