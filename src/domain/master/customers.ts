import { Type } from '@sinclair/typebox';
import { CustomerCreated, CustomerSalesTermsSet, FREIGHT_TERMS, ShipToAdded } from '../../events/contracts/master';
import type { Queries } from '../../projections';
import type { CustomerRow } from '../../projections/master-customers';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse } from '../decision';
import { toCents } from '../money';
import { Body, IdInput, ListQuery, MoneyInput, NoteInput, Opt } from '../schemas';
import { AddressInput, EmailInput, NameInput, PhoneInput } from './inputs';
import { MASTER_DATA_MANAGE } from './permissions';

const StatusInput = Type.Union([Type.Literal('active'), Type.Literal('inactive')]);
const FreightTermsInput = Type.Union(FREIGHT_TERMS.map((t) => Type.Literal(t)), { description: `One of ${FREIGHT_TERMS.join(', ')}` });

/** A price list and a parent must exist; a customer cannot be its own parent, nor a parent that itself has one (one level of groups). */
function salesTermsRefusal(read: Queries, customer: string, priceList: string | null, parent: string | null) {
  if (priceList && !read.salesPricing.priceList(priceList)) return refuse('not_found', `No price list ${priceList}.`);
  if (parent === null) return undefined;
  if (parent === customer) return refuse('invalid_request', 'A customer cannot be its own parent.', 422);
  const p = read.customers.customer(parent);
  if (!p) return refuse('not_found', `No customer ${parent} to be the parent.`);
  if (p.parent) return refuse('invalid_request', `${parent} is itself a subsidiary of ${p.parent}; name the group's parent.`, 422);
  return undefined;
}

export function customerView(read: Queries, id: string) {
  const customer = read.customers.customer(id);
  if (!customer) return undefined;
  return { ...withDecimals(customer as CustomerRow, ['credit_limit']), ship_to: read.customers.shipTos(id) };
}

/** Customers with their credit limits, terms, tax status and sales terms, and their ship-to addresses. */
export const customerRoutes: RouteDef[] = [
  defineAction({
    action: 'customer.create', method: 'POST', path: '/customers', tag: 'master', status: 201,
    summary: 'Create a customer with its credit limit, terms and tax status',
    body: Body({
      id: IdInput,
      name: NameInput,
      credit_limit: MoneyInput,
      terms: IdInput,
      tax_exempt: Opt(Type.Boolean()),
      email: Opt(EmailInput),
      phone: Opt(PhoneInput),
      status: Opt(StatusInput),
      price_list: Opt(IdInput),
      parent: Opt(IdInput),
      freight_terms: Opt(FreightTermsInput),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'customer', emits: [CustomerCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.customers.customer(body.id)) return refuse('already_exists', `Customer ${body.id} already exists.`);
      if (!ctx.read.finance.terms(body.terms)) return refuse('not_found', `No payment terms ${body.terms}.`);
      const credit_limit = toCents(body.credit_limit);
      if (credit_limit < 0) return refuse('invalid_request', 'A credit limit cannot be negative.', 422);
      const bad = salesTermsRefusal(ctx.read, body.id, body.price_list ?? null, body.parent ?? null);
      if (bad) return bad;
      return emit(CustomerCreated, {
        id: body.id, name: body.name, credit_limit, terms: body.terms, tax_exempt: body.tax_exempt ?? false,
        email: (body.email ?? '').toLowerCase(), phone: body.phone ?? '', status: (body.status ?? 'active') as 'active',
        price_list: body.price_list ?? null, parent: body.parent ?? null, freight_terms: body.freight_terms ?? 'prepaid',
      }, 'customer', body.id);
    },
    view: customerView,
  }),
  defineAction({
    action: 'ship_to.add', method: 'POST', path: '/customers/{id}/ship-to', tag: 'master', status: 201,
    summary: 'Add a ship-to address to a customer, with its region and tax code',
    body: Body({ code: IdInput, address: AddressInput, region: Type.String({ minLength: 1, maxLength: 80 }), tax_code: Opt(IdInput) }),
    permission: MASTER_DATA_MANAGE, objectType: 'customer', emits: [ShipToAdded],
    decide: ({ params, body }, ctx) => {
      if (!ctx.read.customers.customer(params.id!)) return refuse('not_found', `No customer ${params.id}.`);
      if (ctx.read.customers.shipTo(params.id!, body.code)) return refuse('already_exists', `Customer ${params.id} already has ship-to ${body.code}.`);
      if (body.tax_code && !ctx.read.finance.taxCode(body.tax_code)) return refuse('not_found', `No tax code ${body.tax_code}.`);
      return emit(ShipToAdded, { customer: params.id!, code: body.code, address: body.address, region: body.region, tax_code: body.tax_code ?? null }, 'customer', params.id!);
    },
    view: customerView,
  }),
  defineAction({
    action: 'customer.set_sales_terms', method: 'POST', path: '/customers/{id}/sales-terms', tag: 'master', objectType: 'customer',
    summary: "Set a customer's price list, the parent that may pay for it, and its freight terms; fields left out keep their value (null clears)",
    body: Body({ price_list: Opt(Type.Union([IdInput, Type.Null()])), parent: Opt(Type.Union([IdInput, Type.Null()])), freight_terms: Opt(FreightTermsInput), note: Opt(NoteInput) }),
    permission: MASTER_DATA_MANAGE, emits: [CustomerSalesTermsSet],
    decide: ({ params, body }, ctx) => {
      const c = ctx.read.customers.customer(params.id!);
      if (!c) return refuse('not_found', `No customer ${params.id}.`);
      const next = { price_list: body.price_list === undefined ? c.price_list : body.price_list, parent: body.parent === undefined ? c.parent : body.parent, freight_terms: body.freight_terms ?? c.freight_terms };
      const bad = salesTermsRefusal(ctx.read, c.id, next.price_list, next.parent);
      if (bad) return bad;
      if (next.parent && ctx.read.customers.subsidiaries(c.id).length) return refuse('invalid_request', `${c.id} is the parent of others; it cannot become a subsidiary.`, 422);
      return emit(CustomerSalesTermsSet, { customer: c.id, ...next, previous: { price_list: c.price_list, parent: c.parent, freight_terms: c.freight_terms }, note: body.note ?? '' }, 'customer', c.id);
    },
    view: customerView,
  }),
  defineQuery({
    path: '/customers', tag: 'master', summary: 'List customers', permission: null,
    query: ListQuery({ status: Opt(StatusInput), terms: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'customers', { status: query.status, terms: query.terms }, query, {
      map: (r) => withDecimals(r as unknown as CustomerRow, ['credit_limit']),
    }),
  }),
  defineQuery({
    path: '/customers/{id}', tag: 'master', summary: 'A customer with its ship-to addresses', permission: null, objectType: 'customer',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => customerView(ctx.read, params.id!),
  }),
];
