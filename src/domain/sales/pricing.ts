import { Type } from '@sinclair/typebox';
import { ContractPriceSet, PriceListCreated, PriceListPriceSet, RebateAgreementCreated, type PriceSource } from '../../events/contracts/sales';
import type { Queries } from '../../projections';
import type { RebateAgreementRow } from '../../projections/sales-pricing';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse } from '../decision';
import { fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt, QuantityInput } from '../schemas';
import { PRICING_MANAGE } from './permissions';

export const tag = 'sales';

export interface GrantedPrice {
  unit_price: number;
  source: PriceSource;
}

/**
 * The price a customer is granted for an item on a date (docs/sales.md, "Prices"): its contract
 * price in effect, else its price list's (the company's default list when it has none), at the
 * highest quantity break the quantity reaches. Undefined when nothing grants a price.
 */
export function grantedPrice(read: Queries, customer: string, item: string, qty: number, date: string): GrantedPrice | undefined {
  const contract = read.salesPricing.contractPrice(customer, item, date);
  if (contract) return { unit_price: contract.unit_price, source: { type: 'contract', id: contract.id } };
  const list = read.customers.customer(customer)?.price_list ?? read.receivables.policy().default_price_list;
  const price = list ? read.salesPricing.listPrice(list, item, qty, date) : undefined;
  return price ? { unit_price: price.unit_price, source: { type: 'price_list', id: list } } : undefined;
}

/** Where a rebate agreement stands: net sales so far, the tier reached, the rebate earned on all of them, and what was credited. */
export function rebateStanding(read: Queries, a: RebateAgreementRow, asOf: string) {
  const to = asOf < a.valid_to ? asOf : a.valid_to;
  const sales = asOf < a.valid_from ? 0 : read.receivables.netGoodsSales(a.customer, a.valid_from, to);
  const tier = [...a.tiers].sort((x, y) => y.min_amount - x.min_amount).find((t) => sales >= t.min_amount) ?? null;
  const earned = tier ? Math.round((sales * tier.rebate_bp) / 10000) : 0;
  const credited = read.arCash.creditMemosOfRebate(a.id).reduce((s, m) => s + m.total, 0);
  return { net_sales: sales, tier_reached: tier, rebate_earned: earned, rebate_credited: credited, rebate_due: Math.max(0, earned - credited) };
}

export function rebateView(read: Queries, id: string) {
  const a = read.salesPricing.rebateAgreement(id);
  if (!a) return undefined;
  const s = rebateStanding(read, a, read.clock.today());
  return {
    ...a, tiers: a.tiers.map((t) => ({ min_amount: fromCents(t.min_amount), rebate_bp: t.rebate_bp })),
    net_sales: fromCents(s.net_sales), tier_reached: s.tier_reached && { min_amount: fromCents(s.tier_reached.min_amount), rebate_bp: s.tier_reached.rebate_bp },
    rebate_earned: fromCents(s.rebate_earned), rebate_credited: fromCents(s.rebate_credited), rebate_due: fromCents(s.rebate_due),
    credit_memos: read.arCash.creditMemosOfRebate(id).map((m) => ({ id: m.id, date: m.date, total: fromCents(m.total) })),
    links: [{ rel: 'customer', type: 'customer', id: a.customer }],
  };
}

function priceListView(read: Queries, id: string) {
  const list = read.salesPricing.priceList(id);
  if (!list) return undefined;
  return { ...list, prices: read.salesPricing.pricesOf(id).map((p) => withDecimals(p, ['unit_price'])) };
}

const validity = (from: string, to: string | undefined) => (to !== undefined && to < from ? refuse('invalid_request', 'A price cannot end before it starts.', 422) : undefined);

