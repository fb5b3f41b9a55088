import type { ApMovement } from '../../events/contracts/payables';
import type { CashMovement, Journal } from '../../events/contracts/ledger';
import type { PaymentRecord } from '../../events/contracts/payments';
import type { ApInvoiceRow } from '../../projections/payables-invoices';
import type { BankAccountRow } from '../../projections/ledger-cash';
import type { VendorBankAccountRow } from '../../projections/master-vendors';
import type { AllocationRow, PaymentRow } from '../../projections/payments';
import { isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { assertPeriodOpen, JournalBuilder } from '../ledger/journal';
import { formatCents } from '../money';
import { controlAccount } from '../payables/validate';

export interface Payable {
  invoice: ApInvoiceRow;
  bankAccount: VendorBankAccountRow;
}

/**
 * The hard controls of paying an invoice (seed 000 environment §5), in the order they are checked:
 * on hold, not approved for payment, vendor inactive, no verified bank account, and (an invariant,
 * not a handbook rule) nothing paid beyond the open amount.
 */
export function payable(ctx: DecideContext, invoiceId: string, amount: number, discount: number): Payable | Refusal {
  const invoice = ctx.read.payables.invoice(invoiceId);
  if (!invoice) return refuse('not_found', `No AP invoice ${invoiceId}.`);
  if (invoice.lifecycle === 'rejected' || invoice.lifecycle === 'voided') return refuse('invalid_state', `${invoice.id} is ${invoice.lifecycle}; there is nothing to pay.`);
  const holds = ctx.read.payables.openHolds(invoice.id);
  if (holds.length > 0) return refuse('invoice_on_hold', `${invoice.id} is on hold (${holds.map((h) => `${h.id} ${h.reason}`).join(', ')}); an invoice on hold cannot be paid.`);
  if (invoice.lifecycle === 'paid') return refuse('invalid_state', `${invoice.id} is already paid.`);
  if (invoice.lifecycle !== 'approved') return refuse('invoice_not_approved', `${invoice.id} is ${invoice.lifecycle}, not approved for payment.`);
  const vendor = ctx.read.vendors.vendor(invoice.vendor);
  if (!vendor || vendor.status !== 'active') return refuse('vendor_inactive', `Vendor ${invoice.vendor} is inactive; it cannot be paid.`);
  const bankAccount = ctx.read.vendors.verifiedBankAccount(invoice.vendor);
  if (!bankAccount) return refuse('bank_account_unverified', `Vendor ${invoice.vendor} has no verified bank account; payments go only to a verified account.`);
  if (amount <= 0) return refuse('invalid_request', 'A payment amount must be positive.', 422);
  if (discount < 0) return refuse('invalid_request', 'A discount cannot be negative.', 422);
  if (amount + discount > invoice.open_amount) {
    return refuse('exceeds_open_amount', `${invoice.id} has ${formatCents(invoice.open_amount)} open; ${formatCents(amount + discount)} with the discount would pay it beyond its amount.`);
  }
  return { invoice, bankAccount };
}

export function companyBankAccount(ctx: DecideContext, id: string): BankAccountRow | Refusal {
  return ctx.read.cash.bankAccount(id) ?? refuse('not_found', `No company bank account ${id}.`);
}

export interface Settlement {
  journal: Journal;
  cash: CashMovement[];
  ap: ApMovement[];
}

const vendorRefs = (vendor: string, document_id: string) => ({ party_type: 'vendor' as const, party_id: vendor, document_id });

/**
 * Payments out of a company bank account: Dr AP (amount + discount) per invoice, Cr cash per
 * payment, Cr discounts taken; a cash movement per payment and AP movements per invoice.
 */
export function settle(ctx: DecideContext, bank: BankAccountRow, date: string, memo: string, payments: readonly PaymentRecord[], statementLine: string | null = null): Settlement | Refusal {
  const closed = assertPeriodOpen(ctx, date);
  if (closed) return closed;
  const ap = controlAccount(ctx.read, 'ap');
  if (isRefusal(ap)) return ap;
  const discountAccount = ctx.read.payables.policy().discount_account;
  const builder = new JournalBuilder(date, memo);
  const cash: CashMovement[] = [];
  const moves: ApMovement[] = [];
  for (const p of payments) {
    for (const a of p.allocations) {
      builder.debit(ap.code, a.amount + a.discount, vendorRefs(p.vendor, a.invoice));
      builder.credit(discountAccount, a.discount, vendorRefs(p.vendor, a.invoice));
      moves.push({ vendor: p.vendor, invoice: a.invoice, kind: 'payment', amount: -a.amount, document_type: 'payment', document_id: p.id });
      if (a.discount > 0) moves.push({ vendor: p.vendor, invoice: a.invoice, kind: 'discount', amount: -a.discount, document_type: 'payment', document_id: p.id });
    }
    builder.credit(bank.gl_account, p.amount, vendorRefs(p.vendor, p.id));
    cash.push({ bank_account: bank.id, amount: -p.amount, kind: 'payment', reference: p.id, ...(statementLine ? { statement_line: statementLine } : {}) });
  }
  const journal = builder.build(ctx.read);
  if (isRefusal(journal)) return journal;
  return { journal, cash, ap: moves };
}

/** A payment taken back (returned by the bank, or voided): the settlement reversed, invoices reopened. */
export function unsettle(ctx: DecideContext, payment: PaymentRow, allocations: readonly AllocationRow[], memo: string, kind: 'returned_payment' | 'payment_void', statementLine: string | null): Settlement | Refusal {
  const closed = assertPeriodOpen(ctx, ctx.today);
  if (closed) return closed;
  const bank = companyBankAccount(ctx, payment.bank_account);
  if (isRefusal(bank)) return bank;
  const ap = controlAccount(ctx.read, 'ap');
  if (isRefusal(ap)) return ap;
  const discountAccount = ctx.read.payables.policy().discount_account;
  const builder = new JournalBuilder(ctx.today, memo).debit(bank.gl_account, payment.amount, vendorRefs(payment.vendor, payment.id));
  const moves: ApMovement[] = [];
  for (const a of allocations) {
    builder.debit(discountAccount, a.discount, vendorRefs(payment.vendor, a.invoice));
    builder.credit(ap.code, a.amount + a.discount, vendorRefs(payment.vendor, a.invoice));
    moves.push({ vendor: payment.vendor, invoice: a.invoice, kind: 'payment_reversed', amount: a.amount, document_type: 'payment', document_id: payment.id });
    if (a.discount > 0) moves.push({ vendor: payment.vendor, invoice: a.invoice, kind: 'discount_reversed', amount: a.discount, document_type: 'payment', document_id: payment.id });
  }
  const journal = builder.build(ctx.read);
  if (isRefusal(journal)) return journal;
  const cash: CashMovement[] = [{ bank_account: bank.id, amount: payment.amount, kind, reference: payment.id, ...(statementLine ? { statement_line: statementLine } : {}) }];
  return { journal, cash, ap: moves };
}
