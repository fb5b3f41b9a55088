import { WorkOrderCreated, WorkOrderRescheduled } from '../events/contracts/manufacturing';
import { ForecastSet, MrpRunCompleted, PlannedOrderFirmed, type MrpSuggestion } from '../events/contracts/mrp';
import { PurchaseOrderCreated, VendorRequestRaised } from '../events/contracts/purchasing';
import type { EventRow } from '../events/event-row';
import { statusChange, type StatusChange } from './history';
import { roundQty } from './quantities';
import { defineReadModel, on, type ProjectionTx } from './read-model';
import type { TableAccess } from './table-access';

/**
 * open → firmed → released (planned orders), open → released, open → requested (an action message
 * a vendor request answers) or rescheduled (a work order moved), and open → superseded by a later run.
 */
export type SuggestionStatus = 'open' | 'firmed' | 'released' | 'requested' | 'rescheduled' | 'superseded';

export interface MrpSuggestionRow extends MrpSuggestion {
  run: string;
  status: SuggestionStatus;
  released_as_type: 'purchase_order' | 'work_order' | null;
  released_as: string | null;
  /** The vendor request that works an action message. */
  request: string | null;
  status_history: StatusChange[];
}

export interface MrpRunRow {
  id: string;
  run_date: string;
  horizon_weeks: number;
  horizon_end: string;
  firm_days: number;
  firm_fence: string;
  defer_days: number;
  items_planned: number;
  suggestions: number;
  run_by: string;
}

export interface ForecastRow {
  item: string;
  week_start: string;
  qty: number;
  source: string;
  set_by: string;
  set_date: string;
}

type R<T> = T & Record<string, unknown>;

export interface PlanningItemRow {
  id: string;
  lead_time_days: number;
  moq: number;
  order_multiple: number;
  safety_stock: number;
  preferred_vendor: string | null;
}

export interface OpenPoLine {
  po: string;
  line: number;
  item: string;
  open_qty: number;
  date: string;
  po_status: 'draft' | 'approved' | 'sent' | 'partially_received';
}

export interface OpenComponent {
  work_order: string;
  item: string;
  remaining: number;
  start_date: string;
  parent: string;
}

const REQUEST_KIND = { expedite: 'expedite', defer: 'defer', cancel_line: 'cancel' } as const;

function setStatus(tx: ProjectionTx, id: string, event: EventRow, status: SuggestionStatus, recipe: (r: R<MrpSuggestionRow>) => void = () => undefined, reason: string | null = null): void {
  tx.update<R<MrpSuggestionRow>>('mrp_suggestions', id, (r) => {
    recipe(r as R<MrpSuggestionRow>);
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
  });
}

/** Forecasts, MRP runs and their suggestions, with what became of each: firmed, released into an order, worked, superseded. */
export const mrp = defineReadModel({
  name: 'mrp',
  tables: [
    {
      name: 'forecasts',
      columns: { item: 'text', week_start: 'text', qty: 'real', source: 'text', set_by: 'text', set_date: 'text' },
      key: ['item', 'week_start'],
      indexes: [['week_start']],
    },
    {
      name: 'mrp_runs',
      columns: {
        id: 'text', run_date: 'text', horizon_weeks: 'integer', horizon_end: 'text', firm_days: 'integer', firm_fence: 'text', defer_days: 'integer', items_planned: 'integer',
        suggestions: 'integer', run_by: 'text', created_wall: 'text',
      },
      key: ['id'],
    },
    {
      name: 'mrp_suggestions',
      columns: {
        id: 'text', run: 'text', kind: 'text', item: 'text', qty: 'real', need_date: 'text', release_date: 'text', vendor: 'text', order_type: 'text', order_id: 'text',
        order_line: 'integer', current_date: 'text', firm: 'bool', late: 'bool', reason: 'text', status: 'text', released_as_type: 'text', released_as: 'text',
        request: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['run', 'kind'], ['status'], ['item'], ['order_id']],
    },
  ],
  handlers: [
    on(ForecastSet, (tx, d, e) => {
      for (const w of d.weeks) {
        const row = { item: d.item, week_start: w.week_start, qty: w.qty, source: d.source, set_by: e.actor, set_date: e.businessDate };
        tx.upsert('forecasts', row, (r) => Object.assign(r, row));
      }
    }),
    on(MrpRunCompleted, (tx, d, e) => {
      for (const old of tx.find<R<MrpSuggestionRow>>('mrp_suggestions', { status: 'open' })) setStatus(tx, old.id, e, 'superseded', () => undefined, d.id);
      tx.insert('mrp_runs', {
        id: d.id, run_date: d.run_date, horizon_weeks: d.horizon_weeks, horizon_end: d.horizon_end, firm_days: d.firm_days, firm_fence: d.firm_fence, defer_days: d.defer_days,
        items_planned: d.items_planned, suggestions: d.suggestions.length, run_by: e.actor, created_wall: e.wallTime,
      });
      for (const s of d.suggestions) {
        tx.insert('mrp_suggestions', { ...s, run: d.id, status: 'open', released_as_type: null, released_as: null, request: null, status_history: [statusChange('open', e)] });
      }
    }),
    on(PlannedOrderFirmed, (tx, d, e) => setStatus(tx, d.suggestion, e, 'firmed', (r) => {
      r.qty = d.qty;
      r.need_date = d.need_date;
      r.release_date = d.release_date;
    })),
    on(PurchaseOrderCreated, (tx, d, e) => {
      for (const p of d.planned_orders ?? []) setStatus(tx, p.suggestion, e, 'released', (r) => { r.released_as_type = 'purchase_order'; r.released_as = d.id; });
    }),
    on(WorkOrderCreated, (tx, d, e) => {
      if (d.planned_order) setStatus(tx, d.planned_order, e, 'released', (r) => { r.released_as_type = 'work_order'; r.released_as = d.id; });
    }),
    // An action message is worked when a request of its kind is raised on its PO line, or its work order is moved.
    on(VendorRequestRaised, (tx, d, e) => {
      const kind = REQUEST_KIND[d.kind];
      for (const s of tx.find<R<MrpSuggestionRow>>('mrp_suggestions', { order_id: d.po, status: 'open' })) {
        if (s.order_line === d.line && s.kind === kind) setStatus(tx, s.id, e, 'requested', (r) => { r.request = d.id; });
      }
    }),
    on(WorkOrderRescheduled, (tx, d, e) => {
      for (const s of tx.find<R<MrpSuggestionRow>>('mrp_suggestions', { order_id: d.id, status: 'open' })) {
        if (s.order_type === 'work_order') setStatus(tx, s.id, e, 'rescheduled', () => undefined, d.reason);
      }
    }),
  ],
  queries: (t) => mrpQueries(t),
});

