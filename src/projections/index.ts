import { clock } from './clock';
import { calls } from './comms-calls';
import { escalations } from './comms-escalations';
import { messages } from './comms-messages';
import { idCounters } from './id-counters';
import { infoflow } from './infoflow';
import { inventory } from './inventory';
import { ledger } from './ledger';
import { manufacturing } from './manufacturing';
import { mrp } from './mrp';
import { purchasingPolicy } from './purchasing-policy';
import { cash } from './ledger-cash';
import { journalEntries } from './ledger-journal-entries';
import { customers } from './master-customers';
import { finance } from './master-finance';
import { items } from './master-items';
import { vendors } from './master-vendors';
import { org } from './org';
import { apInvoices } from './payables-invoices';
import { apMemos } from './payables-memos';
import { payments } from './payments';
import { purchaseOrders } from './purchasing-orders';
import { requisitions } from './purchasing-requisitions';
import { receiving } from './receiving';
import { arCash } from './receivables-cash';
import { arCollections } from './receivables-collections';
import { arInvoices } from './receivables-invoices';
import { salesOrders } from './sales-orders';
import { salesPricing } from './sales-pricing';
import { salesQuotes } from './sales-quotes';
import { salesShipments } from './sales-shipments';
import { ReadModelRegistry } from './registry';
import type { TableAccess } from './table-access';
import { workQueue } from './work-queue';

/**
 * Every read model of the application, in the order they fold an event. Adding an area adds its
 * read model here; the type of `Queries` follows.
 */
export const readModels = {
  idCounters,
  clock,
  org,
  messages,
  escalations,
  calls,
  ledger,
  cash,
  journalEntries,
  items,
  vendors,
  customers,
  finance,
  infoflow,
  requisitions,
  purchasing: purchaseOrders,
  receiving,
  inventory,
  manufacturing,
  mrp,
  purchasingPolicy,
  payables: apInvoices,
  apMemos,
  payments,
  salesPricing,
  quotes: salesQuotes,
  sales: salesOrders,
  shipments: salesShipments,
  receivables: arInvoices,
  arCash,
  collections: arCollections,
  workQueue,
} as const;

export type Queries = { [K in keyof typeof readModels]: ReturnType<(typeof readModels)[K]['queries']> };

export function createAppRegistry(): ReadModelRegistry {
  return new ReadModelRegistry().register(...Object.values(readModels));
}

export function buildQueries(tables: TableAccess): Queries {
  const out: Record<string, unknown> = {};
  for (const [key, model] of Object.entries(readModels)) out[key] = model.queries(tables);
  return out as Queries;
}
