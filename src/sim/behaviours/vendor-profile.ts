/** How a vendor ships one item (or every item, as the default); see docs/simulation.md. */
export interface ShipPattern {
  /** Share of the ordered quantity in the first shipment, 0–1 (default 1). */
  fill_rate?: number;
  /** Percent shipped over the ordered quantity (default 0): 1.8 ships 1.8% over whatever was ordered. */
  over_ship_pct?: number;
  /** Business days after the first shipment when the rest of a short shipment follows; none: it never does. */
  backorder_days?: number;
  /** An item shipped instead of the one ordered. */
  substitute?: string;
  /** Lot code; lot-controlled items default to one derived from the PO and line. */
  lot?: string;
  /** Days from shipping to expiry; default the item's shelf life, else 365. */
  expiry_days?: number;
}

/** One vendor's behaviour (world.actors.vendors.vendors[vendorId]). */
export interface VendorProfile {
  /** Business days after the PO is sent when it is acknowledged (default 1). */
  ack_delay_days?: number;
  /** Calendar days from sending to the earliest delivery; default the item's lead time, else 7. */
  lead_time_days?: number;
  /** Business days between shipping and arrival (default 0: it arrives the day it ships). */
  transit_days?: number;
  /** A different unit price (decimal) announced in the acknowledgement, per item. */
  price_notices?: Record<string, { unit_price: number; note?: string }>;
  items?: Record<string, ShipPattern>;
  default?: ShipPattern;
  /** Expedite requests: accepted only when set, no earlier than today plus min_lead_days. */
  expedite?: { accept: boolean; min_lead_days?: number };
  /** Deferrals: accepted unless accept is false. */
  defer?: { accept: boolean };
  /** Line cancellations: accepted before anything shipped unless accept is false. */
  cancel_line?: { accept: boolean };
}

export interface VendorsWorld {
  /** The counterparty user the vendors act as. */
  user: string;
  vendors: Record<string, VendorProfile>;
}

/** Units counted in whole pieces; any other unit (kg, m, l, …) is measured to three decimals. */
const COUNTED = new Set(['ea', 'each', 'pc', 'pcs', 'piece', 'unit', 'units', 'box', 'bx', 'case', 'cs', 'pk', 'pack', 'set', 'roll', 'pair', 'pr', 'dz', 'bag', 'drum', 'pallet']);

/** A quantity rounded to what the item's unit allows: whole pieces, or thousandths of a measure (half up). */
export function roundToUnit(qty: number, unit: string): number {
  const scale = COUNTED.has(unit.toLowerCase()) ? 1 : 1000;
  return Math.round(qty * scale + 1e-9) / scale;
}

/** The first shipment of a line: the ordered quantity times the fill rate and the over-ship, in the item's unit. */
export function firstShipmentQty(ordered: number, unit: string, pattern: ShipPattern): number {
  return roundToUnit(ordered * (pattern.fill_rate ?? 1) * (1 + (pattern.over_ship_pct ?? 0) / 100), unit);
}

export function patternFor(profile: VendorProfile, item: string | null): ShipPattern {
  return (item !== null ? profile.items?.[item] : undefined) ?? profile.default ?? {};
}
