import { applyBasisPoints, fromCents } from '../../domain/money';
import type { SimContext } from '../simulator';
import { businessDaysAfter, disputesProfile, must } from './payables-profiles';

/**
 * Vendors answer open disputes after their delay: a credit memo for the share of the disputed
 * amount their profile grants, or a refusal. A vendor without a profile never answers.
 */
export function vendorDisputes(ctx: SimContext): void {
  const profile = disputesProfile(ctx);
  if (!profile || !ctx.businessDay) return;
  for (const dispute of ctx.read.apMemos.openDisputes()) {
    const answer = profile.vendors[dispute.vendor] ?? profile.default;
    if (!answer || businessDaysAfter(ctx.read, dispute.created_date, answer.delay_days ?? 1) > ctx.date) continue;
    const body = answer.decision === 'refuse'
      ? { decision: 'refuse', note: answer.note ?? '' }
      : { decision: 'credit', amount: fromCents(applyBasisPoints(dispute.amount, answer.credit_bp ?? 10000)), vendor_reference: `CM-${dispute.id.slice(4)}`, note: answer.note ?? '' };
    must(ctx.as(profile.as).post(`/disputes/${dispute.id}/answer`, body), `${dispute.vendor} answering ${dispute.id}`);
  }
}
