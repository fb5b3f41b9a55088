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
  const monthInRange = (date: string | null): date is string => date !== null && date.slice(0, 7) >= range.from && date.slice(0, 7) <= range.to;
  const departmentInRange = (department: string | null): department is string => department !== null && (range.department === null || department === range.department);
  const out: Commitment[] = [];
  for (const l of read.requisitions.approvedUnconverted()) {
    if (monthInRange(l.approved_date) && departmentInRange(l.department)) out.push({ department: l.department, account: l.account, amount: l.amount });
  }
  // Cheapest tests first: approvers ask this on every decision, of every PO still open.
  for (const po of read.purchasing.posWithStatus(COMMITTED)) {
    if (!monthInRange(po.approved_date)) continue;
    for (const line of read.purchasing.poLines(po.id)) {
      const open = roundCents(openQtyOf(line) * line.unit_price);
      if (open === 0) continue;
      const department = poLineDepartment(read, po, line);
      if (departmentInRange(department)) out.push({ department, account: line.account, amount: open });
    }
  }
  return out;
}

registerCommitments(openCommitments, COMMITMENT_RULE);
