import { fromCents } from '../../domain/money';
import type { SimContext } from '../simulator';
import { customerReceiptsWorld } from './customer-profiles';
import { must } from './payables-profiles';

/**
 * The bank shows each customer payment sent on an earlier day as a deposit line on the account it
 * was paid into, with the payer's reference (seed 000 §8), and the customers' record notes the line.
 */
export function customerReceipts(ctx: SimContext): void {
  const profile = customerReceiptsWorld(ctx);
  if (!profile || !ctx.businessDay) return;
  const bank = ctx.as(profile.as);
  for (const p of ctx.read.collections.unbankedPayments()) {
    if (p.date >= ctx.date) continue;
    const payer = ctx.read.customers.customer(p.customer)?.name ?? p.customer;
    const line = must(bank.post('/bank-statement-lines', {
      bank_account: p.bank_account, date: ctx.date, amount: fromCents(p.amount), kind: 'deposit', reference: p.reference, description: `Deposit: ${payer}`,
    }, `customer-deposit-${p.id}`), `deposit line for ${p.id}`);
    must(bank.post(`/sim/customer-payments/${p.id}/banked`, { statement_line: line.id }, `customer-banked-${p.id}`), `banking ${p.id}`);
  }
}
