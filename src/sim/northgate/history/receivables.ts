import { addDays, daysBetween } from '../../../domain/calendar';
import { fromCents, toCents } from '../../../domain/money';
import { applicable } from '../../../domain/receivables/receipts';
import { creditCheck } from '../../../domain/sales/order-pricing';
import type { DecideContext } from '../../../domain/decision';
import type { ArInvoiceRow } from '../../../projections/receivables-invoices';
import { docOf, type RemittanceDoc } from '../../behaviours/customer-documents';
import type { HistoryDay, Routine } from './context';

const AR_CLERK = 'lena.park';
const CREDIT_MANAGER = 'ruth.kim';
/** Days past due beyond which an account is put on credit hold, and its orders are not released. */
export const HOLD_AFTER_DAYS = 60;

/** The read side of a decider context, enough for the domain's own queries. */
const readCtx = (day: HistoryDay) => ({ read: day.read }) as unknown as DecideContext;

/** The remittance advices of the last fortnight in the AR box, by payer and reference. */
function remittances(day: HistoryDay): Map<string, { message: string; doc: RemittanceDoc }> {
  const out = new Map<string, { message: string; doc: RemittanceDoc }>();
  const rows = day.db.prepare(`SELECT id FROM messages WHERE box = 'ar' AND direction = 'inbound' AND created_date >= date(?, '-14 days') ORDER BY id`).all(day.date) as { id: string }[];
  for (const { id } of rows) {
    const doc = docOf(day.read, id);
    if (doc?.kind === 'remittance' && day.read.arCash.receiptsFromMessage(id).length === 0) out.set(`${doc.reference}\u0000${toCents(doc.amount)}`, { message: id, doc });
  }
  return out;
}

/**
 * Finds the invoice a remittance line pays among the payer's and its subsidiaries' open invoices:
 * by invoice number, else (a wrong reference) by the customer's own PO number, else by amount.
 */
function invoiceFor(open: readonly ArInvoiceRow[], line: RemittanceDoc['lines'][number], taken: Set<string>): ArInvoiceRow | undefined {
  const free = open.filter((i) => !taken.has(i.id));
  const settles = toCents(line.amount) + toCents(line.discount) + toCents(line.deduction?.amount ?? 0);
  return free.find((i) => i.id === line.reference) ?? free.find((i) => i.customer_po === line.reference) ?? free.find((i) => i.open_amount === settles);
}

/**
 * Cash application, each business day (seed 000 C3): each deposit the bank shows is recorded as the
 * payer's receipt, matched to its statement line, and applied as its remittance advice says (a
 * deduction kept open with its reason); what cannot be matched stays on account.
 */
export const applyCash: Routine = (day) => {
  if (!day.businessDay) return;
  const lines = day.db.prepare(`SELECT id, bank_account, amount, reference FROM bank_statement_lines WHERE kind = 'deposit' AND status = 'unmatched' ORDER BY id`).all() as { id: string; bank_account: string; amount: number; reference: string }[];
  if (lines.length === 0) return;
  const advices = remittances(day);
  for (const line of lines) {
    const advice = advices.get(`${line.reference}\u0000${line.amount}`);
    if (!advice) continue;
    const payer = advice.doc.customer;
    const open = day.read.receivables.openInvoices([payer, ...day.read.customers.subsidiaries(payer).map((s) => s.id)]);
    const taken = new Set<string>();
    let left = line.amount;
    const applications = [];
    for (const l of advice.doc.lines) {
      const inv = invoiceFor(open, l, taken);
      if (!inv) continue;
      taken.add(inv.id);
      const room = applicable(readCtx(day), inv.id);
      const discount = Math.min(toCents(l.discount), room);
      const deduction = Math.min(toCents(l.deduction?.amount ?? 0), room - discount);
      const amount = Math.min(toCents(l.amount), room - discount - deduction, left);
      if (amount + discount + deduction <= 0) continue;
      left -= amount;
      applications.push({ invoice: inv.id, amount: fromCents(amount), discount: fromCents(discount), ...(deduction > 0 ? { deduction: { amount: fromCents(deduction), reason: l.deduction!.reason } } : {}) });
    }
    day.b.as(AR_CLERK, 'POST', '/cash-receipts', {
      customer: payer, bank_account: line.bank_account, amount: fromCents(line.amount), reference: line.reference, statement_line: line.id, source_message: advice.message, applications,
    });
  }
};

