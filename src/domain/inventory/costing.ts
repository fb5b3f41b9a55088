import type { Queries } from '../../projections';
import { roundQty } from '../../projections/quantities';
import { refuse, type Refusal } from '../decision';
import { roundCents } from '../money';

/** Quantity taken from one place (location and lot), with the value it carries out. */
export interface Pick {
  location: string | null;
  lot: string | null;
  expiry: string | null;
  qty: number;
  value: number;
}

export interface StockPlace {
  item: string;
  warehouse: string;
  location?: string;
  lot?: string;
}

const byExpiry = (a: { expiry: string | null; lot: string | null; location: string | null }, b: typeof a): number => {
  const key = (r: typeof a) => [r.expiry ?? '9999-12-31', r.lot ?? '', r.location ?? ''].join('\u0000');
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
};

/**
 * Takes `qty` out of stock at the given place, first expiry first across lots and locations when
 * they are not named. Each place is valued at its own average (its value over its quantity), and
 * emptying a place takes its whole remaining value, so no cents are left behind.
 */
export function pickStock(read: Queries, place: StockPlace, qty: number): Pick[] | Refusal {
  const places = read.inventory.stock({ item: place.item, warehouse: place.warehouse, location: place.location, lot: place.lot })
    .filter((r) => r.qty > 0)
    .sort(byExpiry);
  const picks: Pick[] = [];
  let remaining = roundQty(qty);
  for (const p of places) {
    if (remaining <= 0) break;
    const take = Math.min(remaining, p.qty);
    const value = take === p.qty ? p.value : roundCents((p.value * take) / p.qty);
    picks.push({ location: p.location, lot: p.lot, expiry: p.expiry, qty: take, value });
    remaining = roundQty(remaining - take);
  }
  if (remaining > 0) {
    const available = roundQty(qty - remaining);
    const where = [place.warehouse, place.location, place.lot && `lot ${place.lot}`].filter(Boolean).join(' ');
    return refuse('invalid_state', `Only ${available} of ${place.item} is on hand at ${where}; ${qty} was asked for.`);
  }
  return picks;
}

/** Unit cost in cents of a quantity carrying a value, for the record (the value is what posts). */
export function unitCostOf(value: number, qty: number): number {
  return qty === 0 ? 0 : Math.abs(roundCents(value / qty));
}
