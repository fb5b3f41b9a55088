import type { SimContext } from '../simulator';
import { must, paymentRunsProfile } from './payables-profiles';

/**
 * The payment-run approver approves runs submitted before today that it may approve (not its own,
 * within its payment_run limit) and, when its profile says so, releases the runs it approved once
 * their payment date comes. A run whose release is refused (an invoice put on hold since, a bank
 * account no longer verified) goes back to its preparer with the refusal's code as the reason.
 */
export function paymentRunApprover(ctx: SimContext): void {
  const profile = paymentRunsProfile(ctx);
  if (!profile || !ctx.businessDay) return;
  const approver = ctx.as(profile.as);
  const limit = ctx.read.org.approvalLimit(profile.as, 'payment_run', null);
  for (const run of ctx.read.payments.runsWithStatus(['submitted'])) {
    if (run.submitted_date === null || run.submitted_date >= ctx.date) continue;
    if (run.created_by === profile.as || limit === null || run.total_amount > limit) continue;
    must(approver.post(`/payment-runs/${run.id}/approve`, { note: 'Approved' }), `${profile.as} approving ${run.id}`);
  }
  if (!profile.release) return;
  for (const run of ctx.read.payments.runsWithStatus(['approved'])) {
    if (run.approved_by !== profile.as || run.payment_date > ctx.date) continue;
    const res = approver.post(`/payment-runs/${run.id}/release`, {});
    if (res.status < 300) continue;
    must(approver.post(`/payment-runs/${run.id}/return`, { reason: String(res.body.code ?? 'release_refused'), note: String(res.body.detail ?? '') }), `${profile.as} returning ${run.id}`);
  }
}
