import { CONSUMPTION_TYPES, InventoryAdjusted, InventoryIssued, InventoryTransferred, type InventoryMovement } from '../events/contracts/inventory';
import { roundQty } from './quantities';
import { defineReadModel, on, onEvery } from './read-model';
import type { TableAccess } from './table-access';

export interface InventoryTransactionRow extends InventoryMovement {
  id: string;
  event_id: number;
  n: number;
  created_by: string;
}

/** Stock at one place: an item in a warehouse location, one lot. */
export interface StockRow {
  item: string;
  warehouse: string;
  location: string | null;
  lot: string | null;
  expiry: string | null;
  qty: number;
  /** Cents: the sum of the movements' values, so the subledger ties to the inventory account. */
  value: number;
}

export interface StockFilter {
  item?: string;
  warehouse?: string;
  location?: string | null;
  lot?: string | null;
}

/** The stock movements an event carries, if any (`inventory`, beside its `journal`). */
export function movementsOf(data: unknown): InventoryMovement[] | undefined {
  if (data === null || typeof data !== 'object' || !('inventory' in data)) return undefined;
  return (data as { inventory?: InventoryMovement[] }).inventory;
}

const stamp = (e: { actor: string; businessDate: string; wallTime: string }) => ({ created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime });
const valueOf = (inventory: readonly InventoryMovement[]) => inventory.reduce((s, m) => s + m.value, 0);

/**
 * Inventory transactions folded from every event that carries `inventory` (receipts, reversals,
 * issues, adjustments, transfers, and later areas' movements), with the issue, adjustment and
 * transfer documents. On-hand is always a sum over transactions, never a stored counter.
 */
export const inventory = defineReadModel({
  name: 'inventory',
  tables: [
    {
      name: 'inventory_transactions',
      columns: {
        id: 'text', event_id: 'integer', n: 'integer', type: 'text', date: 'text', item: 'text', warehouse: 'text', location: 'text', lot: 'text',
        expiry: 'text', qty: 'real', unit_cost: 'integer', value: 'integer', document_type: 'text', document_id: 'text', document_line: 'integer',
        created_by: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['item', 'warehouse'], ['document_id'], ['date'], ['type', 'date']],
    },
    {
      name: 'inventory_issues',
      columns: {
        id: 'text', date: 'text', item: 'text', warehouse: 'text', qty: 'real', value: 'integer', account: 'text', department: 'text',
        destination_type: 'text', destination_ref: 'text', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['item', 'date']],
    },
    {
      name: 'adjustments',
      columns: {
        id: 'text', date: 'text', item: 'text', warehouse: 'text', qty: 'real', value: 'integer', account: 'text', reason: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['item']],
    },
    {
      name: 'transfers',
      columns: {
        id: 'text', date: 'text', item: 'text', from_warehouse: 'text', to_warehouse: 'text', to_location: 'text', qty: 'real', reason: 'text',
        note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['item']],
    },
  ],
  handlers: [
    on(InventoryIssued, (tx, d, e) => tx.insert('inventory_issues', {
      id: d.id, date: d.date, item: d.item, warehouse: d.warehouse, qty: d.qty, value: -valueOf(d.inventory), account: d.account, department: d.department,
      destination_type: d.destination.type, destination_ref: d.destination.ref, note: d.note, ...stamp(e),
    })),
    on(InventoryAdjusted, (tx, d, e) => tx.insert('adjustments', {
      id: d.id, date: d.date, item: d.item, warehouse: d.warehouse, qty: d.qty, value: valueOf(d.inventory), account: d.account, reason: d.reason, note: d.note, ...stamp(e),
    })),
    on(InventoryTransferred, (tx, d, e) => tx.insert('transfers', {
      id: d.id, date: d.date, item: d.item, from_warehouse: d.from_warehouse, to_warehouse: d.to_warehouse, to_location: d.to_location, qty: d.qty,
      reason: d.reason, note: d.note, ...stamp(e),
    })),
    onEvery((tx, event) => {
      const movements = movementsOf(event.data);
      if (!movements) return;
      movements.forEach((m, i) => {
        if (!tx.get('items', m.item)) throw new Error(`${event.type}: inventory movement ${i + 1} is of unknown item ${m.item}.`);
        tx.insert('inventory_transactions', { id: `IT-${event.seq}-${i + 1}`, event_id: event.seq, n: i + 1, ...m, created_by: event.actor, created_wall: event.wallTime });
      });
    }),
  ],
  queries: (t) => inventoryQueries(t),
});

