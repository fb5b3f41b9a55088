import type { Queries } from '../../projections';
import type { ApprovalRequestRow, RequisitionLineRow, RequisitionRow } from '../../projections/purchasing-requisitions';
import { withDecimals } from '../decimal-view';

export const approvalRequestView = (row: ApprovalRequestRow) => withDecimals(row, ['amount']);

/** A requisition as GET /requisitions/{id} shows it: lines, approval history, status history and links. */
export function requisitionView(read: Queries, id: string) {
  const req = read.requisitions.requisition(id);
  if (!req) return undefined;
  const lines = read.requisitions.lines(id);
  const history = read.requisitions.approvalHistory('requisition', id);
  const pos = [...new Set(lines.map((l) => l.converted_po).filter((po): po is string => po !== null))].sort();
  return {
    ...withDecimals(req as RequisitionRow, ['total']),
    lines: lines.map((l) => withDecimals(l as RequisitionLineRow, ['unit_price', 'amount'])),
    approval_history: history.map(approvalRequestView),
    links: [
      { rel: 'requester', type: 'user', id: req.requester },
      { rel: 'department', type: 'department', id: req.department },
      ...history.map((a) => ({ rel: 'approval_request', type: 'approval_request', id: a.id })),
      ...pos.map((po) => ({ rel: 'purchase_order', type: 'purchase_order', id: po })),
    ],
  };
}

export function approvalRequestDetail(read: Queries, id: string) {
  const row = read.requisitions.approvalRequest(id);
  if (!row) return undefined;
  return {
    ...approvalRequestView(row),
    links: [
      { rel: 'document', type: row.document_type, id: row.document_id },
      ...(row.previous_request ? [{ rel: 'previous', type: 'approval_request', id: row.previous_request }] : []),
      ...(row.next_request ? [{ rel: 'next', type: 'approval_request', id: row.next_request }] : []),
    ],
  };
}
