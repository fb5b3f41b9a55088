import { OPERATING_ACCOUNT, type Step } from './plan';
import { cents, money, vendor, verifiedAccount, type Invoice } from './records';
import type { ToolEnv } from './tools';

/**
 * A payment from the operating account to the vendor's verified account (PAY-1.1), named by its
 * numbers or by its id; all of the open amount unless an amount in cents is given.
 */
export async function payStep(env: ToolEnv, inv: Invoice, byId: boolean, amountCents = cents(inv.open_amount)): Promise<Step> {
  const account = verifiedAccount(await vendor(env, inv.vendor));
  if (!account) throw new Error(`${inv.vendor} has no verified account.`);
  const to = byId ? { vendor_bank_account: account.id } : { routing: account.routing_number, account: account.account_number };
  return { tool: 'pay_invoice', args: { invoice_id: inv.id, amount: money(amountCents), bank_account: OPERATING_ACCOUNT, ...to } };
}
