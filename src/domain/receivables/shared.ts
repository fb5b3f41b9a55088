import type { ArMovement } from '../../events/contracts/receivables';
import type { AccountRow } from '../../projections/ledger';
import type { ArInvoiceRow } from '../../projections/receivables-invoices';
import { refuse, type DecideContext, type Refusal } from '../decision';
import { parseTermsCode, termsSchedule, type TermsSchedule } from '../master/payment-terms';
import { controlAccount } from '../payables/validate';

export const tag = 'receivables';

export function arControl(ctx: DecideContext): AccountRow | Refusal {
  return controlAccount(ctx.read, 'ar');
}

export function invoiceOf(ctx: DecideContext, id: string): ArInvoiceRow | Refusal {
  return ctx.read.receivables.invoice(id) ?? refuse('not_found', `No AR invoice ${id}.`);
}

/** Due date, discount date and discount of an invoice under the customer's terms. */
export function scheduleFor(ctx: DecideContext, terms: string, invoiceDate: string, total: number): TermsSchedule | Refusal {
  const t = ctx.read.finance.terms(terms) ?? parseTermsCode(terms);
  if (!t) return refuse('invalid_state', `The payment terms ${terms} are not defined; define them with POST /payment-terms.`);
  return termsSchedule(t, invoiceDate, total);
}

export const customerRefs = (customer: string, document_id: string) => ({ party_type: 'customer' as const, party_id: customer, document_id });

export function movement(customer: string, invoice: string | null, kind: ArMovement['kind'], amount: number, document_type: string, document_id: string): ArMovement {
  return { customer, invoice, kind, amount, document_type, document_id };
}

/** The customer an invoice may be paid by: its own, or (a parent paying for a subsidiary) the customer it names as parent. */
export function mayPay(ctx: DecideContext, payer: string, invoiceCustomer: string): boolean {
  return payer === invoiceCustomer || ctx.read.customers.customer(invoiceCustomer)?.parent === payer;
}

