import { Type } from '@sinclair/typebox';
import { ArInvoiceBilled, ArInvoiceVoided, type ArInvoiceLine } from '../../events/contracts/receivables';
import { roundQty } from '../../projections/quantities';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { assertPeriodOpen, JournalBuilder, reverseJournal } from '../ledger/journal';
import { AccountInput } from '../master/inputs';
import { roundCents, toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { AR_INVOICE_BILL, AR_INVOICE_VOID } from './permissions';
import { arControl, customerRefs, invoiceOf, movement, scheduleFor, tag } from './shared';
import { arInvoiceView } from './views';

const objectType = 'ar_invoice';
const view = (read: Parameters<typeof arInvoiceView>[0], id: string) => arInvoiceView(read, id);

/**
 * Billing (seed 000 §4, C2): an AR invoice bills what one shipment shipped, at the order's prices,
 * with tax at the ship-to's rate and freight when the order's terms are prepay-and-add. Revenue
 * belongs in the period of shipment: the system accepts any invoice date from the ship date on in
 * an open period, and the grader judges the cutoff (revenue_outside_shipment_period).
 */
export const billingRoutes: RouteDef[] = [
  defineAction({
    action: 'ar_invoice.bill', method: 'POST', path: '/shipments/{id}/invoice', tag, status: 201, objectType,
    summary: 'Bill a shipment: lines at the order\'s prices, tax by ship-to, freight by freight terms; Dr AR, Cr revenue, freight billed and sales tax',
    body: Body({ invoice_date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: AR_INVOICE_BILL, emits: [ArInvoiceBilled],
    decide: ({ params, body }, ctx) => {
      const shipment = ctx.read.shipments.shipment(params.id!);
      if (!shipment) return refuse('not_found', `No shipment ${params.id}.`);
      if (shipment.status === 'invoiced') return refuse('invalid_state', `${shipment.id} is already billed on ${shipment.invoice}.`);
      const order = ctx.read.sales.order(shipment.sales_order)!;
      const customer = ctx.read.customers.customer(order.customer)!;
      const date = body.invoice_date ?? ctx.today;
      if (date > ctx.today) return refuse('invalid_request', `An invoice cannot be dated after today (${ctx.today}).`, 422);
      if (date < shipment.ship_date) return refuse('invalid_request', `${shipment.id} shipped on ${shipment.ship_date}; it cannot be billed before.`, 422);
      const closed = assertPeriodOpen(ctx, date);
      if (closed) return closed;
      const ar = arControl(ctx);
      if (isRefusal(ar)) return ar;
      const policy = ctx.read.receivables.policy();
      const byLine = new Map<number, { qty: number; cost: number }>();
      for (const l of ctx.read.shipments.shipmentLines(shipment.id)) {
        const sum = byLine.get(l.so_line) ?? { qty: 0, cost: 0 };
        byLine.set(l.so_line, { qty: roundQty(sum.qty + l.qty), cost: sum.cost + l.value });
      }
      const lines: ArInvoiceLine[] = [...byLine.entries()].sort(([a], [b]) => a - b).map(([soLine, s], i) => {
        const ol = ctx.read.sales.line(order.id, soLine)!;
        return { line: i + 1, so_line: soLine, item: ol.item, description: ol.description, qty: s.qty, unit_price: ol.unit_price, amount: roundCents(s.qty * ol.unit_price), account: policy.revenue_account, cost: s.cost };
      });
      const subtotal = lines.reduce((s, l) => s + l.amount, 0);
      const tax = roundCents((subtotal * order.tax_rate_bp) / 10000);
      const freight = order.freight_terms === 'prepay_and_add' ? shipment.freight_charge : 0;
      const total = subtotal + tax + freight;
      const schedule = scheduleFor(ctx, customer.terms, date, total);
      if (isRefusal(schedule)) return schedule;
      const id = ctx.nextId('ARINV');
      const refs = customerRefs(customer.id, id);
      const journal = new JournalBuilder(date, `AR invoice ${id} to ${customer.id} for ${shipment.id}`)
        .credit(policy.revenue_account, subtotal, refs).credit(policy.freight_account, freight, refs).credit(policy.tax_account, tax, refs)
        .balanceTo(ar.code, refs).build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(ArInvoiceBilled, {
        id, customer: customer.id, kind: 'shipment', sales_order: order.id, shipment: shipment.id, customer_po: order.customer_po, ship_to: order.ship_to,
        invoice_date: date, gl_date: date, terms: customer.terms, ...schedule, lines, subtotal, tax_code: order.tax_code, tax_rate_bp: order.tax_rate_bp, tax, freight, total,
        note: body.note ?? '', journal, ar: [movement(customer.id, id, 'invoice', total, 'ar_invoice', id)],
      }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'ar_invoice.enter', method: 'POST', path: '/ar-invoices', tag, status: 201, objectType,
    summary: 'Enter an AR invoice that bills no shipment (a charge, an opening balance): each line credited to its account',
    description: 'gl_date (default the invoice date) may be later than the invoice date: opening balances are invoices of before the books began, posted on their first day.',
    body: Body({
      customer: IdInput, invoice_date: DateInput, gl_date: Opt(DateInput), customer_po: Opt(Type.String({ maxLength: 80 })), tax: Opt(MoneyInput), note: Opt(NoteInput),
      lines: Type.Array(Body({ description: Type.String({ minLength: 1, maxLength: 400 }), amount: MoneyInput, account: AccountInput }), { minItems: 1, maxItems: 100 }),
    }),
    permission: AR_INVOICE_BILL, emits: [ArInvoiceBilled],
    decide: ({ body }, ctx) => {
      const customer = ctx.read.customers.customer(body.customer);
      if (!customer) return refuse('not_found', `No customer ${body.customer}.`);
      const glDate = body.gl_date ?? body.invoice_date;
      if (glDate > ctx.today) return refuse('invalid_request', `An invoice cannot post after today (${ctx.today}).`, 422);
      if (glDate < body.invoice_date) return refuse('invalid_request', 'An invoice cannot post before its own date.', 422);
      const closed = assertPeriodOpen(ctx, glDate);
      if (closed) return closed;
      const ar = arControl(ctx);
      if (isRefusal(ar)) return ar;
      const lines: ArInvoiceLine[] = body.lines.map((l, i) => ({ line: i + 1, so_line: null, item: null, description: l.description, qty: 1, unit_price: toCents(l.amount), amount: toCents(l.amount), account: l.account, cost: 0 }));
      const controls = new Set(ctx.read.ledger.controlAccounts().map((a) => a.code));
      const toControl = lines.find((l) => controls.has(l.account));
      if (toControl) return refuse('invalid_request', `Line ${toControl.line} is coded to control account ${toControl.account}.`, 422);
      const subtotal = lines.reduce((s, l) => s + l.amount, 0);
      const tax = body.tax === undefined ? 0 : toCents(body.tax);
      const total = subtotal + tax;
      if (total <= 0 || tax < 0) return refuse('invalid_request', 'An invoice is for a positive total (a credit is a credit memo), with no negative tax.', 422);
      const schedule = scheduleFor(ctx, customer.terms, body.invoice_date, total);
      if (isRefusal(schedule)) return schedule;
      const policy = ctx.read.receivables.policy();
      const id = ctx.nextId('ARINV');
      const refs = customerRefs(customer.id, id);
      const builder = new JournalBuilder(glDate, `AR invoice ${id} to ${customer.id}`);
      for (const l of lines) builder.credit(l.account, l.amount, refs);
      const journal = builder.credit(policy.tax_account, tax, refs).balanceTo(ar.code, refs).build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(ArInvoiceBilled, {
        id, customer: customer.id, kind: 'manual', sales_order: null, shipment: null, customer_po: body.customer_po ?? '', ship_to: null, invoice_date: body.invoice_date,
        gl_date: glDate, terms: customer.terms, ...schedule, lines, subtotal, tax_code: null, tax_rate_bp: 0, tax, freight: 0, total, note: body.note ?? '',
        journal, ar: [movement(customer.id, id, 'invoice', total, 'ar_invoice', id)],
      }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'ar_invoice.void', method: 'POST', path: '/ar-invoices/{id}/void', tag, objectType,
    summary: 'Void an invoice nothing was applied to, with a reason: its postings reversed today; a shipment it billed can be billed again',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: AR_INVOICE_VOID, emits: [ArInvoiceVoided],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      if (inv.status === 'voided') return refuse('invalid_state', `${inv.id} is already voided.`);
      if (inv.open_amount !== inv.total) return refuse('posted_document_immutable', `${inv.id} has payments or credits applied; correct it with a credit memo.`);
      const closed = assertPeriodOpen(ctx, ctx.today);
      if (closed) return closed;
      const journal = reverseJournal(inv.posting, ctx.today, `Void of AR invoice ${inv.id}: ${body.reason}`);
      return emit(ArInvoiceVoided, {
        id: inv.id, customer: inv.customer, shipment: inv.shipment, reason: body.reason, note: body.note ?? '', journal,
        ar: [movement(inv.customer, inv.id, 'void', -inv.total, 'ar_invoice', inv.id)],
      }, objectType, inv.id);
    },
    view,
  }),
];