/** Cash and credit left on a customer's account are applied to its oldest open invoices. */
export const applyOnAccount: Routine = (day) => {
  if (!day.businessDay) return;
  const customers = day.db.prepare(`SELECT DISTINCT customer FROM cash_receipts WHERE unapplied_amount > 0 AND status <> 'reversed'
    UNION SELECT DISTINCT customer FROM ar_credit_memos WHERE unapplied_amount > 0 ORDER BY customer`).all() as { customer: string }[];
  for (const { customer } of customers) {
    const open = day.read.receivables.openInvoices([customer, ...day.read.customers.subsidiaries(customer).map((s) => s.id)]);
    for (const doc of day.read.arCash.onAccountDocuments(customer)) {
      let left = doc.amount;
      const applications: { invoice: string; amount: number }[] = [];
      for (const inv of open) {
        const room = applicable(readCtx(day), inv.id) - applications.filter((a) => a.invoice === inv.id).reduce((s, a) => s + a.amount, 0);
        const amount = Math.min(left, room);
        if (amount <= 0) continue;
        applications.push({ invoice: inv.id, amount });
        left -= amount;
        if (left === 0) break;
      }
      if (applications.length === 0) continue;
      if (doc.type === 'cash_receipt') day.b.as(AR_CLERK, 'POST', `/cash-receipts/${doc.id}/apply`, { applications: applications.map((a) => ({ invoice: a.invoice, amount: fromCents(a.amount) })) });
      else for (const a of applications) day.b.as(AR_CLERK, 'POST', `/ar-credit-memos/${doc.id}/apply`, { invoice: a.invoice, amount: fromCents(a.amount) });
    }
  }
};

/** Deductions are investigated and, the claims found good, accepted after three days. */
export const resolveDeductions: Routine = (day) => {
  if (!day.businessDay) return;
  for (const d of day.read.arCash.openDeductions()) {
    if (d.taken_date > addDays(day.date, -3)) continue;
    day.b.as(CREDIT_MANAGER, 'POST', `/deductions/${d.id}/resolve`, { resolution: 'accepted', note: `Claim checked: ${d.reason.replace(/_/g, ' ')}.` });
  }
};

const oldestPastDue = (day: HistoryDay, customer: string) =>
  day.read.receivables.openInvoices(customer).reduce((m, i) => Math.max(m, daysBetween(i.due_date, day.date)), 0);

/**
 * The credit manager, each business day: an order on credit hold is released once the customer's
 * exposure is within its limit and nothing of its is more than 60 days past due; an account on
 * credit hold is released once nothing is more than 60 days past due.
 */
export const reviewCredit: Routine = (day) => {
  if (!day.businessDay) return;
  for (const hold of day.read.collections.openCreditHolds()) {
    if (oldestPastDue(day, hold.customer) <= HOLD_AFTER_DAYS) day.b.as(CREDIT_MANAGER, 'POST', `/credit-holds/${hold.id}/release`, { note: 'Past-due balance paid down.' });
  }
  for (const hold of day.read.sales.openHoldsWithReason('credit')) {
    const order = day.read.sales.order(hold.sales_order)!;
    const check = creditCheck(day.read, order.customer, 0);
    if (check.result === 'ok' && oldestPastDue(day, order.customer) <= HOLD_AFTER_DAYS) {
      day.b.as(CREDIT_MANAGER, 'POST', `/sales-order-holds/${hold.id}/release`, { note: `Exposure ${fromCents(check.exposure).toFixed(2)} is within the limit of ${fromCents(check.credit_limit).toFixed(2)}.` });
    }
  }
};

const LEVEL_AFTER: [days: number, level: 'reminder' | 'second_notice' | 'final_notice' | 'collections'][] = [[90, 'collections'], [60, 'final_notice'], [30, 'second_notice'], [5, 'reminder']];

/**
 * Dunning, every Monday (seed 000 C4): a customer with invoices past due is dunned by its oldest
 * bucket, no more than once a fortnight at the same level; from the final notice its account goes
 * on credit hold.
 */
export const dunCustomers: Routine = (day) => {
  if (!day.businessDay || new Date(`${day.date}T00:00:00Z`).getUTCDay() !== 1) return;
  const pastDue = new Map<string, number>();
  for (const inv of day.read.receivables.allOpenInvoices()) {
    if (inv.due_date >= day.date) continue;
    pastDue.set(inv.customer, Math.max(pastDue.get(inv.customer) ?? 0, daysBetween(inv.due_date, day.date)));
  }
  for (const [customer, days] of [...pastDue].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const level = LEVEL_AFTER.find(([after]) => days > after)?.[1];
    if (!level) continue;
    const last = day.read.collections.lastDunning(customer);
    if (last && last.level === level && last.created_date > addDays(day.date, -14)) continue;
    day.b.as(CREDIT_MANAGER, 'POST', '/dunning-actions', { customer, level, channel: level === 'reminder' ? 'email' : 'call' });
    if ((level === 'final_notice' || level === 'collections') && !day.read.collections.openCreditHold(customer)) {
      day.b.as(CREDIT_MANAGER, 'POST', `/customers/${customer}/credit-hold`, { reason: 'past_due', note: `${days} days past due.` });
    }
  }
};
