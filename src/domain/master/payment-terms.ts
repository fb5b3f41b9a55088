import { addDays } from '../calendar';
import { applyBasisPoints } from '../money';

export interface PaymentTerms {
  days_due: number;
  discount_days: number;
  discount_bp: number;
}

export interface TermsSchedule {
  due_date: string;
  /** The last day the discount may be taken; null when the terms grant none. */
  discount_date: string | null;
  /** The discount in cents when paid by discount_date; 0 when the terms grant none. */
  discount_amount: number;
}

/**
 * Reads a terms code: `NET30` is due in 30 days; `2/10NET30` (also `2/10 NET 30`) grants 2% if paid
 * within 10 days, due in 30; `1.5/15NET45` grants 1.5%. Undefined for a code in another form.
 */
export function parseTermsCode(code: string): PaymentTerms | undefined {
  const m = /^(?:(\d{1,2}(?:\.\d{1,2})?)\/(\d{1,3})\s*)?NET\s*(\d{1,3})$/i.exec(code.trim());
  if (!m) return undefined;
  const discount_bp = m[1] ? Math.round(Number(m[1]) * 100) : 0;
  return { days_due: Number(m[3]), discount_days: m[2] ? Number(m[2]) : 0, discount_bp };
}

/** Due date, discount deadline and discount of an invoice under the terms, counted in calendar days from the invoice date. */
export function termsSchedule(terms: PaymentTerms, invoiceDate: string, amountCents: number): TermsSchedule {
  const hasDiscount = terms.discount_bp > 0 && terms.discount_days > 0;
  return {
    due_date: addDays(invoiceDate, terms.days_due),
    discount_date: hasDiscount ? addDays(invoiceDate, terms.discount_days) : null,
    discount_amount: hasDiscount ? applyBasisPoints(amountCents, terms.discount_bp) : 0,
  };
}
