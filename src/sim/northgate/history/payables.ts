import { addDays, addMonths } from '../../../domain/calendar';
import { formatCents } from '../../../domain/money';
import type { HistoryDay, Routine } from './context';
import { slowToCredit } from './profiles';

const dollars = (cents: number) => formatCents(cents, false);

/**
 * The AP team's daily work on what the vendors billed (the simulator's clerk enters each invoice as
 * billed): the clerk validates it through the three-way match, the supervisor approves it for
 * payment when it matched.
 */
export const validateAndApprove: Routine = (day) => {
  if (!day.businessDay) return;
  const entered = day.db.prepare(`SELECT id FROM ap_invoices WHERE lifecycle = 'entered' AND open_holds = 0 ORDER BY id`).all() as { id: string }[];
  for (const { id } of entered) {
    const validated = day.b.as('omar.haddad', 'POST', `/ap-invoices/${id}/validate`, {});
    if (validated.match_result === 'matched') day.b.as('hannah.brooks', 'POST', `/ap-invoices/${id}/approve`, { note: 'Matched: PO, receipt and invoice agree.' });
  }
};

/**
 * Bills without a purchase order, every month: [vendor category, account, department, lowest,
 * highest dollars, business day, billed in arrears]. Rent and software are billed for the month
 * they arrive in; utilities and professional fees for the month before, so the close accrues them.
 */
export const MONTHLY_BILLS: [category: string, account: string, department: string, lo: number, hi: number, day: number, arrears: boolean][] = [
  ['landlord', '6100', 'OPS', 7800, 8200, 2, false], ['utilities', '6150', 'OPS', 2500, 6000, 6, true], ['it', '6500', 'IT', 1800, 4800, 4, false],
  ['professional', '6450', 'FIN', 2500, 6500, 8, true], ['office', '6000', 'HR', 250, 900, 10, false],
];

const prefixOf = (vendor: string) => vendor.replace('V-', '');

/**
 * Rent, utilities, software, professional fees and office supplies arrive monthly without a PO:
 * the clerk enters each coded to its account and department and posts it; the supervisor approves
 * it within her non-PO limit, the controller above it.
 */
export const monthlyBills: Routine = (day) => {
  if (!day.businessDay) return;
  for (const [category, account, department, lo, hi, on, arrears] of MONTHLY_BILLS) {
    if (day.businessDayOfMonth !== on) continue;
    const month = arrears ? addMonths(day.date, -1).slice(0, 7) : day.date.slice(0, 7);
    for (const vendor of day.master.vendors.filter((v) => v.category === category)) {
      const amount = day.rng.cents(lo * 100, hi * 100);
      const number = `${prefixOf(vendor.id)}-${day.date.slice(2, 4)}${day.date.slice(5, 7)}`;
      const inv = day.b.as('omar.haddad', 'POST', '/ap-invoices', {
        vendor: vendor.id, vendor_invoice_number: number, invoice_date: addDays(day.date, -3), total: dollars(amount),
        lines: [{ description: `${vendor.name}, ${month}`, qty: 1, unit_price: dollars(amount), amount: dollars(amount), account, department }],
      });
      day.b.as('omar.haddad', 'POST', `/ap-invoices/${inv.id}/validate`, {});
      day.b.as(amount <= 500_000 ? 'hannah.brooks' : 'grace.lin', 'POST', `/ap-invoices/${inv.id}/approve`, { note: 'Coding checked.' });
      if (vendor.id === slowToCredit(day.master)) {
        const charge = Math.min(amount - 100, day.rng.cents(150_00, 450_00));
        day.b.as('omar.haddad', 'POST', `/ap-invoices/${inv.id}/disputes`, { reason: 'wrong_rate', amount: dollars(charge), note: 'Demand charge billed on the industrial rate schedule; our contract is the general service rate.' });
      }
    }
  }
};

interface Payable { id: string; open_amount: number; due_date: string; discount_date: string | null; discount_amount: number }

/**
 * The weekly payment run, prepared on Thursday for Friday: every approved invoice falling due
 * before the next run, and every discount that would expire before it, taken; an invoice with an
 * open dispute waits for the vendor's answer. The controller
 * approves and releases it the next day (the simulator's approver); the bank clears it after.
 */
export const weeklyPaymentRun: Routine = (day) => {
  if (!day.businessDay || new Date(`${day.date}T00:00:00Z`).getUTCDay() !== 4) return;
  const paymentDate = addDays(day.date, 1);
  const nextRun = addDays(paymentDate, 7);
  const payable = day.db.prepare(`SELECT id, open_amount, due_date, discount_date, discount_amount FROM ap_invoices
    WHERE lifecycle = 'approved' AND open_holds = 0 AND open_amount > 0
      AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.invoice = ap_invoices.id AND d.status = 'open') ORDER BY id`).all() as Payable[];
  const items = payable.flatMap((inv) => {
    const discount = inv.discount_date !== null && inv.discount_date >= paymentDate ? inv.discount_amount : 0;
    const dueSoon = inv.due_date < nextRun;
    const discountExpires = discount > 0 && inv.discount_date! < nextRun;
    if (!dueSoon && !discountExpires) return [];
    return [{ invoice: inv.id, amount: dollars(inv.open_amount - discount), discount: dollars(discount) }];
  });
  if (items.length === 0) return;
  const run = day.b.as('hannah.brooks', 'POST', '/payment-runs', { payment_date: paymentDate, bank_account: 'BANK-OP', items });
  day.b.as('hannah.brooks', 'POST', `/payment-runs/${run.id}/submit`, {});
};
