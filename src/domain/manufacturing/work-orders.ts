import { Type } from '@sinclair/typebox';
import { WorkOrderCancelled, WorkOrderCreated, WorkOrderReleased, WorkOrderRescheduled } from '../../events/contracts/manufacturing';
import type { Queries } from '../../projections';
import type { WorkOrderRow, WorkOrderStatus } from '../../projections/manufacturing';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { addDays, isBusinessDay, nextBusinessDay } from '../calendar';
import { emit, isRefusal, refuse, type Accepted, type DecideContext, type Refusal } from '../decision';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { shortages } from './availability';
import { WO_CREATE, WO_RELEASE } from './permissions';
import { plantCalendar } from './plant';
import { plannedComponents, plannedOperations } from './standards';
import { workOrderView } from './views';

const tag = 'manufacturing';
const objectType = 'work_order';
export const WoStatusInput = Type.Union(['planned', 'released', 'in_progress', 'completed', 'closed', 'cancelled'].map((s) => Type.Literal(s)));

/** The work order, or a refusal when it is missing or not in one of the states the action starts from. */
export function woIn(ctx: DecideContext, id: string, states: readonly WorkOrderStatus[], action: string): WorkOrderRow | Refusal {
  const wo = ctx.read.manufacturing.workOrder(id);
  if (!wo) return refuse('not_found', `No work order ${id}.`);
  if (!states.includes(wo.status)) return refuse('invalid_state', `${id} is ${wo.status}; only a work order that is ${states.join(' or ')} can be ${action}.`);
  return wo;
}

export interface NewWorkOrder {
  item: string;
  qty: number;
  start_date?: string;
  due_date?: string;
  warehouse?: string;
  planned_order?: string | null;
  note?: string;
}

/**
 * A planned work order for a made item, its components taken from the BOM in effect on its start
 * date (phantoms blown through) and its operations from the routing. Shared by POST /work-orders
 * and the release of an MRP planned order.
 */
export function createWorkOrder(ctx: DecideContext, input: NewWorkOrder): Accepted | Refusal {
  const item = ctx.read.items.item(input.item);
  if (!item) return refuse('not_found', `No item ${input.item}.`);
  const bom = ctx.read.manufacturing.bom(item.id);
  if (!bom) return refuse('invalid_request', `${item.id} has no bill of materials; only made items have work orders.`, 422);
  if (bom.phantom) return refuse('invalid_request', `${item.id} is a phantom: it is never made on its own; its parents' work orders take its components.`, 422);
  const warehouse = input.warehouse ?? ctx.read.manufacturing.plantSettings()?.warehouse;
  if (!warehouse) return refuse('invalid_request', 'Name the warehouse the work order draws from, or set the plant warehouse (POST /plant-settings).', 422);
  if (!ctx.read.items.warehouse(warehouse)) return refuse('not_found', `No warehouse ${warehouse}.`);
  const start = input.start_date ?? ctx.today;
  let due = input.due_date;
  if (!due) {
    due = addDays(start, item.lead_time_days);
    const cal = plantCalendar(ctx.read);
    if (!isBusinessDay(due, cal)) due = nextBusinessDay(due, cal);
  }
  if (due < start) return refuse('invalid_request', `The due date ${due} is before the start date ${start}.`, 422);
  const components = plannedComponents(ctx.read, item.id, input.qty, start);
  if (components.length === 0) return refuse('invalid_request', `The bill of materials of ${item.id} has no lines in effect on ${start}.`, 422);
  const id = ctx.nextId('WO');
  return emit(WorkOrderCreated, {
    id, item: item.id, qty: input.qty, warehouse, start_date: start, due_date: due, planned_order: input.planned_order ?? null,
    components, operations: plannedOperations(ctx.read, item.id), bom_date: start, note: input.note ?? '',
  }, objectType, id);
}

const view = (read: Queries, id: string) => workOrderView(read, id);

