import type { DecideContext, Refusal } from './decision';
import { refuse } from './decision';
import { formatCents } from './money';

export interface ApprovalSubject {
  /** What the delegation-of-authority table calls it: requisition, purchase_order, journal_entry, … */
  documentType: string;
  documentId: string;
  /** Who raised or prepared the document. */
  requester: string;
  amount: number;
  department: string | null;
  /** A buyer's release of their own purchase order is allowed within their limit. */
  selfApprovalAllowed?: boolean;
}

/**
 * The hard controls of every approval (seed 000 environment §5): nobody approves their own
 * document, nor above their limit. A user with no limit for the document type may not approve it.
 * Returns the refusal, or undefined when the actor may approve.
 */
export function approvalRefusal(ctx: DecideContext, subject: ApprovalSubject): Refusal | undefined {
  if (ctx.actor.system) return undefined;
  if (subject.requester === ctx.actor.id && !subject.selfApprovalAllowed) {
    return refuse('requester_cannot_approve', `${subject.documentId} was raised by you; a requester cannot approve their own ${subject.documentType.replace(/_/g, ' ')}.`);
  }
  const limit = ctx.read.org.approvalLimit(ctx.actor.id, subject.documentType, subject.department);
  if (limit === null) return refuse('forbidden', `You have no approval limit for ${subject.documentType.replace(/_/g, ' ')}s.`);
  if (subject.amount > limit) {
    return refuse('over_limit', `${subject.documentId} is ${formatCents(subject.amount)}, above your approval limit of ${formatCents(limit)}; route it to the next approver.`);
  }
  return undefined;
}
