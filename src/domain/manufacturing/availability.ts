import type { Queries } from '../../projections';
import { roundQty } from '../../projections/quantities';

export interface Shortage {
  item: string;
  needed: number;
  available: number;
  short: number;
}

/**
 * Seed 000 environment §4, a release checks component availability: what a work order still needs
 * of each component against what its warehouse holds beyond the claims of the other released and
 * in-progress orders there (their components not yet issued).
 */
export function shortages(read: Queries, wo: { id: string; warehouse: string }, components: readonly { item: string; required: number; issued?: number }[]): Shortage[] {
  const reserved = read.manufacturing.reserved(wo.warehouse, wo.id);
  const out: Shortage[] = [];
  for (const c of components) {
    const needed = roundQty(c.required - (c.issued ?? 0));
    if (needed <= 0) continue;
    const available = roundQty(Math.max(0, read.inventory.onHand(c.item, wo.warehouse) - (reserved.get(c.item) ?? 0)));
    if (available < needed) out.push({ item: c.item, needed, available, short: roundQty(needed - available) });
  }
  return out;
}
