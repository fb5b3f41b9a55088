import type { BomLine } from '../../events/contracts/manufacturing';
import type { Queries } from '../../projections';
import { roundQty } from '../../projections/quantities';

/** What an explosion reads: which items have a BOM (and whether it is a phantom), and a BOM's lines on a date. */
export interface BomSource {
  bom(item: string): { phantom: boolean } | undefined;
  linesOn(item: string, date: string): readonly BomLine[];
}

/** One component needed per unit of a parent, scrap included, with the phantom it came through (null when direct or through several paths). */
export interface Requirement {
  item: string;
  qty_per: number;
  via_phantom: string | null;
}

const MAX_DEPTH = 25;

/** Quantity of a line per unit of its parent, its component scrap added (250 bp = 2.5% more). */
export const withScrap = (line: Pick<BomLine, 'qty_per' | 'scrap_bp'>): number => line.qty_per * (1 + line.scrap_bp / 10_000);

export function bomSourceOf(read: Queries): BomSource {
  return { bom: (item) => read.manufacturing.bom(item), linesOn: (item, date) => read.manufacturing.bomLinesOn(item, date) };
}

/**
 * The components one unit of `item` needs on `date`, from the BOM lines in effect that day: a
 * phantom component is blown through to its own components (it is never stocked or ordered), and
 * the same component reached twice is needed once with the quantities added. Sorted by item.
 */
export function explode(src: BomSource, item: string, date: string): Requirement[] {
  const out = new Map<string, Requirement>();
  const walk = (parent: string, factor: number, via: string | null, depth: number) => {
    if (depth > MAX_DEPTH) throw new Error(`The BOM of ${item} nests deeper than ${MAX_DEPTH} levels; it must contain a cycle.`);
    for (const line of src.linesOn(parent, date)) {
      const qty = factor * withScrap(line);
      if (src.bom(line.component)?.phantom) {
        walk(line.component, qty, via ?? line.component, depth + 1);
        continue;
      }
      const prior = out.get(line.component);
      if (prior) {
        prior.qty_per += qty;
        if (prior.via_phantom !== via) prior.via_phantom = null;
      } else out.set(line.component, { item: line.component, qty_per: qty, via_phantom: via });
    }
  };
  walk(item, 1, null, 0);
  return [...out.values()].map((r) => ({ ...r, qty_per: roundQty(r.qty_per) })).sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
}

/** True when `ancestor` appears anywhere under `item` in BOMs at any date: adding `item` below `ancestor` would make a cycle. */
export function usesAnywhere(lines: (item: string) => readonly { component: string }[], item: string, ancestor: string): boolean {
  const seen = new Set<string>();
  const stack = [item];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === ancestor) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const l of lines(next)) stack.push(l.component);
  }
  return false;
}

/**
 * Low-level codes: 0 for an item no BOM uses, else one more than the deepest parent that uses it,
 * so planning one level at a time sees every parent's demand before a component's.
 */
export function lowLevelCodes(edges: readonly { item: string; component: string }[]): Map<string, number> {
  const level = new Map<string, number>();
  for (const e of edges) {
    level.set(e.item, level.get(e.item) ?? 0);
    level.set(e.component, level.get(e.component) ?? 0);
  }
  // Relax until stable; a DAG settles within as many passes as it has levels.
  for (let pass = 0; pass <= MAX_DEPTH; pass++) {
    let changed = false;
    for (const e of edges) {
      const deeper = level.get(e.item)! + 1;
      if (level.get(e.component)! < deeper) {
        level.set(e.component, deeper);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return level;
}