interface OpenSalesLine {
  sales_order: string;
  line: number;
  item: string;
  open_qty: number;
  date: string;
}

function mrpQueries(t: TableAccess) {
  return {
    forecasts: (item: string) => t.find<R<ForecastRow>>('forecasts', { item }, { orderBy: 'week_start' }),
    /** Forecast weeks starting between two dates (inclusive), every item. */
    forecastsBetween: (from: string, to: string) => t.prepared('SELECT * FROM forecasts WHERE week_start >= ? AND week_start <= ? ORDER BY item, week_start').all(from, to) as ForecastRow[],
    run: (id: string) => t.get<R<MrpRunRow>>('mrp_runs', id),
    latestRun: () => t.prepared('SELECT * FROM mrp_runs ORDER BY id DESC LIMIT 1').get() as MrpRunRow | undefined,
    suggestion: (id: string) => t.get<R<MrpSuggestionRow>>('mrp_suggestions', id),
    suggestionsOf: (run: string) => t.find<R<MrpSuggestionRow>>('mrp_suggestions', { run }),
    /** Planned orders a planner firmed and has not released: supply in every later run. */
    firmed: () => t.find<R<MrpSuggestionRow>>('mrp_suggestions', { status: 'firmed' }),
    // What a run reads, one statement each rather than a query per document (the run plans every item at once).
    /** Planning data of every stock item. */
    stockItems: () => t.prepared(`SELECT id, lead_time_days, moq, order_multiple, safety_stock, preferred_vendor FROM items WHERE type = 'stock' ORDER BY id`).all() as PlanningItemRow[],
    /** On-hand per item over every warehouse. */
    onHandByItem: () => new Map(t.all<{ item: string; qty: number }>('SELECT item, SUM(qty) AS qty FROM inventory_transactions GROUP BY item ORDER BY item').map((r) => [r.item, roundQty(r.qty)])),
    /** Open PO lines of stock items with what they still expect and when (the confirmed date, else the need-by date). */
    openPoLines: () => (t.prepared(`SELECT l.po AS po, l.line AS line, l.item AS item, l.qty - l.received_qty AS open_qty, COALESCE(l.confirmed_date, l.need_by) AS date, p.status AS po_status
      FROM po_lines l JOIN purchase_orders p ON p.id = l.po
      WHERE l.status = 'open' AND l.item IS NOT NULL AND p.status IN ('draft', 'approved', 'sent', 'partially_received') ORDER BY l.po, l.line`).all() as OpenPoLine[])
      .map((r) => ({ ...r, open_qty: roundQty(r.open_qty) })),
    /** Components open work orders still need, with the order's start date. */
    openWorkOrderComponents: () => t.prepared(`SELECT c.work_order AS work_order, c.item AS item, c.required - c.issued AS remaining, w.start_date AS start_date, w.item AS parent
      FROM wo_components c JOIN work_orders w ON w.id = c.work_order
      WHERE w.status IN ('planned', 'released', 'in_progress') ORDER BY c.work_order, c.item`).all() as OpenComponent[],
    /** Customer order lines still to ship (allocated or backordered) requested by a date, for MRP's independent demand. */
    openSalesLines: (to: string) => (t.prepared(`SELECT l.sales_order AS sales_order, l.line AS line, l.item AS item, l.qty - l.shipped_qty - l.cancelled_qty AS open_qty, l.requested_date AS date
      FROM so_lines l JOIN sales_orders s ON s.id = l.sales_order
      WHERE l.status = 'open' AND s.lifecycle <> 'cancelled' AND l.requested_date <= ? ORDER BY l.sales_order, l.line`).all(to) as OpenSalesLine[])
      .map((r) => ({ ...r, open_qty: roundQty(r.open_qty) })),
  };
}
