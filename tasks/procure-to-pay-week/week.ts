/** The week and the people of procure-to-pay-week, shared by the generator and the handbook's judgement. */
export const AGENT = 'jordan.ellis';
/** History ends on Friday 2 October; the requisitions are approved that day. */
export const PLANT = '2026-10-02';
export const MONDAY = '2026-10-05';
export const WEDNESDAY = '2026-10-07';
export const FRIDAY = '2026-10-09';
/** A requisition whose purpose names the Reno distribution center ships there; every other to Dayton. */
export const RENO = 'RNO';
export const DAYTON = 'DAY';
/** Receiving: an over-shipment up to this share of the ordered quantity is accepted (basis points). */
export const OVER_SHIP_TOLERANCE_BP = 200;
/** Receiving: a lot-controlled item needs at least this many days of life left on the day it arrives. */
export const MIN_SHELF_DAYS = 180;

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The quantity ordered for a requested one: at least the MOQ, then up to a whole order multiple. */
export function orderQty(requested: number, moq: number, multiple: number, judge: { moq: boolean; multiple: boolean } = { moq: true, multiple: true }): number {
  let qty = judge.moq ? Math.max(requested, moq) : requested;
  if (judge.multiple && multiple > 0) qty = Math.ceil(Math.round(qty * 1000) / Math.round(multiple * 1000)) * multiple;
  return Math.round(qty * 1000) / 1000;
}
