import type { Queries } from '../../projections';
import type { ItemRow } from '../../projections/master-items';
import { refuse, type DecideContext, type Refusal } from '../decision';
import { assertPeriodOpen } from '../ledger/journal';

/** Issuing stock to production or a cost center. */
export const INVENTORY_ISSUE = 'inventory.issue';
/** Adjusting on-hand for counts, damage and write-offs, with a reason. */
export const INVENTORY_ADJUST = 'inventory.adjust';
/** Moving stock between locations and warehouses. */
export const INVENTORY_TRANSFER = 'inventory.transfer';

/** A stock item, or a refusal: missing, or not kept in stock (non-stock items and services have no on-hand). */
export function stockItem(read: Queries, id: string): ItemRow | Refusal {
  const item = read.items.item(id);
  if (!item) return refuse('not_found', `No item ${id}.`);
  if (item.type !== 'stock' || !item.inventory_account) return refuse('invalid_request', `${id} is a ${item.type.replace('_', '-')} item; only stock items have on-hand.`, 422);
  return item;
}

/** The warehouse exists and, when a location is named, so does the location in it. */
export function placeRefusal(read: Queries, warehouse: string, location?: string): Refusal | undefined {
  if (!read.items.warehouse(warehouse)) return refuse('not_found', `No warehouse ${warehouse}.`);
  if (location !== undefined && !read.items.location(warehouse, location)) return refuse('not_found', `Warehouse ${warehouse} has no location ${location}.`);
  return undefined;
}

/** The posting date: today unless given, never in the future, and (for movements with a journal) in an open period. */
export function postingDate(ctx: DecideContext, date: string | undefined, posts: boolean): string | Refusal {
  const d = date ?? ctx.today;
  if (d > ctx.today) return refuse('invalid_request', `A stock movement cannot be dated after today (${ctx.today}).`, 422);
  if (posts) {
    const closed = assertPeriodOpen(ctx, d);
    if (closed) return closed;
  }
  return d;
}