function stockWhere(filter: StockFilter, asOf?: string): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const column of ['item', 'warehouse', 'location', 'lot'] as const) {
    const value = filter[column];
    if (value === undefined) continue;
    if (value === null) clauses.push(`${column} IS NULL`);
    else {
      clauses.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (asOf) {
    clauses.push('date <= ?');
    params.push(asOf);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function inventoryQueries(t: TableAccess) {
  const stock = (filter: StockFilter = {}, asOf?: string): StockRow[] => {
    const where = stockWhere(filter, asOf);
    const rows = t.prepared(
      `SELECT item, warehouse, location, lot, MIN(expiry) AS expiry, SUM(qty) AS qty, SUM(value) AS value FROM inventory_transactions ${where.sql}
       GROUP BY item, warehouse, location, lot ORDER BY item, warehouse, location, lot`,
    ).all(...where.params) as StockRow[];
    return rows.map((r) => ({ ...r, qty: roundQty(r.qty) })).filter((r) => r.qty !== 0 || r.value !== 0);
  };
  return {
    /** Stock per item, warehouse, location and lot with its value, rows with nothing left omitted. */
    stock,
    /** On-hand quantity of an item, in one warehouse or in all; a third of a build's asks repeat between movements. */
    onHand(item: string, warehouse?: string, asOf?: string): number {
      const [row] = t.all<{ q: number }>(`SELECT COALESCE(SUM(qty), 0) AS q FROM inventory_transactions WHERE item = ? AND (? IS NULL OR warehouse = ?) AND (? IS NULL OR date <= ?)`,
        item, warehouse ?? null, warehouse ?? null, asOf ?? null, asOf ?? null);
      return roundQty(row!.q);
    },
    /**
     * The inventory subledger: the value of every movement dated on or before `asOf`, in cents; with
     * an account, only the movements of items whose inventory account it is.
     */
    valueAsOf(asOf: string, account?: string): number {
      const row = account === undefined
        ? t.prepared('SELECT COALESCE(SUM(value), 0) AS v FROM inventory_transactions WHERE date <= ?').get(asOf)
        : t.prepared('SELECT COALESCE(SUM(t.value), 0) AS v FROM inventory_transactions t JOIN items i ON i.id = t.item WHERE t.date <= ? AND i.inventory_account = ?').get(asOf, account);
      return (row as { v: number }).v;
    },
    transaction: (id: string) => t.get<InventoryTransactionRow & Record<string, unknown>>('inventory_transactions', id),
    transactionsOf: (documentId: string) => t.find<InventoryTransactionRow & Record<string, unknown>>('inventory_transactions', { document_id: documentId }, { orderBy: ['event_id', 'n'] }),
    issue: (id: string) => t.get('inventory_issues', id),
    adjustment: (id: string) => t.get('adjustments', id),
    transfer: (id: string) => t.get('transfers', id),
    /**
     * Quantity and value used per item and month between two dates (inclusive), for usage
     * averages: issues to cost centers and to work orders net of reversed work-order issues, and
     * shipments to customers net of returns.
     */
    issuesByMonth(from: string, to: string, item?: string): { item: string; month: string; qty: number; value: number }[] {
      const params: unknown[] = [...CONSUMPTION_TYPES, from, to];
      let sql = `SELECT item, substr(date, 1, 7) AS month, -SUM(qty) AS qty, -SUM(value) AS value FROM inventory_transactions
        WHERE type IN (${CONSUMPTION_TYPES.map(() => '?').join(', ')}) AND date >= ? AND date <= ?`;
      if (item) {
        sql += ' AND item = ?';
        params.push(item);
      }
      sql += ' GROUP BY item, month ORDER BY item, month';
      return (t.prepared(sql).all(...params) as { item: string; month: string; qty: number; value: number }[]).map((r) => ({ ...r, qty: roundQty(r.qty) }));
    },
  };
}
