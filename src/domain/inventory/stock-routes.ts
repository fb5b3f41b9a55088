import { Type } from '@sinclair/typebox';
import type { InventoryTransactionRow } from '../../projections/inventory';
import { defineQuery, listPage, type RouteDef } from '../action';
import { fromCents } from '../money';
import { DateInput, IdInput, ListQuery, Opt } from '../schemas';
import { inventoryDocumentView, transactionView, type InventoryDocumentType } from './views';

const tag = 'inventory';
const TransactionType = Type.Union(['receipt', 'receipt_reversal', 'issue', 'adjustment', 'transfer_out', 'transfer_in', 'wo_issue', 'wo_issue_reversal', 'wo_completion', 'shipment', 'customer_return'].map((t) => Type.Literal(t)));

const documentRoutes = ([path, type, table, summary]: [string, InventoryDocumentType, string, string]): RouteDef[] => [
  defineQuery({
    path: `/inventory/${path}`, tag, summary: `List ${summary} by item or warehouse`, permission: null,
    query: ListQuery({ item: Opt(IdInput), warehouse: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, table, type === 'transfer' ? { item: query.item, from_warehouse: query.warehouse } : { item: query.item, warehouse: query.warehouse }, query, {
      map: (r) => (typeof r.value === 'number' ? { ...r, value: fromCents(r.value) } : r),
    }),
  }),
  defineQuery({
    path: `/inventory/${path}/{id}`, tag, summary: `One of the ${summary}, with its stock movements`, permission: null, objectType: type,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => inventoryDocumentView(ctx.read, type, params.id!),
  }),
];

export const stockRoutes: RouteDef[] = [
  defineQuery({
    path: '/inventory/on-hand', tag, summary: 'On-hand per item, warehouse, location and lot, with expiry and value; derived from the inventory transactions', permission: null,
    query: Type.Object({ item: Opt(IdInput), warehouse: Opt(IdInput), location: Opt(IdInput), lot: Opt(IdInput), as_of: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ query }, ctx) => {
      const rows = ctx.read.inventory.stock({ item: query.item, warehouse: query.warehouse, location: query.location, lot: query.lot }, query.as_of);
      const items = rows.map((r) => ({ ...r, unit: ctx.read.items.item(r.item)?.unit ?? null, value: fromCents(r.value) }));
      return { as_of: query.as_of ?? ctx.today, items, total: items.length, total_value: fromCents(rows.reduce((s, r) => s + r.value, 0)) };
    },
  }),
  defineQuery({
    path: '/inventory/transactions', tag, summary: 'Inventory transactions (receipts, reversals, issues, adjustments, transfers, work-order issues and completions) by item, warehouse, type, lot or document', permission: null,
    query: ListQuery({ item: Opt(IdInput), warehouse: Opt(IdInput), type: Opt(TransactionType), lot: Opt(IdInput), document_id: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'inventory_transactions', {
      item: query.item, warehouse: query.warehouse, type: query.type, lot: query.lot, document_id: query.document_id,
    }, query, { orderBy: ['event_id', 'n'], map: (r) => transactionView(r as unknown as InventoryTransactionRow) }),
  }),
  ...documentRoutes(['issues', 'inventory_issue', 'inventory_issues', 'stock issues']),
  ...documentRoutes(['adjustments', 'adjustment', 'adjustments', 'inventory adjustments']),
  ...documentRoutes(['transfers', 'transfer', 'transfers', 'stock transfers']),
];
