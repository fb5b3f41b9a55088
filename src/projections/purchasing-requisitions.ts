import {
  PurchaseOrderCancelled, PurchaseOrderCreated, PurchaseOrderRevised, RequisitionApproved, RequisitionCancelled, RequisitionCreated,
  RequisitionRejected, RequisitionReturned, RequisitionRevised, RequisitionRouted, RequisitionSubmitted,
} from '../events/contracts/purchasing';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export type RequisitionStatus = 'draft' | 'submitted' | 'approved' | 'returned' | 'rejected' | 'converted' | 'cancelled';
export type ApprovalRequestStatus = 'pending' | 'approved' | 'rejected' | 'returned' | 'routed' | 'cancelled';

export interface RequisitionRow {
  id: string;
  requester: string;
  department: string;
  purpose: string;
  need_by: string;
  total: number;
  status: RequisitionStatus;
  /** The open approval request, while the requisition waits for a decision. */
  approval_request: string | null;
  assigned_to: string | null;
  submitted_date: string | null;
  approved_by: string | null;
  approved_date: string | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface RequisitionLineRow {
  requisition: string;
  line: number;
  item: string | null;
  description: string;
  qty: number;
  unit: string;
  unit_price: number;
  amount: number;
  account: string;
  suggested_vendor: string | null;
  /** Set when a PO line converts this line. */
  converted_po: string | null;
  converted_po_line: number | null;
}

export interface ApprovalRequestRow {
  id: string;
  document_type: string;
  document_id: string;
  requester: string;
  department: string;
  amount: number;
  assigned_to: string;
  /** Who put it in the assignee's queue, and why: `submitted`, or the reason code it was routed with. */
  assigned_by: string;
  assigned_reason: string;
  assigned_note: string;
  previous_request: string | null;
  status: ApprovalRequestStatus;
  decided_by: string | null;
  decided_date: string | null;
  reason: string | null;
  note: string | null;
  routed_to: string | null;
  next_request: string | null;
  created_date: string;
  status_history: StatusChange[];
}

type Req = RequisitionRow & Record<string, unknown>;
type ReqLine = RequisitionLineRow & Record<string, unknown>;
type Apr = ApprovalRequestRow & Record<string, unknown>;

function writeLines(tx: ProjectionTx, id: string, lines: readonly Omit<RequisitionLineRow, 'requisition' | 'converted_po' | 'converted_po_line'>[]): void {
  for (const old of tx.find<ReqLine>('requisition_lines', { requisition: id })) tx.remove('requisition_lines', { requisition: id, line: old.line });
  for (const l of lines) tx.insert('requisition_lines', { requisition: id, ...l, converted_po: null, converted_po_line: null });
}

function setStatus(tx: ProjectionTx, id: string, status: RequisitionStatus, event: EventRow, reason: string | null, recipe: (r: Req) => void = () => undefined): void {
  tx.update<Req>('requisitions', id, (r) => {
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
    recipe(r as Req);
  });
}

function closeRequest(tx: ProjectionTx, id: string, status: ApprovalRequestStatus, event: EventRow, reason: string | null, note: string, recipe: (r: Apr) => void = () => undefined): void {
  tx.update<Apr>('approval_requests', id, (r) => {
    r.status = status;
    r.decided_by = event.actor;
    r.decided_date = event.businessDate;
    r.reason = reason;
    r.note = note;
    r.status_history.push(statusChange(status, event, reason));
    recipe(r as Apr);
  });
}

function openRequest(tx: ProjectionTx, req: RequisitionRow, id: string, assignee: string, reason: string, note: string, previous: string | null, event: EventRow): void {
  tx.insert('approval_requests', {
    id, document_type: 'requisition', document_id: req.id, requester: req.requester, department: req.department, amount: req.total,
    assigned_to: assignee, assigned_by: event.actor, assigned_reason: reason, assigned_note: note, previous_request: previous, status: 'pending',
    decided_by: null, decided_date: null, reason: null, note: null, routed_to: null, next_request: null, ...documentStamp(event, 'pending', reason),
  });
}

/** Converted when every line is on a PO; back to approved when a PO gives a line up (cancelled, or removed while a draft). */
function settleConversion(tx: ProjectionTx, requisitions: Iterable<string>, event: EventRow, reason: string | null): void {
  for (const id of [...new Set(requisitions)].sort()) {
    const req = tx.get<Req>('requisitions', id);
    if (!req) continue;
    const allConverted = tx.find<ReqLine>('requisition_lines', { requisition: id }).every((l) => l.converted_po !== null);
    if (req.status === 'approved' && allConverted) setStatus(tx, id, 'converted', event, null);
    else if (req.status === 'converted' && !allConverted) setStatus(tx, id, 'approved', event, reason);
  }
}

function convert(tx: ProjectionTx, po: string, lines: readonly { line: number; requisition_lines: readonly { requisition: string; line: number }[] }[]): string[] {
  const touched: string[] = [];
  for (const l of lines) {
    for (const ref of l.requisition_lines) {
      if (!tx.get('requisition_lines', { requisition: ref.requisition, line: ref.line })) continue;
      tx.update<ReqLine>('requisition_lines', { requisition: ref.requisition, line: ref.line }, (r) => { r.converted_po = po; r.converted_po_line = l.line; });
      touched.push(ref.requisition);
    }
  }
  return touched;
}

function release(tx: ProjectionTx, po: string): string[] {
  const freed = tx.find<ReqLine>('requisition_lines', { converted_po: po });
  for (const l of freed) tx.update<ReqLine>('requisition_lines', { requisition: l.requisition, line: l.line }, (r) => { r.converted_po = null; r.converted_po_line = null; });
  return freed.map((l) => l.requisition);
}

/** Requisitions, their lines and the approval requests they raise (seed 000 environment §3–§4). */
export const requisitions = defineReadModel({
  name: 'requisitions',
  tables: [
    {
      name: 'requisitions',
      columns: {
        id: 'text', requester: 'text', department: 'text', purpose: 'text', need_by: 'text', total: 'integer', status: 'text',
        approval_request: 'text', assigned_to: 'text', submitted_date: 'text', approved_by: 'text', approved_date: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['status'], ['requester'], ['department'], ['assigned_to']],
    },
    {
      name: 'requisition_lines',
      columns: {
        requisition: 'text', line: 'integer', item: 'text', description: 'text', qty: 'real', unit: 'text', unit_price: 'integer', amount: 'integer',
        account: 'text', suggested_vendor: 'text', converted_po: 'text', converted_po_line: 'integer',
      },
      key: ['requisition', 'line'],
      indexes: [['converted_po'], ['item']],
    },
    {
      name: 'approval_requests',
      columns: {
        id: 'text', document_type: 'text', document_id: 'text', requester: 'text', department: 'text', amount: 'integer', assigned_to: 'text',
        assigned_by: 'text', assigned_reason: 'text', assigned_note: 'text', previous_request: 'text', status: 'text', decided_by: 'text',
        decided_date: 'text', reason: 'text', note: 'text', routed_to: 'text', next_request: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['assigned_to', 'status'], ['document_type', 'document_id']],
    },
  ],
  handlers: [
    on(RequisitionCreated, (tx, d, e) => {
      tx.insert('requisitions', {
        id: d.id, requester: d.requester, department: d.department, purpose: d.purpose, need_by: d.need_by, total: d.total, status: 'draft',
        approval_request: null, assigned_to: null, submitted_date: null, approved_by: null, approved_date: null, ...documentStamp(e, 'draft'),
      });
      writeLines(tx, d.id, d.lines);
    }),
    on(RequisitionRevised, (tx, d) => {
      tx.update<Req>('requisitions', d.id, (r) => Object.assign(r, { purpose: d.purpose, need_by: d.need_by, total: d.total }));
      writeLines(tx, d.id, d.lines);
    }),
    on(RequisitionSubmitted, (tx, d, e) => {
      setStatus(tx, d.id, 'submitted', e, null, (r) => Object.assign(r, { approval_request: d.approval_request, assigned_to: d.assigned_to, submitted_date: e.businessDate }));
      openRequest(tx, tx.get<Req>('requisitions', d.id)!, d.approval_request, d.assigned_to, 'submitted', d.note, null, e);
    }),
    on(RequisitionApproved, (tx, d, e) => {
      closeRequest(tx, d.approval_request, 'approved', e, null, d.note);
      setStatus(tx, d.id, 'approved', e, null, (r) => Object.assign(r, { approval_request: null, assigned_to: null, approved_by: e.actor, approved_date: e.businessDate }));
    }),
    on(RequisitionRejected, (tx, d, e) => {
      closeRequest(tx, d.approval_request, 'rejected', e, d.reason, d.note);
      setStatus(tx, d.id, 'rejected', e, d.reason, (r) => Object.assign(r, { approval_request: null, assigned_to: null }));
    }),
    on(RequisitionReturned, (tx, d, e) => {
      closeRequest(tx, d.approval_request, 'returned', e, d.reason, d.note);
      setStatus(tx, d.id, 'returned', e, d.reason, (r) => Object.assign(r, { approval_request: null, assigned_to: null }));
    }),
    on(RequisitionRouted, (tx, d, e) => {
      closeRequest(tx, d.approval_request, 'routed', e, d.reason, d.note, (r) => { r.routed_to = d.to; r.next_request = d.new_request; });
      tx.update<Req>('requisitions', d.id, (r) => Object.assign(r, { approval_request: d.new_request, assigned_to: d.to }));
      openRequest(tx, tx.get<Req>('requisitions', d.id)!, d.new_request, d.to, d.reason, d.note, d.approval_request, e);
    }),
    on(RequisitionCancelled, (tx, d, e) => {
      if (d.approval_request) closeRequest(tx, d.approval_request, 'cancelled', e, d.reason, d.note);
      setStatus(tx, d.id, 'cancelled', e, d.reason, (r) => Object.assign(r, { approval_request: null, assigned_to: null }));
    }),
    on(PurchaseOrderCreated, (tx, d, e) => settleConversion(tx, convert(tx, d.id, d.lines), e, null)),
    on(PurchaseOrderRevised, (tx, d, e) => {
      const freed = release(tx, d.id);
      settleConversion(tx, [...freed, ...convert(tx, d.id, d.lines)], e, 'po_line_removed');
    }),
    on(PurchaseOrderCancelled, (tx, d, e) => settleConversion(tx, release(tx, d.id), e, 'po_cancelled')),
  ],
  queries: (t) => ({
    requisition: (id: string) => t.get<Req>('requisitions', id),
    lines: (id: string) => t.find<ReqLine>('requisition_lines', { requisition: id }),
    line: (id: string, line: number) => t.get<ReqLine>('requisition_lines', { requisition: id, line }),
    /** Requisition lines a PO converts, in requisition and line order. */
    linesConvertedBy: (po: string) => t.find<ReqLine>('requisition_lines', { converted_po: po }),
    approvalRequest: (id: string) => t.get<Apr>('approval_requests', id),
    /** Every approval request a document has raised, oldest first: its approval history. */
    approvalHistory: (documentType: string, documentId: string) => t.find<Apr>('approval_requests', { document_type: documentType, document_id: documentId }),
    /** Pending approval requests in a user's queue, oldest first. */
    pendingFor: (user: string) => t.find<Apr>('approval_requests', { assigned_to: user, status: 'pending' }),
    /** Approved requisitions' lines not yet on a PO: open commitments before ordering. */
    approvedUnconverted(): (ReqLine & { department: string; approved_date: string | null })[] {
      const approved = t.find<Req>('requisitions', { status: 'approved' });
      return approved.flatMap((r) => t.find<ReqLine>('requisition_lines', { requisition: r.id, converted_po: null })
        .map((l) => ({ ...l, department: r.department, approved_date: r.approved_date })));
    },
  }),
});
