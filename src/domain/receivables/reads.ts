import { Type } from '@sinclair/typebox';
import type { ArInvoiceRow } from '../../projections/receivables-invoices';
import { defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { MonthInput } from '../master/inputs';
import { IdInput, ListQuery, Opt } from '../schemas';
import { tag } from './shared';
import { accountView, arInvoiceSummary, arInvoiceView, collectionDocView, creditMemoView, deductionView, receiptView } from './views';

const none = Type.Object({}, { additionalProperties: false });
const one = (path: string, objectType: string, summary: string, run: (read: Parameters<typeof arInvoiceView>[0], id: string) => unknown) =>
  defineQuery({ path, tag, summary, permission: null, objectType, query: none, run: ({ params }, ctx) => run(ctx.read, params.id!) });

export const receivablesReadRoutes: RouteDef[] = [
  defineQuery({
    path: '/ar-invoices', tag, permission: null, summary: 'AR invoices, by status, customer, sales order, shipment, customer PO or period (YYYY-MM of the posting date)',
    query: ListQuery({
      status: Opt(Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('voided')])), customer: Opt(IdInput), sales_order: Opt(IdInput), shipment: Opt(IdInput),
      customer_po: Opt(Type.String({ maxLength: 80 })), period: Opt(MonthInput),
    }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'ar_invoices', {
      status: query.status, customer: query.customer, sales_order: query.sales_order, shipment: query.shipment, customer_po: query.customer_po, period: query.period,
    }, query, { map: (r) => arInvoiceSummary(r as unknown as ArInvoiceRow, ctx.today) }),
  }),
  one('/ar-invoices/{id}', 'ar_invoice', 'An AR invoice with its lines, applications, deductions, credit memos, returns and links', arInvoiceView),
  defineQuery({
    path: '/cash-receipts', tag, permission: null, summary: 'Cash receipts, by customer and status (unapplied, partially_applied, applied, reversed)',
    query: ListQuery({ customer: Opt(IdInput), status: Opt(Type.Union(['unapplied', 'partially_applied', 'applied', 'reversed'].map((s) => Type.Literal(s)))), statement_line: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'cash_receipts', { customer: query.customer, status: query.status, statement_line: query.statement_line }, query, {
      map: (r) => receiptView(ctx.read, r.id as string),
    }),
  }),
  one('/cash-receipts/{id}', 'cash_receipt', 'A cash receipt with its applications', receiptView),
  defineQuery({
    path: '/deductions', tag, permission: null, summary: 'Deductions taken on short payments, by status, customer, invoice or reason',
    query: ListQuery({ status: Opt(Type.Union(['open', 'accepted', 'rejected', 'cancelled'].map((s) => Type.Literal(s)))), customer: Opt(IdInput), invoice: Opt(IdInput), reason: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'deductions', { status: query.status, customer: query.customer, invoice: query.invoice, reason: query.reason }, query, {
      map: (r) => withDecimals(r, ['amount']),
    }),
  }),
  one('/deductions/{id}', 'deduction', 'A deduction with the invoice and receipt it came from', deductionView),
  defineQuery({
    path: '/ar-credit-memos', tag, permission: null, summary: 'AR credit memos, by customer, reason, invoice or RMA',
    query: ListQuery({ customer: Opt(IdInput), reason: Opt(IdInput), invoice: Opt(IdInput), rma: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'ar_credit_memos', { customer: query.customer, reason: query.reason, invoice: query.invoice, rma: query.rma }, query, {
      map: (r) => creditMemoView(ctx.read, r.id as string),
    }),
  }),
  one('/ar-credit-memos/{id}', 'ar_credit_memo', 'An AR credit memo with its lines and where it was applied', creditMemoView),
  defineQuery({
    path: '/dunning-actions', tag, permission: null, summary: 'Dunning actions, by customer or level',
    query: ListQuery({ customer: Opt(IdInput), level: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'dunning_actions', { customer: query.customer, level: query.level }, query, { map: (r) => collectionDocView(ctx.read, 'dunning', r.id as string) }),
  }),
  one('/dunning-actions/{id}', 'dunning_action', 'A dunning action with the invoices it dunned and the promise it drew', (read, id) => collectionDocView(read, 'dunning', id)),
  defineQuery({
    path: '/promises-to-pay', tag, permission: null, summary: 'Promises to pay, by customer, with whether each was kept, broken or is still open',
    query: ListQuery({ customer: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'promises_to_pay', { customer: query.customer }, query, { map: (r) => collectionDocView(ctx.read, 'promise', r.id as string) }),
  }),
  defineQuery({
    path: '/credit-holds', tag, permission: null, summary: 'Credit holds on customers\' accounts, by customer and status',
    query: ListQuery({ customer: Opt(IdInput), status: Opt(Type.Union([Type.Literal('open'), Type.Literal('released')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'credit_holds', { customer: query.customer, status: query.status }, query),
  }),
  one('/customers/{id}/account', 'customer', 'A customer\'s account: balance, open invoices by bucket, on account, open orders against the credit limit, holds, dunning and promises', accountView),
];