export const pricingRoutes: RouteDef[] = [
  defineAction({
    action: 'price_list.create', method: 'POST', path: '/price-lists', tag, status: 201, objectType: 'price_list',
    summary: 'Create a price list (its prices are set item by item)',
    body: Body({ id: Type.String({ pattern: '^[A-Z0-9][A-Z0-9_-]{0,19}$' }), name: Type.String({ minLength: 1, maxLength: 200 }), currency: Opt(Type.String({ pattern: '^[A-Z]{3}$' })), note: Opt(NoteInput) }),
    permission: PRICING_MANAGE, emits: [PriceListCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.salesPricing.priceList(body.id)) return refuse('already_exists', `Price list ${body.id} already exists.`);
      return emit(PriceListCreated, { id: body.id, name: body.name, currency: body.currency ?? ctx.read.clock.company()?.currency ?? 'USD', note: body.note ?? '' }, 'price_list', body.id);
    },
    view: priceListView,
  }),
  defineAction({
    action: 'price_list.set_price', method: 'POST', path: '/price-lists/{id}/prices', tag, status: 201, objectType: 'price_list',
    summary: "Set an item's price on a list from a quantity and a date; a later valid_from supersedes the earlier price",
    body: Body({ item: IdInput, unit_price: MoneyInput, min_qty: Opt(QuantityInput), valid_from: DateInput, valid_to: Opt(DateInput), note: Opt(NoteInput) }),
    permission: PRICING_MANAGE, emits: [PriceListPriceSet],
    decide: ({ params, body }, ctx) => {
      if (!ctx.read.salesPricing.priceList(params.id!)) return refuse('not_found', `No price list ${params.id}.`);
      if (!ctx.read.items.item(body.item)) return refuse('not_found', `No item ${body.item}.`);
      const bad = validity(body.valid_from, body.valid_to);
      if (bad) return bad;
      const unit_price = toCents(body.unit_price);
      if (unit_price <= 0) return refuse('invalid_request', 'A price is positive.', 422);
      return emit(PriceListPriceSet, {
        price_list: params.id!, item: body.item, min_qty: body.min_qty ?? 0, unit_price, valid_from: body.valid_from, valid_to: body.valid_to ?? null, note: body.note ?? '',
      }, 'price_list', params.id!);
    },
    view: priceListView,
  }),
  defineAction({
    action: 'contract_price.set', method: 'POST', path: '/contract-prices', tag, status: 201, objectType: 'contract_price',
    summary: "Agree a customer's price for an item for its validity dates: it wins over every price list",
    body: Body({ customer: IdInput, item: IdInput, unit_price: MoneyInput, valid_from: DateInput, valid_to: Opt(DateInput), reference: Opt(Type.String({ maxLength: 200 })), note: Opt(NoteInput) }),
    permission: PRICING_MANAGE, emits: [ContractPriceSet],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      if (!ctx.read.items.item(body.item)) return refuse('not_found', `No item ${body.item}.`);
      const bad = validity(body.valid_from, body.valid_to);
      if (bad) return bad;
      const unit_price = toCents(body.unit_price);
      if (unit_price <= 0) return refuse('invalid_request', 'A price is positive.', 422);
      const id = ctx.nextId('CP');
      return emit(ContractPriceSet, {
        id, customer: body.customer, item: body.item, unit_price, valid_from: body.valid_from, valid_to: body.valid_to ?? null, reference: body.reference ?? '', note: body.note ?? '',
      }, 'contract_price', id);
    },
    view: (read, id) => {
      const c = read.salesPricing.contract(id);
      return c && withDecimals(c, ['unit_price']);
    },
  }),
  defineAction({
    action: 'rebate_agreement.create', method: 'POST', path: '/rebate-agreements', tag, status: 201, objectType: 'rebate_agreement',
    summary: "Agree a volume rebate: once the customer's net sales in its dates reach a tier, the tier's rate applies to all of them",
    body: Body({
      customer: IdInput, valid_from: DateInput, valid_to: DateInput, reference: Opt(Type.String({ maxLength: 200 })), note: Opt(NoteInput),
      tiers: Type.Array(Body({ min_amount: MoneyInput, rebate_bp: Type.Integer({ minimum: 1, maximum: 10000 }) }), { minItems: 1, maxItems: 20 }),
    }),
    permission: PRICING_MANAGE, emits: [RebateAgreementCreated],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      if (body.valid_to < body.valid_from) return refuse('invalid_request', 'An agreement cannot end before it starts.', 422);
      const tiers = body.tiers.map((t) => ({ min_amount: toCents(t.min_amount), rebate_bp: t.rebate_bp })).sort((a, b) => a.min_amount - b.min_amount);
      if (tiers.some((t, i) => t.min_amount < 0 || (i > 0 && (t.min_amount === tiers[i - 1]!.min_amount || t.rebate_bp <= tiers[i - 1]!.rebate_bp)))) {
        return refuse('invalid_request', 'Tiers start at distinct amounts and pay more as they go up.', 422);
      }
      const id = ctx.nextId('RBA');
      return emit(RebateAgreementCreated, { id, customer: body.customer, valid_from: body.valid_from, valid_to: body.valid_to, tiers, reference: body.reference ?? '', note: body.note ?? '' }, 'rebate_agreement', id);
    },
    view: rebateView,
  }),
  defineQuery({
    path: '/price-lists', tag, summary: 'Price lists', permission: null, query: ListQuery({}),
    run: ({ query }, ctx) => listPage(ctx.tables, 'price_lists', {}, query),
  }),
  defineQuery({
    path: '/price-lists/{id}', tag, summary: 'A price list with its prices by item, quantity break and validity', permission: null, objectType: 'price_list',
    query: Type.Object({}, { additionalProperties: false }), run: ({ params }, ctx) => priceListView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/contract-prices', tag, summary: "Customers' contract prices, by customer and item", permission: null,
    query: ListQuery({ customer: Opt(IdInput), item: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'contract_prices', { customer: query.customer, item: query.item }, query, { map: (r) => withDecimals(r, ['unit_price']) }),
  }),
  defineQuery({
    path: '/rebate-agreements', tag, summary: 'Volume rebate agreements, by customer', permission: null, query: ListQuery({ customer: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'rebate_agreements', { customer: query.customer }, query, { map: (r) => rebateView(ctx.read, r.id as string) }),
  }),
  defineQuery({
    path: '/rebate-agreements/{id}', tag, summary: 'A rebate agreement: net sales so far, the tier reached, the rebate earned and credited', permission: null,
    objectType: 'rebate_agreement', query: Type.Object({}, { additionalProperties: false }), run: ({ params }, ctx) => rebateView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/sales/prices', tag, summary: "The price a customer is granted for an item: its contract price, else its price list's at the quantity's break (date default today)", permission: null,
    query: Type.Object({ customer: IdInput, item: IdInput, qty: Opt(QuantityInput), date: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ query }, ctx) => {
      if (!ctx.read.customers.customer(query.customer)) return refuse('not_found', `No customer ${query.customer}.`);
      const date = query.date ?? ctx.today;
      const price = grantedPrice(ctx.read, query.customer, query.item, query.qty ?? 1, date);
      return { customer: query.customer, item: query.item, qty: query.qty ?? 1, date, unit_price: price ? fromCents(price.unit_price) : null, source: price?.source ?? { type: 'none', id: null } };
    },
  }),
];
