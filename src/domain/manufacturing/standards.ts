import type { WoComponent, WoOperation } from '../../events/contracts/manufacturing';
import type { Queries } from '../../projections';
import { roundQty } from '../../projections/quantities';
import { roundCents } from '../money';
import { bomSourceOf, explode } from './explosion';

/** The components a work order for `qty` of `item` needs, from the BOM in effect on `date`, at their standard costs. */
export function plannedComponents(read: Queries, item: string, qty: number, date: string): WoComponent[] {
  return explode(bomSourceOf(read), item, date).map((r) => ({
    item: r.item, qty_per: r.qty_per, required: roundQty(r.qty_per * qty), standard_cost: read.items.item(r.item)?.standard_cost ?? 0, via_phantom: r.via_phantom,
  }));
}

/** The item's routing, each operation with its work center's standard rate. */
export function plannedOperations(read: Queries, item: string): WoOperation[] {
  return read.manufacturing.routing(item).map((o) => ({
    seq: o.seq, work_center: o.work_center, description: o.description, setup_hours: o.setup_hours, run_hours_per_unit: o.run_hours_per_unit,
    rate_per_hour: read.manufacturing.workCenter(o.work_center)?.rate_per_hour ?? 0,
  }));
}

/** Standard hours of one operation for `units` reported on an order: its setup once, then its run time per unit. */
export const standardHours = (o: Pick<WoOperation, 'setup_hours' | 'run_hours_per_unit'>, units: number, withSetup: boolean): number =>
  roundQty((withSetup ? o.setup_hours : 0) + o.run_hours_per_unit * units);

/**
 * What an order that reported `units` (good and scrapped) should have cost at standard, in cents:
 * each component's quantity per unit at its standard cost, and each operation's setup and run hours
 * at its work center's rate.
 */
export function standardAllowed(components: readonly Pick<WoComponent, 'qty_per' | 'standard_cost'>[], operations: readonly WoOperation[], units: number): { material: number; conversion: number } {
  const material = roundCents(components.reduce((s, c) => s + c.qty_per * units * c.standard_cost, 0));
  const conversion = units > 0 ? roundCents(operations.reduce((s, o) => s + standardHours(o, units, true) * o.rate_per_hour, 0)) : 0;
  return { material, conversion };
}

/**
 * The standard cost of one unit made in a lot of `lotSize`, rolled up from the BOM in effect on
 * `date` (components at their own standard costs) and the routing (setup spread over the lot).
 */
export function rolledUpCost(read: Queries, item: string, date: string, lotSize: number): { material: number; conversion: number; total: number } {
  const components = plannedComponents(read, item, 1, date);
  const operations = plannedOperations(read, item);
  const material = components.reduce((s, c) => s + c.qty_per * c.standard_cost, 0);
  const conversion = operations.reduce((s, o) => s + (o.setup_hours / Math.max(lotSize, 1) + o.run_hours_per_unit) * o.rate_per_hour, 0);
  return { material: roundCents(material), conversion: roundCents(conversion), total: roundCents(material + conversion) };
}
