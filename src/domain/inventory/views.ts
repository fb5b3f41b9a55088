import type { Queries } from '../../projections';
import type { InventoryTransactionRow } from '../../projections/inventory';
import { fromCents } from '../money';

export type InventoryDocumentType = 'inventory_issue' | 'adjustment' | 'transfer';

export const transactionView = (t: InventoryTransactionRow) => ({ ...t, unit_cost: fromCents(t.unit_cost), value: fromCents(t.value) });

/** An issue, adjustment or transfer with the stock movements it made. */
export function inventoryDocumentView(read: Queries, type: InventoryDocumentType, id: string) {
  const row = type === 'inventory_issue' ? read.inventory.issue(id) : type === 'adjustment' ? read.inventory.adjustment(id) : read.inventory.transfer(id);
  if (!row) return undefined;
  const value = typeof row.value === 'number' ? { value: fromCents(row.value) } : {};
  return { ...row, ...value, transactions: read.inventory.transactionsOf(id).map(transactionView) };
}
