import type { Queries } from '../../projections';
import { addMonths, endOfMonth } from '../calendar';
import { refuse, type DecideContext, type Refusal } from '../decision';
import { roundCents } from '../money';
import { assertPeriodOpen } from './journal';

/** Months from `from` to `to` (both YYYY-MM), counting both: 2026-01 to 2026-03 is 3; 0 or less before the start. */
export function monthsThrough(from: string, to: string): number {
  return (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;
}

/** The month after the one `date` falls in, as YYYY-MM. */
export function nextPeriod(date: string): string {
  return addMonths(`${date.slice(0, 7)}-01`, 1).slice(0, 7);
}

/**
 * Straight line: how much of `total` should have been taken after `n` of `months` months, rounded
 * to the cent so that the last month takes exactly what is left.
 */
export function straightLineTarget(total: number, n: number, months: number): number {
  if (n <= 0) return 0;
  if (n >= months) return total;
  return roundCents((total * n) / months);
}

/** What a month's run takes from one item: up to its straight-line target, never more than is left. */
export function monthlyTake(total: number, taken: number, n: number, months: number): number {
  return Math.max(0, Math.min(total - taken, straightLineTarget(total, n, months) - taken));
}

/**
 * The checks every monthly run of a register shares: one run per month, in order, into a month
 * that is open (the run is dated the month's last day). Returns the posting date.
 */
export function runDate(ctx: DecideContext, period: string, what: string, existing: { id: string } | undefined, latest: { period: string } | undefined): string | Refusal {
  if (existing) return refuse('already_exists', `${existing.id} is already the ${what} run for ${period}.`);
  if (latest && latest.period > period) return refuse('invalid_state', `The ${what} run for ${latest.period} is already posted; runs go month by month, in order.`);
  const date = endOfMonth(`${period}-01`);
  if (date > endOfMonth(ctx.today)) return refuse('invalid_request', `A ${what} run cannot be for a month after this one (${ctx.today.slice(0, 7)}).`, 422);
  return assertPeriodOpen(ctx, date) ?? date;
}

/** Refuses unless the account exists, is active, and is of the type and normal side given. */
export function assertAccountKind(read: Queries, code: string, role: string, type: string, side?: 'debit' | 'credit'): Refusal | undefined {
  const a = read.ledger.account(code);
  if (!a) return refuse('not_found', `No account ${code} for the ${role}.`);
  if (a.status !== 'active') return refuse('invalid_state', `Account ${code} ${a.name} is inactive.`);
  if (a.type !== type || (side && a.normal_side !== side)) return refuse('invalid_request', `The ${role} must be ${side ? `a ${side}-normal ` : 'an '}${type} account; ${code} ${a.name} is ${a.normal_side}-normal ${a.type}.`, 422);
  return undefined;
}
