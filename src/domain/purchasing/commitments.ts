import type { Queries } from '../../projections';
import { openQtyOf, type PoStatus } from '../../projections/purchasing-orders';
import { roundCents } from '../money';
import { registerCommitments, type Commitment } from '../reports/budget-vs-actual';
import { poLineDepartment } from './po-lines';

/** POs whose unreceived value is committed: approved and not yet closed or cancelled. */
const COMMITTED: readonly PoStatus[] = ['approved', 'sent', 'partially_received', 'received'];

export const COMMITMENT_RULE =
  'Open commitments are approved requisition lines not yet on a purchase order, at their estimated amount, in the month the requisition was approved; ' +
  'plus the unreceived quantity of approved, sent and partially received purchase order lines at PO price (short-closed and cancelled lines excluded), ' +
  'in the month the PO was approved, for the department of the requisition the line converts (else the PO\'s department) and the line\'s account.';

/** Open commitments per department and account whose month falls in the range (see COMMITMENT_RULE). */
export function openCommitments(read: Queries, range: { department: string | null; from: string; to: string }): Commitment[] {
  const inRange = (date: string | null, department: string | null): department is string =>
    date !== null && department !== null && date.slice(0, 7) >= range.from && date.slice(0, 7) <= range.to
    && (range.department === null || department === range.department);
  const out: Commitment[] = [];
  for (const l of read.requisitions.approvedUnconverted()) {
    if (inRange(l.approved_date, l.department)) out.push({ department: l.department, account: l.account, amount: l.amount });
  }
  for (const po of read.purchasing.posWithStatus(COMMITTED)) {
    for (const line of read.purchasing.poLines(po.id)) {
      const department = poLineDepartment(read, po, line);
      const open = roundCents(openQtyOf(line) * line.unit_price);
      if (open !== 0 && inRange(po.approved_date, department)) out.push({ department, account: line.account, amount: open });
    }
  }
  return out;
}

registerCommitments(openCommitments, COMMITMENT_RULE);
