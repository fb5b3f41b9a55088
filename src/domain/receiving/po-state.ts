import type { PurchaseOrderRow } from '../../projections/purchasing-orders';
import { refuse, type DecideContext, type Refusal } from '../decision';

/**
 * The PO, when goods may be received or shipped against it. Seed §5: only a sent PO can be
 * received, so one never sent (a draft, an approved order, one cancelled before sending) is
 * po_not_sent; one sent and since closed or cancelled expects nothing more (invalid_state).
 * Receiving more than was ordered is a soft control and is accepted.
 */
export function receivablePo(ctx: DecideContext, id: string): PurchaseOrderRow | Refusal {
  const po = ctx.read.purchasing.po(id);
  if (!po) return refuse('not_found', `No purchase order ${id}.`);
  if (po.sent_date === null) return refuse('po_not_sent', `${po.id} is ${po.status} and was never sent; only a purchase order sent to its vendor can be received against.`);
  if (po.status === 'closed' || po.status === 'cancelled') return refuse('invalid_state', `${po.id} is ${po.status}; nothing more is received on it.`);
  return po;
}
