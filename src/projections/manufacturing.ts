import type { BomLine, RoutingOperation, WipMovement, WoComponent, WoOperation } from '../events/contracts/manufacturing';
import {
  BomDefined, EngineeringChangeRecorded, PlantSettingsSet, PlantShutdownScheduled, RoutingDefined, WorkCenterDefined, WorkOrderCancelled,
  WorkOrderClosed, WorkOrderCompleted, WorkOrderCreated, WorkOrderIssueReversed, WorkOrderMaterialIssued, WorkOrderReleased, WorkOrderRescheduled,
} from '../events/contracts/manufacturing';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { journalOf, UnpostableJournal, type AccountRow } from './ledger';
import { roundQty } from './quantities';
import { defineReadModel, on, onEvery, type ProjectionTx } from './read-model';
import type { TableAccess } from './table-access';

export type WorkOrderStatus = 'planned' | 'released' | 'in_progress' | 'completed' | 'closed' | 'cancelled';

export interface BomRow {
  item: string;
  phantom: boolean;
  description: string;
  note: string;
  created_by: string;
  created_date: string;
}

export interface BomLineRow extends BomLine {
  item: string;
  /** The engineering change that added or ended the line, if any. */
  added_by_change: string | null;
  ended_by_change: string | null;
}

export interface EngineeringChangeRow {
  id: string;
  item: string;
  effective_date: string;
  reason: string;
  ended_lines: number[];
  ended_on: string;
  added_lines: BomLine[];
  note: string;
  created_by: string;
  created_date: string;
}

export interface WorkCenterRow {
  id: string;
  name: string;
  capacity_hours_per_day: number;
  rate_per_hour: number;
}

export interface ShutdownRow {
  id: string;
  from_date: string;
  to_date: string;
  work_center: string | null;
  reason: string;
  note: string;
}

export interface RoutingOperationRow extends RoutingOperation {
  item: string;
}

