import { addDays } from '../../domain/calendar';
import { applyBasisPoints, fromCents } from '../../domain/money';
import type { ArInvoiceRow } from '../../projections/receivables-invoices';
import type { SimContext } from '../simulator';
import { businessDaysAfter, must } from './payables-profiles';
import { customersWorld, type CustomersWorld, type PaymentProfile, type ScheduledOrder } from './customer-profiles';
import { docAttachment, docBody, type PurchaseOrderDoc, type RemittanceDoc, type ReturnRequestDoc } from './customer-documents';

const byDate = new WeakMap<readonly ScheduledOrder[], Map<string, ScheduledOrder[]>>();

/** The schedule indexed by date once per world, so a day looks up its orders instead of scanning the year. */
function ordersOn(orders: readonly ScheduledOrder[], date: string): ScheduledOrder[] {
  let index = byDate.get(orders);
  if (!index) {
    index = new Map();
    for (const o of orders) index.set(o.date, [...(index.get(o.date) ?? []), o]);
    byDate.set(orders, index);
  }
  return index.get(date) ?? [];
}

function mail(ctx: SimContext, w: CustomersWorld, box: 'sales' | 'ar', customer: string, subject: string, doc: PurchaseOrderDoc | RemittanceDoc | ReturnRequestDoc, key: string) {
  const c = ctx.read.customers.customer(customer)!;
  return must(ctx.as(w.as).post('/messages/inbound', {
    box: box === 'sales' ? w.sales_box ?? 'sales' : w.ar_box ?? 'ar', from: c.email || `accounts@${c.id.toLowerCase()}.example`, from_name: c.name, to: [box === 'sales' ? w.sales_address : w.ar_address],
    subject, body: docBody(doc, c.name), related: [{ type: 'customer', id: customer }], attachments: [docAttachment(doc)],
  }, `${key}-mail`), `${customer} mailing ${subject}`);
}

/** Scheduled orders, mailed to the sales box with the order as a structured document, and recorded as what the customer ordered. */
function placeOrders(ctx: SimContext, w: CustomersWorld): void {
  for (const o of ordersOn(w.orders ?? [], ctx.date)) {
    const lines = o.lines.map((l) => ({ item: l.item, qty: l.qty, requested_date: addDays(ctx.date, l.requested_days ?? 7), ...(l.claimed_price !== undefined ? { unit_price: l.claimed_price } : {}) }));
    const key = `customer-order-${o.customer}-${o.customer_po}`;
    const message = mail(ctx, w, 'sales', o.customer, `Purchase order ${o.customer_po}`, { kind: 'purchase_order', customer: o.customer, customer_po: o.customer_po, ship_to: o.ship_to, lines }, key);
    must(ctx.as(w.as).post('/sim/customer-orders', {
      customer: o.customer, customer_po: o.customer_po, ship_to: o.ship_to, message: message.id, note: o.note ?? '',
      lines: lines.map((l) => ({ item: l.item, qty: l.qty, requested_date: l.requested_date, ...(l.unit_price !== undefined ? { claimed_price: l.unit_price } : {}) })),
    }, key), `${o.customer} recording order ${o.customer_po}`);
  }
}

/**
 * The day the customer pays an invoice: by its discount date when it takes discounts, else its due
 * date moved by the profile; once dunned, by the promised date when it keeps its promises (or that
 * many days after it when it does not), whichever comes first.
 */
function payDate(ctx: SimContext, p: PaymentProfile, inv: ArInvoiceRow): string {
  let date = p.takes_discount && inv.discount_date ? addDays(inv.discount_date, p.discount_days_late ?? -1) : addDays(inv.due_date, p.days_after_due ?? 0);
  if (p.promise && ctx.read.collections.promisesOf(inv.customer).length) {
    for (const promise of ctx.read.collections.promisesOf(inv.customer)) {
      if (promise.invoices.length && !promise.invoices.includes(inv.id)) continue;
      const promised = p.promise.keeps ? promise.promise_date : addDays(promise.promise_date, p.promise.days_late ?? 10);
      if (promised < date) date = promised;
    }
  }
  return date;
}

/**
 * Customers pay their invoices when their profile says (seed 000 §8): one payment a day per payer
 * for everything it pays that day, its own invoices and those of subsidiaries it pays for, with a
 * remittance advice to the AR box. A short payer deducts on every n-th invoice with its reason; a
 * wrong-reference payer names its own PO number instead of the invoice. Each invoice is paid once.
 */
