import { fromCents } from '../../domain/money';
import type { PaymentRow } from '../../projections/payments';
import type { SimContext } from '../simulator';
import { bankPaymentsProfile, must } from './payables-profiles';

/** Whether the profile plants a return of this payment: the nth payment released to its vendor. */
function plantedReturn(ctx: SimContext, payment: PaymentRow, returns: readonly { vendor: string; nth?: number; reason: string }[]) {
  const plan = returns.find((r) => r.vendor === payment.vendor);
  if (!plan) return undefined;
  const released = [...ctx.read.payments.paymentsWithStatus('released'), ...ctx.read.payments.paymentsWithStatus('cleared'), ...ctx.read.payments.paymentsWithStatus('returned')]
    .filter((p) => p.vendor === payment.vendor && p.method !== 'external').map((p) => p.id).sort();
  return released.indexOf(payment.id) === (plan.nth ?? 1) - 1 ? plan : undefined;
}

/**
 * The bank, on each business day: a payment_cleared statement line for every payment released on
 * an earlier day, which clears the payment and matches the line; a returned_payment line after it
 * for a planted return; and the planted fees on their dates.
 */
export function bankPayments(ctx: SimContext): void {
  const profile = bankPaymentsProfile(ctx);
  if (!profile) return;
  const bank = ctx.as(profile.as);
  for (const fee of profile.fees ?? []) {
    if (fee.date !== ctx.date) continue;
    must(bank.post('/bank-statement-lines', { bank_account: fee.bank_account, date: ctx.date, amount: fromCents(-Math.abs(fee.amount_cents)), kind: 'fee', reference: 'FEE', description: fee.description }), 'bank fee');
  }
  if (!ctx.businessDay) return;
  for (const payment of ctx.read.payments.paymentsWithStatus('released')) {
    if (payment.date >= ctx.date) continue;
    const line = must(bank.post('/bank-statement-lines', {
      bank_account: payment.bank_account, date: ctx.date, amount: fromCents(-payment.amount), kind: 'payment_cleared', reference: payment.id, description: `Payment ${payment.id}`,
    }), `statement line for ${payment.id}`);
    must(bank.post(`/payments/${payment.id}/clear`, { statement_line: line.id }), `clearing ${payment.id}`);
    const plan = plantedReturn(ctx, payment, profile.returns ?? []);
    if (!plan) continue;
    const back = must(bank.post('/bank-statement-lines', {
      bank_account: payment.bank_account, date: ctx.date, amount: fromCents(payment.amount), kind: 'returned_payment', reference: payment.id, description: `Returned: ${plan.reason}`,
    }), `return line for ${payment.id}`);
    must(bank.post(`/payments/${payment.id}/return`, { statement_line: back.id, reason: plan.reason }), `returning ${payment.id}`);
  }
}