export interface WorkOrderRow {
  id: string;
  item: string;
  qty: number;
  warehouse: string;
  start_date: string;
  due_date: string;
  status: WorkOrderStatus;
  planned_order: string | null;
  bom_date: string;
  qty_completed: number;
  qty_scrapped: number;
  /** Cents: components issued net of reversals, labour and overhead applied, and what left WIP. */
  material_issued: number;
  conversion_applied: number;
  completed_value: number;
  scrap_value: number;
  variance: number;
  /** Set on close: the standards the order was allowed and the variances posted (cents). */
  material_standard: number | null;
  material_variance: number | null;
  conversion_standard: number | null;
  conversion_variance: number | null;
  standard_difference: number | null;
  wip_balance: number;
  released_date: string | null;
  completed_date: string | null;
  closed_date: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface WoComponentRow extends WoComponent {
  work_order: string;
  /** Issued net of reversals. */
  issued: number;
}

export interface WoOperationRow extends WoOperation {
  work_order: string;
  hours_reported: number;
}

export interface WoIssueLineRow {
  id: string;
  line: number;
  kind: 'issue' | 'reversal';
  /** For a reversal, the issue it reverses. */
  reverses: string | null;
  work_order: string;
  item: string;
  /** Signed: a reversal's quantity and value are negative. */
  qty: number;
  value: number;
  date: string;
  status: 'posted' | 'reversed';
  reason: string | null;
  created_by: string;
  created_date: string;
}

export interface WoCompletionRow {
  id: string;
  work_order: string;
  date: string;
  qty: number;
  scrap_qty: number;
  scrap_reason: string | null;
  warehouse: string;
  location: string | null;
  lot: string | null;
  conversion_value: number;
  completed_value: number;
  scrap_value: number;
  created_by: string;
}

type R<T> = T & Record<string, unknown>;

const stamp = (e: EventRow) => ({ created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime });

function planRows(tx: ProjectionTx, id: string, components: readonly WoComponent[], operations: readonly WoOperation[]): void {
  for (const c of tx.find<R<WoComponentRow>>('wo_components', { work_order: id })) tx.remove('wo_components', { work_order: id, item: c.item });
  for (const o of tx.find<R<WoOperationRow>>('wo_operations', { work_order: id })) tx.remove('wo_operations', { work_order: id, seq: o.seq });
  for (const c of components) tx.insert('wo_components', { work_order: id, ...c, issued: 0 });
  for (const o of operations) tx.insert('wo_operations', { work_order: id, ...o, hours_reported: 0 });
}

function changeStatus(tx: ProjectionTx, id: string, event: EventRow, status: WorkOrderStatus | null, recipe: (r: R<WorkOrderRow>) => void, reason: string | null = null): void {
  tx.update<R<WorkOrderRow>>('work_orders', id, (r) => {
    recipe(r as R<WorkOrderRow>);
    if (status !== null && r.status !== status) {
      r.status = status;
      r.status_history.push(statusChange(status, event, reason));
    }
  });
}

function issueLines(tx: ProjectionTx, event: EventRow, d: { id: string; work_order: string; date: string; lines: { line: number; item: string; qty: number; value: number }[] }, kind: 'issue' | 'reversal', sign: 1 | -1, reverses: string | null, reason: string | null): void {
  for (const l of d.lines) {
    tx.insert('wo_material_issues', {
      id: d.id, line: l.line, kind, reverses, work_order: d.work_order, item: l.item, qty: sign * l.qty, value: sign * l.value, date: d.date,
      status: 'posted', reason, ...stamp(event),
    });
    const key = { work_order: d.work_order, item: l.item };
    const component = tx.get<R<WoComponentRow>>('wo_components', key);
    if (component) tx.update<R<WoComponentRow>>('wo_components', key, (c) => { c.issued = roundQty(c.issued + sign * l.qty); });
    else {
      // An item the BOM does not list: recorded so the order shows everything it consumed.
      const standard = tx.get<{ standard_cost: number }>('items', l.item)?.standard_cost ?? 0;
      tx.insert('wo_components', { work_order: d.work_order, item: l.item, qty_per: 0, required: 0, standard_cost: standard, via_phantom: null, issued: roundQty(sign * l.qty) });
    }
  }
}

/** What an event's journal posts to the WIP control account(s), debit-positive. */
function wipNet(tx: ProjectionTx, event: EventRow): number {
  let net = 0;
  for (const line of journalOf(event.data)?.lines ?? []) {
    if (tx.get<R<AccountRow>>('accounts', line.account)?.subledger === 'wip') net += line.debit - line.credit;
  }
  return net;
}

function wipMovementsOf(data: unknown): WipMovement[] {
  if (data === null || typeof data !== 'object' || !('wip' in data)) return [];
  return ((data as { wip?: WipMovement[] }).wip) ?? [];
}

/**
 * Manufacturing master data (BOMs with their effectivity and engineering changes, work centers, the
 * plant calendar's shutdowns, routings) and work orders with their components, operations, material
 * issues and completions. WIP is folded from the `wip` movements any event carries, checked against
 * what its journal posts to the WIP account, so the WIP subledger ties by construction.
 */
export const manufacturing = defineReadModel({
  name: 'manufacturing',
  tables: [
    { name: 'boms', columns: { item: 'text', phantom: 'bool', description: 'text', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['item'] },
    {
      name: 'bom_lines',
      columns: {
        item: 'text', line: 'integer', component: 'text', qty_per: 'real', scrap_bp: 'integer', effective_from: 'text', effective_to: 'text',
        added_by_change: 'text', ended_by_change: 'text',
      },
      key: ['item', 'line'],
      indexes: [['component']],
    },
    {
      name: 'engineering_changes',
      columns: { id: 'text', item: 'text', effective_date: 'text', reason: 'text', ended_lines: 'json', ended_on: 'text', added_lines: 'json', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' },
      key: ['id'],
      indexes: [['item']],
    },
    { name: 'work_centers', columns: { id: 'text', name: 'text', capacity_hours_per_day: 'real', rate_per_hour: 'integer', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['id'] },
    {
      name: 'plant_shutdowns',
      columns: { id: 'text', from_date: 'text', to_date: 'text', work_center: 'text', reason: 'text', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' },
      key: ['id'],
    },
    { name: 'plant_settings', columns: { id: 'integer', warehouse: 'text', completion_location: 'text', set_by: 'text', set_date: 'text' }, key: ['id'] },
    {
      name: 'routing_operations',
      columns: { item: 'text', seq: 'integer', work_center: 'text', description: 'text', setup_hours: 'real', run_hours_per_unit: 'real' },
      key: ['item', 'seq'],
      indexes: [['work_center']],
    },
    {
      name: 'work_orders',
      columns: {
        id: 'text', item: 'text', qty: 'real', warehouse: 'text', start_date: 'text', due_date: 'text', status: 'text', planned_order: 'text', bom_date: 'text',
        qty_completed: 'real', qty_scrapped: 'real', material_issued: 'integer', conversion_applied: 'integer', completed_value: 'integer', scrap_value: 'integer',
        variance: 'integer', material_standard: 'integer', material_variance: 'integer', conversion_standard: 'integer', conversion_variance: 'integer',
        standard_difference: 'integer', wip_balance: 'integer', released_date: 'text', completed_date: 'text', closed_date: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['status'], ['item', 'status']],
    },
    {
      name: 'wo_components',
      columns: { work_order: 'text', item: 'text', qty_per: 'real', required: 'real', standard_cost: 'integer', via_phantom: 'text', issued: 'real' },
      key: ['work_order', 'item'],
      indexes: [['item']],
    },
    {
      name: 'wo_operations',
      columns: {
        work_order: 'text', seq: 'integer', work_center: 'text', description: 'text', setup_hours: 'real', run_hours_per_unit: 'real', rate_per_hour: 'integer', hours_reported: 'real',
      },
      key: ['work_order', 'seq'],
      indexes: [['work_center']],
    },
    {
      name: 'wo_material_issues',
      columns: {
        id: 'text', line: 'integer', kind: 'text', reverses: 'text', work_order: 'text', item: 'text', qty: 'real', value: 'integer', date: 'text', status: 'text',
        reason: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id', 'line'],
      indexes: [['work_order'], ['reverses']],
    },
    {
      name: 'wo_completions',
      columns: {
        id: 'text', work_order: 'text', date: 'text', qty: 'real', scrap_qty: 'real', scrap_reason: 'text', warehouse: 'text', location: 'text', lot: 'text',
        conversion_value: 'integer', completed_value: 'integer', scrap_value: 'integer', hours: 'json', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['work_order']],
    },
    {
      name: 'wip_transactions',
      columns: { event_id: 'integer', n: 'integer', work_order: 'text', date: 'text', kind: 'text', amount: 'integer', source_type: 'text' },
      key: ['event_id', 'n'],
      indexes: [['work_order'], ['date']],
    },
  ],
  handlers: [
    on(BomDefined, (tx, d, e) => {
      tx.insert('boms', { item: d.item, phantom: d.phantom, description: d.description, note: d.note, ...stamp(e) });
      for (const l of d.lines) tx.insert('bom_lines', { item: d.item, ...l, added_by_change: null, ended_by_change: null });
    }),
    on(EngineeringChangeRecorded, (tx, d, e) => {
      tx.insert('engineering_changes', { ...d, ...stamp(e) });
      for (const line of d.ended_lines) {
        tx.update<R<BomLineRow>>('bom_lines', { item: d.item, line }, (r) => { r.effective_to = d.ended_on; r.ended_by_change = d.id; });
      }
      for (const l of d.added_lines) tx.insert('bom_lines', { item: d.item, ...l, added_by_change: d.id, ended_by_change: null });
    }),
    on(WorkCenterDefined, (tx, d, e) => tx.upsert('work_centers', { ...d, ...stamp(e) }, (r) => Object.assign(r, d))),
    on(PlantShutdownScheduled, (tx, d, e) => tx.insert('plant_shutdowns', { id: d.id, from_date: d.from, to_date: d.to, work_center: d.work_center, reason: d.reason, note: d.note, ...stamp(e) })),
    on(PlantSettingsSet, (tx, d, e) => {
      const row = { id: 1, ...d, set_by: e.actor, set_date: e.businessDate };
      tx.upsert('plant_settings', row, (r) => Object.assign(r, row));
    }),
    on(RoutingDefined, (tx, d) => {
      for (const o of tx.find<R<RoutingOperationRow>>('routing_operations', { item: d.item })) tx.remove('routing_operations', { item: d.item, seq: o.seq });
      for (const o of d.operations) tx.insert('routing_operations', { item: d.item, ...o });
    }),
    on(WorkOrderCreated, (tx, d, e) => {
      tx.insert('work_orders', {
        id: d.id, item: d.item, qty: d.qty, warehouse: d.warehouse, start_date: d.start_date, due_date: d.due_date, status: 'planned', planned_order: d.planned_order,
        bom_date: d.bom_date, qty_completed: 0, qty_scrapped: 0, material_issued: 0, conversion_applied: 0, completed_value: 0, scrap_value: 0, variance: 0,
        material_standard: null, material_variance: null, conversion_standard: null, conversion_variance: null, standard_difference: null, wip_balance: 0,
        released_date: null, completed_date: null, closed_date: null, note: d.note, ...documentStamp(e, 'planned'),
      });
      planRows(tx, d.id, d.components, d.operations);
    }),
    on(WorkOrderReleased, (tx, d, e) => {
      changeStatus(tx, d.id, e, 'released', (r) => { r.released_date = e.businessDate; r.bom_date = d.bom_date; });
      planRows(tx, d.id, d.components, d.operations);
    }),
    on(WorkOrderRescheduled, (tx, d, e) => changeStatus(tx, d.id, e, null, (r) => {
      r.start_date = d.start_date;
      r.due_date = d.due_date;
      r.status_history.push(statusChange(r.status, e, d.reason));
    })),
    on(WorkOrderCancelled, (tx, d, e) => changeStatus(tx, d.id, e, 'cancelled', () => undefined, d.reason)),
    on(WorkOrderMaterialIssued, (tx, d, e) => {
      issueLines(tx, e, d, 'issue', 1, null, null);
      const value = d.lines.reduce((s, l) => s + l.value, 0);
      const started = tx.get<R<WorkOrderRow>>('work_orders', d.work_order)?.status === 'released';
      changeStatus(tx, d.work_order, e, started ? 'in_progress' : null, (r) => { r.material_issued += value; });
    }),
    on(WorkOrderIssueReversed, (tx, d, e) => {
      issueLines(tx, e, d, 'reversal', -1, d.issue, d.reason);
      for (const l of d.lines) tx.update<R<WoIssueLineRow>>('wo_material_issues', { id: d.issue, line: l.line }, (r) => { r.status = 'reversed'; });
      const value = d.lines.reduce((s, l) => s + l.value, 0);
      changeStatus(tx, d.work_order, e, null, (r) => { r.material_issued -= value; });
    }),
    on(WorkOrderCompleted, (tx, d, e) => {
      tx.insert('wo_completions', {
        id: d.id, work_order: d.work_order, date: d.date, qty: d.qty, scrap_qty: d.scrap_qty, scrap_reason: d.scrap_reason, warehouse: d.warehouse, location: d.location, lot: d.lot,
        conversion_value: d.conversion_value, completed_value: d.completed_value, scrap_value: d.scrap_value, hours: d.hours, note: d.note, ...stamp(e),
      });
      for (const h of d.hours) {
        tx.update<R<WoOperationRow>>('wo_operations', { work_order: d.work_order, seq: h.seq }, (o) => { o.hours_reported = roundQty(o.hours_reported + h.hours); });
      }
      const wo = tx.get<R<WorkOrderRow>>('work_orders', d.work_order)!;
      const done = roundQty(wo.qty_completed + d.qty + wo.qty_scrapped + d.scrap_qty) >= wo.qty;
      changeStatus(tx, d.work_order, e, done ? 'completed' : 'in_progress', (r) => {
        r.qty_completed = roundQty(r.qty_completed + d.qty);
        r.qty_scrapped = roundQty(r.qty_scrapped + d.scrap_qty);
        r.conversion_applied += d.conversion_value;
        r.completed_value += d.completed_value;
        r.scrap_value += d.scrap_value;
        if (done) r.completed_date = d.date;
      });
    }),
    on(WorkOrderClosed, (tx, d, e) => changeStatus(tx, d.id, e, 'closed', (r) => {
      r.variance = d.material_variance + d.conversion_variance + d.standard_difference;
      Object.assign(r, {
        material_standard: d.material_standard, material_variance: d.material_variance, conversion_standard: d.conversion_standard,
        conversion_variance: d.conversion_variance, standard_difference: d.standard_difference,
      });
      r.closed_date = d.date;
    }, d.reason)),
    onEvery((tx, event) => {
      const wip = wipMovementsOf(event.data);
      if (wip.length === 0) return;
      const total = wip.reduce((s, m) => s + m.amount, 0);
      const posted = wipNet(tx, event);
      if (total !== posted) throw new UnpostableJournal(`${event.type}: its WIP movements (${total}) differ from what its journal posts to WIP (${posted}).`);
      const date = journalOf(event.data)?.date ?? event.businessDate;
      wip.forEach((m, i) => {
        if (!tx.get('work_orders', m.work_order)) throw new Error(`${event.type}: WIP movement for unknown work order ${m.work_order}.`);
        tx.insert('wip_transactions', { event_id: event.seq, n: i + 1, work_order: m.work_order, date, kind: m.kind, amount: m.amount, source_type: event.type });
        tx.update<R<WorkOrderRow>>('work_orders', m.work_order, (r) => { r.wip_balance += m.amount; });
      });
    }),
  ],
  queries: (t) => manufacturingQueries(t),
});

function manufacturingQueries(t: TableAccess) {
  const linesOf = (item: string) => t.find<R<BomLineRow>>('bom_lines', { item }, { orderBy: 'line' });
  return {
    bom: (item: string) => t.get<R<BomRow>>('boms', item),
    boms: () => t.find<R<BomRow>>('boms'),
    bomLines: linesOf,
    /** The lines of an item's BOM in effect on a date. */
    bomLinesOn: (item: string, date: string) => linesOf(item).filter((l) => l.effective_from <= date && (l.effective_to === null || date <= l.effective_to)),
    /** Every BOM line of every item, for planning runs that explode many BOMs at once. */
    allBomLines: () => t.find<R<BomLineRow>>('bom_lines', {}, { orderBy: ['item', 'line'] }),
    /** The BOM lines that use a component, at any date. */
    whereUsed: (component: string) => t.find<R<BomLineRow>>('bom_lines', { component }, { orderBy: ['item', 'line'] }),
    engineeringChange: (id: string) => t.get<R<EngineeringChangeRow>>('engineering_changes', id),
    engineeringChanges: (item: string) => t.find<R<EngineeringChangeRow>>('engineering_changes', { item }),
    workCenter: (id: string) => t.get<R<WorkCenterRow>>('work_centers', id),
    workCenters: () => t.find<R<WorkCenterRow>>('work_centers'),
    shutdowns: () => t.find<R<ShutdownRow>>('plant_shutdowns', {}, { orderBy: ['from_date', 'id'] }),
    plantSettings: () => t.get<{ warehouse: string; completion_location: string | null; set_by: string; set_date: string }>('plant_settings', 1),
    routing: (item: string) => t.find<R<RoutingOperationRow>>('routing_operations', { item }, { orderBy: 'seq' }),
    workOrder: (id: string) => t.get<R<WorkOrderRow>>('work_orders', id),
    workOrdersWithStatus: (statuses: readonly WorkOrderStatus[]) => t.find<R<WorkOrderRow>>('work_orders', { status: [...statuses] }),
    components: (workOrder: string) => t.find<R<WoComponentRow>>('wo_components', { work_order: workOrder }, { orderBy: 'item' }),
    operations: (workOrder: string) => t.find<R<WoOperationRow>>('wo_operations', { work_order: workOrder }, { orderBy: 'seq' }),
    issueLines: (id: string) => t.find<R<WoIssueLineRow>>('wo_material_issues', { id }, { orderBy: 'line' }),
    issuesOf: (workOrder: string) => t.find<R<WoIssueLineRow>>('wo_material_issues', { work_order: workOrder }, { orderBy: ['created_date', 'id', 'line'] }),
    completion: (id: string) => t.get<R<WoCompletionRow>>('wo_completions', id),
    completionsOf: (workOrder: string) => t.find<R<WoCompletionRow>>('wo_completions', { work_order: workOrder }, { orderBy: 'id' }),
    /**
     * Component quantities still to be issued to released and in-progress work orders in a
     * warehouse, per item: stock those orders have a claim on. `except` leaves one order out.
     */
    reserved(warehouse: string, except?: string): Map<string, number> {
      const rows = t.prepared(`SELECT c.item AS item, SUM(MAX(c.required - c.issued, 0)) AS q FROM wo_components c JOIN work_orders w ON w.id = c.work_order
        WHERE w.status IN ('released', 'in_progress') AND w.warehouse = ? AND w.id <> ? GROUP BY c.item`).all(warehouse, except ?? '') as { item: string; q: number }[];
      return new Map(rows.map((r) => [r.item, roundQty(r.q)]));
    },
    /** Work orders closed between two dates (inclusive), with what their close posted. */
    closedBetween(from: string, to: string, item?: string) {
      return t.prepared(`SELECT id AS work_order, item, closed_date, qty, qty_completed, qty_scrapped, material_standard, material_issued AS material_actual, material_variance,
          conversion_standard, conversion_applied, conversion_variance, standard_difference
        FROM work_orders WHERE status = 'closed' AND closed_date >= ? AND closed_date <= ? AND (? IS NULL OR item = ?) ORDER BY closed_date, id`).all(from, to, item ?? null, item ?? null) as {
        work_order: string; item: string; closed_date: string; qty: number; qty_completed: number; qty_scrapped: number; material_standard: number; material_actual: number;
        material_variance: number; conversion_standard: number; conversion_applied: number; conversion_variance: number; standard_difference: number;
      }[];
    },
    /** WIP movements per work order as of a date, summed by kind (cents; credits negative). */
    wipByOrder(asOf: string): { work_order: string; item: string; status: WorkOrderStatus; material: number; conversion: number; completed: number; scrap: number; variance: number; balance: number }[] {
      return t.prepared(`SELECT x.work_order AS work_order, w.item AS item, w.status AS status,
          SUM(CASE WHEN x.kind IN ('material', 'material_reversal') THEN x.amount ELSE 0 END) AS material,
          SUM(CASE WHEN x.kind = 'conversion' THEN x.amount ELSE 0 END) AS conversion,
          SUM(CASE WHEN x.kind = 'completion' THEN x.amount ELSE 0 END) AS completed,
          SUM(CASE WHEN x.kind = 'scrap' THEN x.amount ELSE 0 END) AS scrap,
          SUM(CASE WHEN x.kind = 'variance' THEN x.amount ELSE 0 END) AS variance,
          SUM(x.amount) AS balance
        FROM wip_transactions x JOIN work_orders w ON w.id = x.work_order WHERE x.date <= ? GROUP BY x.work_order ORDER BY x.work_order`).all(asOf) as never;
    },
    /** The WIP subledger: every WIP movement dated on or before `asOf`, in cents; with a work order, only its own. */
    wipAsOf(asOf: string, workOrder?: string): number {
      const row = workOrder === undefined
        ? t.prepared('SELECT COALESCE(SUM(amount), 0) AS v FROM wip_transactions WHERE date <= ?').get(asOf)
        : t.prepared('SELECT COALESCE(SUM(amount), 0) AS v FROM wip_transactions WHERE date <= ? AND work_order = ?').get(asOf, workOrder);
      return (row as { v: number }).v;
    },
  };
}
