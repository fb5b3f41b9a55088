import { Type } from '@sinclair/typebox';
import type { PaymentRow, PaymentRunRow } from '../../projections/payments';
import { defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { VendorIdInput } from '../master/inputs';
import { IdInput, ListQuery, Opt } from '../schemas';
import { paymentView, runView } from './views';

const tag = 'payments';
const none = Type.Object({}, { additionalProperties: false });
const RunStatus = Type.Union(['draft', 'submitted', 'approved', 'returned', 'released', 'cancelled'].map((s) => Type.Literal(s)));
const PaymentStatus = Type.Union(['released', 'cleared', 'returned', 'voided'].map((s) => Type.Literal(s)));

export const paymentReadRoutes: RouteDef[] = [
  defineQuery({
    path: '/payment-runs', tag, permission: null, summary: 'Payment runs, by status or preparer',
    query: ListQuery({ status: Opt(RunStatus), created_by: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'payment_runs', { status: query.status, created_by: query.created_by }, query, {
      map: (r) => withDecimals(r as unknown as PaymentRunRow, ['total_amount', 'total_discount']),
    }),
  }),
  defineQuery({
    path: '/payment-runs/{id}', tag, permission: null, objectType: 'payment_run', query: none,
    summary: 'A payment run with its items (each with its invoice as it now stands), its payments, status history and links',
    run: ({ params }, ctx) => runView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/payments', tag, permission: null, summary: 'Payments, by vendor, status, run or method (run, manual, external)',
    query: ListQuery({
      vendor: Opt(VendorIdInput), status: Opt(PaymentStatus), run: Opt(IdInput),
      method: Opt(Type.Union([Type.Literal('run'), Type.Literal('manual'), Type.Literal('external')])),
    }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'payments', { vendor: query.vendor, status: query.status, run: query.run, method: query.method }, query, {
      map: (r) => withDecimals(r as unknown as PaymentRow, ['amount', 'discount']),
    }),
  }),
  defineQuery({
    path: '/payments/{id}', tag, permission: null, objectType: 'payment', query: none,
    summary: 'A payment: the vendor account paid to, the invoices it settles, its status history and links',
    run: ({ params }, ctx) => paymentView(ctx.read, params.id!),
  }),
];