export const workOrderRoutes: RouteDef[] = [
  defineAction({
    action: 'work_order.create', method: 'POST', path: '/work-orders', tag, status: 201, objectType,
    summary: 'Plan a work order for a made item: components from the BOM in effect on the start date, operations from its routing',
    body: Body({
      item: IdInput,
      qty: Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }),
      start_date: Opt(DateInput),
      due_date: Opt(Type.String({ format: 'date', description: 'YYYY-MM-DD; default the start date plus the item lead time, on a working day' })),
      warehouse: Opt(Type.String({ minLength: 1, maxLength: 80, description: 'Default the plant warehouse' })),
      note: Opt(NoteInput),
    }),
    permission: WO_CREATE, emits: [WorkOrderCreated],
    decide: ({ body }, ctx) => createWorkOrder(ctx, body),
    view,
  }),
  defineAction({
    action: 'work_order.release', method: 'POST', path: '/work-orders/{id}/release', tag, objectType,
    summary: 'Release a planned work order to the floor; refused (components_short) unless every component is on hand beyond what other released orders need',
    body: Body({ note: Opt(NoteInput) }),
    permission: WO_RELEASE, emits: [WorkOrderReleased],
    decide: ({ params, body }, ctx) => {
      const wo = woIn(ctx, params.id!, ['planned'], 'released');
      if (isRefusal(wo)) return wo;
      const components = plannedComponents(ctx.read, wo.item, wo.qty, wo.start_date);
      const short = shortages(ctx.read, wo, components);
      if (short.length > 0) {
        const list = short.map((s) => `${s.item} short ${s.short} (needs ${s.needed}, ${s.available} available)`).join('; ');
        return refuse('components_short', `${wo.id} cannot be released: ${list}.`);
      }
      return emit(WorkOrderReleased, { id: wo.id, components, operations: plannedOperations(ctx.read, wo.item), bom_date: wo.start_date, note: body.note ?? '' }, objectType, wo.id);
    },
    view,
  }),
  defineAction({
    action: 'work_order.reschedule', method: 'POST', path: '/work-orders/{id}/reschedule', tag, objectType,
    summary: "Move an open work order's start and due dates (an MRP action message on it is then worked)",
    body: Body({ start_date: Opt(DateInput), due_date: Opt(DateInput), reason: ReasonInput, note: Opt(NoteInput) }),
    permission: WO_CREATE, emits: [WorkOrderRescheduled],
    decide: ({ params, body }, ctx) => {
      const wo = woIn(ctx, params.id!, ['planned', 'released', 'in_progress'], 'rescheduled');
      if (isRefusal(wo)) return wo;
      if (!body.start_date && !body.due_date) return refuse('invalid_request', 'Give the new start_date, due_date or both.', 422);
      const start = body.start_date ?? wo.start_date;
      const due = body.due_date ?? wo.due_date;
      if (due < start) return refuse('invalid_request', `The due date ${due} is before the start date ${start}.`, 422);
      return emit(WorkOrderRescheduled, { id: wo.id, start_date: start, due_date: due, previous_start: wo.start_date, previous_due: wo.due_date, reason: body.reason, note: body.note ?? '' }, objectType, wo.id);
    },
    view,
  }),
  defineAction({
    action: 'work_order.cancel', method: 'POST', path: '/work-orders/{id}/cancel', tag, objectType,
    summary: 'Cancel a planned or released work order that nothing has been issued to or completed on',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: WO_CREATE, emits: [WorkOrderCancelled],
    decide: ({ params, body }, ctx) => {
      const wo = woIn(ctx, params.id!, ['planned', 'released'], 'cancelled');
      if (isRefusal(wo)) return wo;
      if (ctx.read.manufacturing.issuesOf(wo.id).length > 0) return refuse('invalid_state', `${wo.id} has material issued to it; reverse the issues or close it instead.`);
      return emit(WorkOrderCancelled, { id: wo.id, reason: body.reason, note: body.note ?? '' }, objectType, wo.id);
    },
    view,
  }),
  defineQuery({
    path: '/work-orders', tag, summary: 'List work orders by status, item or the MRP planned order they came from', permission: null,
    query: ListQuery({ status: Opt(WoStatusInput), item: Opt(IdInput), planned_order: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'work_orders', { status: query.status, item: query.item, planned_order: query.planned_order }, query, {
      map: (r) => workOrderView(ctx.read, r.id as string, false),
    }),
  }),
  defineQuery({
    path: '/work-orders/{id}', tag, objectType, permission: null,
    summary: 'A work order: components (required, issued, remaining), operations, issues, completions, WIP, shortages while planned, status history and links',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => workOrderView(ctx.read, params.id!),
  }),
];
