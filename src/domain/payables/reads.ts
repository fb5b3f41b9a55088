import { Type } from '@sinclair/typebox';
import type { DebitMemoRow, DisputeRow, VendorCreditRow } from '../../projections/payables-memos';
import { defineQuery, listPage, sortOf, type RouteDef } from '../action';
import { isRefusal } from '../decision';
import { withDecimals } from '../decimal-view';
import { VendorIdInput } from '../master/inputs';
import { DateInput, IdInput, ListQuery, Opt } from '../schemas';
import { tag } from './invoices';
import { creditView, debitMemoView, disputeView } from './memo-views';
import { normalizeInvoiceNumber } from './numbers';
import { invoiceSummary, invoiceView } from './views';

const InvoiceStatus = Type.Union(['entered', 'matched', 'approved', 'paid', 'on_hold', 'rejected', 'voided'].map((s) => Type.Literal(s)));
const none = Type.Object({}, { additionalProperties: false });

export const readRoutes: RouteDef[] = [
  defineQuery({
    path: '/ap-invoices', tag, permission: null,
    summary: 'AP invoices, filtered: status, vendor, po, number (matched after normalizing), due_before, discount_before, on_hold, payable (approved, no open hold, no open dispute, something left to pay); by id unless sorted',
    query: ListQuery({
      status: Opt(InvoiceStatus), vendor: Opt(VendorIdInput), po: Opt(IdInput), number: Opt(Type.String({ minLength: 1, maxLength: 80 })),
      due_before: Opt(DateInput), discount_before: Opt(DateInput), on_hold: Opt(Type.Boolean()),
      payable: Opt(Type.Boolean({ description: 'true: approved for payment, no open hold, no open dispute, something left to pay' })),
    }),
    run: ({ query }, ctx) => {
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      const order = sortOf(ctx, 'ap_invoices', query.sort);
      if (isRefusal(order)) return order;
      const page = ctx.read.payables.invoicePage({ ...query, number: query.number ? normalizeInvoiceNumber(query.number) : undefined, order, offset, limit });
      return { items: page.items.map(invoiceSummary), total: page.total, offset, limit };
    },
  }),
  defineQuery({
    path: '/ap-invoices/{id}', tag, permission: null, objectType: 'ap_invoice', query: none,
    summary: 'An AP invoice: lines as billed, match results, holds, notes, disputes, memos, payments, possible duplicates, status history and links',
    run: ({ params }, ctx) => invoiceView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/vendor-credits', tag, permission: null, summary: 'Vendor credit memos, by vendor and status (on_account or applied)',
    query: ListQuery({ vendor: Opt(VendorIdInput), status: Opt(Type.Union([Type.Literal('on_account'), Type.Literal('applied')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'vendor_credits', { vendor: query.vendor, status: query.status }, query, {
      map: (r) => withDecimals(r as unknown as VendorCreditRow, ['amount', 'applied_amount', 'unapplied_amount']),
    }),
  }),
  defineQuery({
    path: '/vendor-credits/{id}', tag, permission: null, objectType: 'vendor_credit', query: none,
    summary: 'A vendor credit memo with the invoices it was applied to', run: ({ params }, ctx) => creditView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/debit-memos', tag, permission: null, summary: 'Debit memos, by vendor or invoice',
    query: ListQuery({ vendor: Opt(VendorIdInput), invoice: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'debit_memos', { vendor: query.vendor, invoice: query.invoice }, query, {
      map: (r) => withDecimals(r as unknown as DebitMemoRow, ['amount']),
    }),
  }),
  defineQuery({
    path: '/debit-memos/{id}', tag, permission: null, objectType: 'debit_memo', query: none,
    summary: 'A debit memo with its lines', run: ({ params }, ctx) => debitMemoView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/disputes', tag, permission: null, summary: 'Disputes with vendors, by status, vendor or invoice',
    query: ListQuery({
      status: Opt(Type.Union(['open', 'resolved', 'refused', 'withdrawn'].map((s) => Type.Literal(s)))), vendor: Opt(VendorIdInput), invoice: Opt(IdInput),
    }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'disputes', { status: query.status, vendor: query.vendor, invoice: query.invoice }, query, {
      map: (r) => withDecimals(r as unknown as DisputeRow, ['amount']),
    }),
  }),
  defineQuery({
    path: '/disputes/{id}', tag, permission: null, objectType: 'dispute', query: none,
    summary: 'A dispute with its answer', run: ({ params }, ctx) => disputeView(ctx.read, params.id!),
  }),
];
