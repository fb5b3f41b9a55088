import { Type } from '@sinclair/typebox';
import { WORK_RECORD_TYPES, WorkItemAssigned, type WorkRecordType } from '../../events/contracts/workqueue';
import type { Queries } from '../../projections';
import type { WorkItemRow } from '../../projections/work-queue';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { fromCents } from '../money';
import { Body, IdInput, NoteInput, Opt } from '../schemas';

/** Putting records in someone's queue is a supervisor's (or a scenario generator's) act. */
export const WORK_ITEM_ASSIGN = 'work_item.assign';

const tag = 'queue';
const RecordTypeInput = Type.Union(WORK_RECORD_TYPES.map((t) => Type.Literal(t)), { description: WORK_RECORD_TYPES.join(' or ') });

/** What a queue line says about its record, so a clerk can tell the items apart before opening them. */
function recordSummary(read: Queries, type: WorkRecordType, id: string): Record<string, unknown> | null {
  if (type === 'ap_invoice') {
    const inv = read.payables.invoice(id);
    if (!inv) return null;
    return {
      vendor: inv.vendor, vendor_name: read.vendors.vendor(inv.vendor)?.name ?? '', vendor_invoice_number: inv.vendor_invoice_number,
      invoice_date: inv.invoice_date, po: inv.po, total: fromCents(inv.total), open_amount: fromCents(inv.open_amount), status: inv.status,
    };
  }
  const line = read.cash.statementLine(id);
  if (!line) return null;
  return { bank_account: line.bank_account, date: line.date, kind: line.kind, amount: fromCents(line.amount), reference: line.reference, description: line.description, status: line.status };
}

function recordExists(read: Queries, type: WorkRecordType, id: string): boolean {
  return type === 'ap_invoice' ? read.payables.invoice(id) !== undefined : read.cash.statementLine(id) !== undefined;
}

export function workItemView(read: Queries, item: WorkItemRow, position?: number) {
  return {
    id: item.id, ...(position !== undefined ? { position } : {}), record_type: item.record_type, record_id: item.record_id,
    assigned_to: item.assigned_to, assigned_date: item.created_date, note: item.note, status: item.status,
    record: recordSummary(read, item.record_type, item.record_id),
  };
}

/** Work queues: the records a user is asked to work, in the order they were put there. */
export const workQueueRoutes: RouteDef[] = [
  defineAction({
    action: 'work_item.assign', method: 'POST', path: '/work-items', tag, status: 201, objectType: 'work_item',
    summary: "Put a record in a user's work queue",
    body: Body({ assigned_to: IdInput, record_type: RecordTypeInput, record_id: IdInput, note: Opt(NoteInput) }),
    permission: WORK_ITEM_ASSIGN, emits: [WorkItemAssigned],
    decide: ({ body }, ctx) => {
      const user = ctx.read.org.user(body.assigned_to);
      if (!user || user.kind !== 'staff') return refuse('not_found', `No staff user ${body.assigned_to}.`);
      const type = body.record_type as WorkRecordType;
      if (!recordExists(ctx.read, type, body.record_id)) return refuse('not_found', `No ${type} ${body.record_id}.`);
      const held = ctx.read.workQueue.itemsFor(type, body.record_id).find((i) => i.assigned_to === user.id);
      if (held) return refuse('already_exists', `${body.record_id} is already in ${user.id}'s queue (${held.id}).`);
      const id = ctx.nextId('WI');
      return emit(WorkItemAssigned, { id, assigned_to: user.id, record_type: type, record_id: body.record_id, note: body.note ?? '' }, 'work_item', id);
    },
    view: (read, id) => {
      const item = read.workQueue.item(id);
      return item && workItemView(read, item);
    },
  }),
  defineQuery({
    path: '/work-queue', tag, permission: null,
    summary: 'Your work queue: the records assigned to you, in queue order, each with a summary of its record',
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => {
      const items = ctx.read.workQueue.queueOf(ctx.actor.id).map((item, i) => workItemView(ctx.read, item, i + 1));
      return { user: ctx.actor.id, items, total: items.length };
    },
  }),
];