function payInvoices(ctx: SimContext, w: CustomersWorld): void {
  const profiles = w.payments ?? {};
  const due = new Map<string, { inv: ArInvoiceRow; p: PaymentProfile }[]>();
  for (const inv of ctx.read.receivables.allOpenInvoices()) {
    const p = profiles[inv.customer];
    if (!p || payDate(ctx, p, inv) > ctx.date) continue;
    const sent = ctx.read.collections.sentFor(inv.id);
    if (sent.amount + sent.discount + sent.deducted > 0) continue;
    const payer = p.paid_by ?? inv.customer;
    due.set(payer, [...(due.get(payer) ?? []), { inv, p }]);
  }
  for (const [payer, items] of [...due].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const own = profiles[payer] ?? items[0]!.p;
    const lines: RemittanceDoc['lines'] = [];
    const truth = [];
    for (const { inv, p } of items) {
      const discount = p.takes_discount && inv.discount_date && (ctx.date <= inv.discount_date || p.discount_days_late !== undefined) ? Math.min(inv.discount_amount, inv.open_amount) : 0;
      const paidBefore = ctx.read.collections.invoicesPaidBy(inv.customer);
      const short = p.behaviour === 'short' && p.short && (paidBefore + 1) % (p.short.every ?? 3) === 0 ? applyBasisPoints(inv.open_amount - discount, p.short.bp) : 0;
      const amount = inv.open_amount - discount - short;
      if (amount <= 0) continue;
      const reference = p.behaviour === 'wrong_reference' && inv.customer_po ? inv.customer_po : inv.id;
      const deduction = short > 0 ? { amount: fromCents(short), reason: p.short!.reason } : undefined;
      lines.push({ reference, amount: fromCents(amount), discount: fromCents(discount), ...(deduction ? { deduction } : {}) });
      truth.push({ reference, invoice: inv.id, amount: fromCents(amount), discount: fromCents(discount), ...(deduction ? { deduction } : {}) });
    }
    if (lines.length === 0) continue;
    const total = lines.reduce((s, l) => s + Math.round(l.amount * 100), 0);
    const check = (own.first_check ?? 1001) + ctx.read.collections.paymentsOf(payer);
    const reference = `CHK ${check}`;
    const doc: RemittanceDoc = { kind: 'remittance', customer: payer, reference, date: ctx.date, amount: fromCents(total), lines };
    const key = `customer-payment-${payer}-${check}`;
    const message = mail(ctx, w, 'ar', payer, `Remittance advice ${reference}`, doc, key);
    const behaviour = items[0]!.p.paid_by ? 'parent' : own.behaviour;
    must(ctx.as(w.as).post('/sim/customer-payments', {
      customer: payer, bank_account: w.bank_account, amount: fromCents(total), reference, behaviour, message: message.id, remittance: truth,
    }, key), `${payer} recording payment ${reference}`);
  }
}

/** Dunned on an earlier day, a customer whose profile promises answers with a promise to pay the amount dunned. */
function answerDunning(ctx: SimContext, w: CustomersWorld): void {
  for (const d of ctx.read.collections.unansweredDunning(ctx.date)) {
    const p = w.payments?.[d.customer]?.promise;
    if (!p) continue;
    must(ctx.as(w.as).post('/promises-to-pay', {
      customer: d.customer, promise_date: businessDaysAfter(ctx.read, ctx.date, p.delay_days), amount: fromCents(d.total_overdue),
      invoices: d.invoices.map((i) => i.invoice), dunning: d.id, note: 'Payment is being scheduled.',
    }, `customer-promise-${d.id}`), `${d.customer} promising on ${d.id}`);
  }
}

/** Planted return requests: part of the first line of the customer's latest billed shipment. */
function requestReturns(ctx: SimContext, w: CustomersWorld): void {
  for (const r of (w.returns ?? []).filter((x) => x.date === ctx.date)) {
    const inv = ctx.read.receivables.latestShipmentInvoice(r.customer);
    const line = inv && ctx.read.receivables.lines(inv.id).find((l) => l.item !== null);
    if (!inv || !line) continue;
    const qty = Math.max(1, Math.floor((line.qty * r.share_bp) / 10000));
    mail(ctx, w, 'sales', r.customer, `Return request for ${inv.id}`, { kind: 'return_request', customer: r.customer, invoice: inv.id, reason: r.reason, lines: [{ invoice_line: line.line, item: line.item!, qty }] }, `customer-return-${r.customer}-${r.date}`);
  }
}

/** The customer counterparty: orders, payments, promises and returns, in that order each day. */
export function customers(ctx: SimContext): void {
  const w = customersWorld(ctx);
  if (!w) return;
  placeOrders(ctx, w);
  if (!ctx.businessDay) return;
  payInvoices(ctx, w);
  answerDunning(ctx, w);
  requestReturns(ctx, w);
}
