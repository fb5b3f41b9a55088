import { addBusinessDays } from '../../domain/calendar';
import type { Queries } from '../../projections';
import type { SimContext, SimResponse } from '../simulator';

/**
 * The payables parts of world.json's actor profiles (docs/simulation.md). Each lives under
 * its own key of the actor kind's profile, beside the keys other areas' behaviours read.
 */

/** A billing defect a vendor plants; `po` and `item` narrow it to some documents or lines. */
export type BillingDefect =
  | { kind: 'price_uplift'; bp: number; po?: string; item?: string }
  | { kind: 'extra_units'; qty: number; po?: string; item?: string }
  | { kind: 'wrong_tax'; bp: number; po?: string }
  | { kind: 'arithmetic'; cents: number; po?: string }
  | { kind: 'duplicate'; delay_days: number; number_as: 'no_dash' | 'digits_only' | 'spaced'; po?: string }
  | { kind: 'bank_change'; bank_name: string; routing: string; account: string; text?: string; po?: string };

export interface VendorBilling {
  /** The vendor's AR address the invoice comes from. */
  from: string;
  from_name?: string;
  /** What starts the clock: a shipment the vendor announced, or a receipt the company posted. */
  trigger?: 'shipment' | 'receipt';
  /** Business days after the ship or receipt date. */
  delay_days?: number;
  number_prefix?: string;
  first_number?: number;
  freight_cents?: number;
  defects?: BillingDefect[];
}

export interface VendorBillingProfile {
  /** The counterparty user that delivers vendor mail and records what was billed. */
  as: string;
  ap_box?: string;
  ap_address: string;
  /** An AP clerk actor who enters every invoice as billed; none when the agent enters them. */
  enter_as?: string | null;
  vendors: Record<string, VendorBilling>;
}

export interface VendorDisputeAnswer {
  delay_days?: number;
  decision: 'credit' | 'refuse';
  /** The share of the disputed amount credited, in basis points (default all of it). */
  credit_bp?: number;
  note?: string;
}

export interface VendorDisputesProfile {
  as: string;
  vendors: Record<string, VendorDisputeAnswer>;
  default?: VendorDisputeAnswer;
}

export interface PaymentRunApproverProfile {
  /** The approver user. */
  as: string;
  /** Release the runs it approved once their payment date comes. */
  release?: boolean;
}

export interface BankPaymentsProfile {
  as: string;
  /** Planted returns: the nth payment (default the first) released to the vendor comes back. */
  returns?: { vendor: string; nth?: number; reason: string }[];
  /** Planted fees, posted on their date. */
  fees?: { date: string; bank_account: string; amount_cents: number; description: string }[];
}

export interface EscalationDecision {
  /** The manager the rule is for; any manager the simulator holds a token for when left out. */
  user?: string;
  record_type?: string;
  /** A record id, or * for any record. */
  record_id: string;
  reason: string;
  decision: string;
  note?: string;
}

export interface ManagersProfile {
  escalations?: EscalationDecision[];
  /** The manager who approves submitted journal entries with support and returns those without. */
  journal_entries?: JournalEntryManagerProfile;
}

export interface JournalEntryManagerProfile {
  as: string;
  /** The reason code an entry without support goes back with (default missing_support). */
  return_reason?: string;
  /** The attachment kinds that count as support (default: any attachment). */
  support_kinds?: string[];
  /**
   * The support a handbook requires of particular entries: an entry with a line on one of
   * `accounts` is approved only when it carries an attachment of each of `kinds`, and returned
   * otherwise. An entry no rule names is judged by `support_kinds`.
   */
  support_rules?: SupportRule[];
}

export interface SupportRule {
  accounts: string[];
  kinds: string[];
}

/** The bank's statement of what the company booked outside AP: deposits, transfers, withdrawals, payroll. */
export interface BankStatementsProfile {
  as: string;
  /** Planted interest credited on the given dates (booked by the ledger: Dr cash / Cr interest income). */
  interest?: { date: string; bank_account: string; amount_cents: number; description: string }[];
}

export function section<T>(ctx: SimContext, kind: 'vendors' | 'approvers' | 'bank' | 'managers', key: string): T | undefined {
  const profile = ctx.world.actors[kind] as Record<string, unknown> | undefined;
  return profile?.[key] as T | undefined;
}

export const billingProfile = (ctx: SimContext) => section<VendorBillingProfile>(ctx, 'vendors', 'billing');
export const disputesProfile = (ctx: SimContext) => section<VendorDisputesProfile>(ctx, 'vendors', 'disputes');
export const paymentRunsProfile = (ctx: SimContext) => section<PaymentRunApproverProfile>(ctx, 'approvers', 'payment_runs');
export const bankPaymentsProfile = (ctx: SimContext) => section<BankPaymentsProfile>(ctx, 'bank', 'payments');
export const bankStatementsProfile = (ctx: SimContext) => section<BankStatementsProfile>(ctx, 'bank', 'statements');
export const managersProfile = (ctx: SimContext): ManagersProfile => ({
  escalations: section<EscalationDecision[]>(ctx, 'managers', 'escalations'),
  journal_entries: section<ManagersProfile['journal_entries']>(ctx, 'managers', 'journal_entries'),
});

/** The day `n` business days after `date`, by the company calendar. */
export function businessDaysAfter(read: Queries, date: string, n: number): string {
  const workdays = read.clock.company()?.workdays ?? [1, 2, 3, 4, 5];
  return addBusinessDays(date, n, { workdays, isHoliday: (d) => read.clock.isHoliday(d) });
}

/** A counterparty's request that must succeed: a failure means the world is misconfigured. */
export function must(res: SimResponse, what: string): any {
  if (res.status >= 300) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
