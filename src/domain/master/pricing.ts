import { Type } from '@sinclair/typebox';
import { ApprovedSubstituteAdded, ApprovedSubstituteRemoved, PriceAgreementCreated } from '../../events/contracts/master';
import type { Queries } from '../../projections';
import type { PriceAgreementRow } from '../../projections/master-items';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { fromCents, roundCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt, QuantityInput, ReasonInput } from '../schemas';
import { VendorIdInput } from './inputs';
import { MASTER_DATA_MANAGE } from './permissions';

export function priceAgreementView(read: Queries, id: string) {
  const agreement = read.items.priceAgreement(id);
  if (!agreement) return undefined;
  return { ...agreementDecimals(agreement), links: [{ rel: 'vendor', type: 'vendor', id: agreement.vendor }, { rel: 'item', type: 'item', id: agreement.item }] };
}

function agreementDecimals(a: PriceAgreementRow) {
  return { ...a, breaks: a.breaks.map((b) => ({ min_qty: b.min_qty, unit_price: fromCents(b.unit_price) })) };
}

const SubstituteBody = { item: IdInput, substitute: IdInput, vendor: Opt(VendorIdInput) };

export const pricingRoutes: RouteDef[] = [
  defineAction({
    action: 'price_agreement.create', method: 'POST', path: '/price-agreements', tag: 'master', status: 201,
    summary: 'Record a price agreement for a vendor and item: quantity breaks and validity dates',
    body: Body({
      vendor: VendorIdInput,
      item: IdInput,
      breaks: Type.Array(Body({ min_qty: QuantityInput, unit_price: MoneyInput }), { minItems: 1, maxItems: 20 }),
      valid_from: DateInput,
      valid_to: Opt(DateInput),
      reference: Opt(Type.String({ maxLength: 200 })),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'price_agreement', emits: [PriceAgreementCreated],
    decide: ({ body }, ctx) => {
      if (!ctx.read.vendors.vendor(body.vendor)) return refuse('not_found', `No vendor ${body.vendor}.`);
      if (!ctx.read.items.item(body.item)) return refuse('not_found', `No item ${body.item}.`);
      if (body.valid_to !== undefined && body.valid_to < body.valid_from) return refuse('invalid_request', 'An agreement cannot end before it starts.', 422);
      const breaks = body.breaks.map((b) => ({ min_qty: b.min_qty, unit_price: toCents(b.unit_price) })).sort((a, b) => a.min_qty - b.min_qty);
      if (breaks.some((b) => b.unit_price <= 0)) return refuse('invalid_request', 'Every break needs a positive unit price.', 422);
      if (breaks.some((b, i) => i > 0 && b.min_qty === breaks[i - 1]!.min_qty)) return refuse('invalid_request', 'Two breaks start at the same quantity.', 422);
      const id = ctx.nextId('PA');
      return emit(PriceAgreementCreated, { id, vendor: body.vendor, item: body.item, breaks, valid_from: body.valid_from, valid_to: body.valid_to ?? null, reference: body.reference ?? '' }, 'price_agreement', id);
    },
    view: priceAgreementView,
  }),
  defineAction({
    action: 'approved_substitute.add', method: 'POST', path: '/approved-substitutes', tag: 'master', status: 201,
    summary: 'Approve an item as a substitute for another, from one vendor or (without vendor) from any',
    body: Body({ ...SubstituteBody, note: Opt(NoteInput) }),
    permission: MASTER_DATA_MANAGE, objectType: 'item', emits: [ApprovedSubstituteAdded],
    decide: ({ body }, ctx) => {
      if (body.item === body.substitute) return refuse('invalid_request', 'An item cannot substitute for itself.', 422);
      for (const id of [body.item, body.substitute]) if (!ctx.read.items.item(id)) return refuse('not_found', `No item ${id}.`);
      if (body.vendor && !ctx.read.vendors.vendor(body.vendor)) return refuse('not_found', `No vendor ${body.vendor}.`);
      if (ctx.read.items.substitute(body.item, body.substitute, body.vendor ?? null)?.status === 'approved') {
        return refuse('already_exists', `${body.substitute} is already approved for ${body.item}${body.vendor ? ` from ${body.vendor}` : ''}.`);
      }
      return emit(ApprovedSubstituteAdded, { item: body.item, substitute: body.substitute, vendor: body.vendor ?? null, note: body.note ?? '' }, 'item', body.item);
    },
    view: (read, id) => ({ item: id, approved_substitutes: read.items.substitutesOf(id) }),
  }),
  defineAction({
    action: 'approved_substitute.remove', method: 'POST', path: '/approved-substitutes/remove', tag: 'master',
    summary: 'Withdraw the approval of a substitute, with a reason',
    body: Body({ ...SubstituteBody, reason: ReasonInput }),
    permission: MASTER_DATA_MANAGE, objectType: 'item', emits: [ApprovedSubstituteRemoved],
    decide: ({ body }, ctx) => {
      if (ctx.read.items.substitute(body.item, body.substitute, body.vendor ?? null)?.status !== 'approved') {
        return refuse('not_found', `${body.substitute} is not approved for ${body.item}${body.vendor ? ` from ${body.vendor}` : ''}.`);
      }
      return emit(ApprovedSubstituteRemoved, { item: body.item, substitute: body.substitute, vendor: body.vendor ?? null, reason: body.reason }, 'item', body.item);
    },
    view: (read, id) => ({ item: id, approved_substitutes: read.items.substitutesOf(id) }),
  }),
  defineQuery({
    path: '/price-agreements', tag: 'master', summary: 'Price agreements by vendor and item', permission: null,
    query: ListQuery({ vendor: Opt(VendorIdInput), item: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'price_agreements', { vendor: query.vendor, item: query.item }, query, {
      map: (r) => agreementDecimals(r as unknown as PriceAgreementRow),
    }),
  }),
  defineQuery({
    path: '/price-agreements/{id}', tag: 'master', summary: 'A price agreement with its breaks', permission: null, objectType: 'price_agreement',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => priceAgreementView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/prices', tag: 'master', summary: 'The agreed unit price of an item from a vendor for a quantity on a date (default today); null when no agreement applies', permission: null,
    query: Type.Object({ vendor: VendorIdInput, item: IdInput, qty: QuantityInput, date: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ query }, ctx) => {
      const date = query.date ?? ctx.today;
      const price = ctx.read.items.priceFor(query.vendor, query.item, query.qty, date);
      return {
        vendor: query.vendor, item: query.item, qty: query.qty, date,
        agreement: price?.agreement ?? null, min_qty: price?.min_qty ?? null,
        unit_price: price ? fromCents(price.unit_price) : null,
        extended: price ? fromCents(roundCents(price.unit_price * query.qty)) : null,
      };
    },
  }),
  defineQuery({
    path: '/approved-substitutes', tag: 'master', summary: 'Approved substitutes by item, substitute or vendor (vendor * means any vendor)', permission: null,
    query: ListQuery({ item: Opt(IdInput), substitute: Opt(IdInput), vendor: Opt(Type.String({ maxLength: 20 })), status: Opt(Type.Union([Type.Literal('approved'), Type.Literal('removed')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'approved_substitutes', { item: query.item, substitute: query.substitute, vendor: query.vendor, status: query.status ?? 'approved' }, query),
  }),
];
