import type { Queries } from '../../projections';
import { roundQty } from '../../projections/quantities';
import { withDecimals } from '../decimal-view';
import { fromCents } from '../money';
import { shortages } from './availability';

const MONEY = ['material_issued', 'conversion_applied', 'completed_value', 'scrap_value', 'variance', 'material_standard', 'material_variance', 'conversion_standard', 'conversion_variance', 'standard_difference', 'wip_balance'] as const;

/**
 * A work order as GET /work-orders/{id} shows it. `full` adds its components, operations, issues,
 * completions and (while planned) the shortages a release would be refused for.
 */
export function workOrderView(read: Queries, id: string, full = true) {
  const wo = read.manufacturing.workOrder(id);
  if (!wo) return undefined;
  const header = { ...withDecimals(wo, MONEY), open_qty: roundQty(Math.max(0, wo.qty - wo.qty_completed - wo.qty_scrapped)) };
  if (!full) return header;
  const components = read.manufacturing.components(id).map((c) => ({ ...withDecimals(c, ['standard_cost']), remaining: roundQty(Math.max(0, c.required - c.issued)) }));
  const issues = read.manufacturing.issuesOf(id).map((i) => withDecimals(i, ['value']));
  const completions = read.manufacturing.completionsOf(id).map((c) => withDecimals(c, ['conversion_value', 'completed_value', 'scrap_value']));
  const links = [
    { rel: 'item', type: 'item', id: wo.item },
    { rel: 'bom', type: 'bom', id: wo.item },
    ...(wo.planned_order ? [{ rel: 'planned_order', type: 'mrp_suggestion', id: wo.planned_order }] : []),
    ...[...new Set(issues.map((i) => i.id))].map((i) => ({ rel: 'issue', type: 'wo_issue', id: i })),
    ...completions.map((c) => ({ rel: 'completion', type: 'wo_completion', id: c.id })),
  ];

  return {
    ...header,
    components,
    operations: read.manufacturing.operations(id).map((o) => withDecimals(o, ['rate_per_hour'])),
    issues,
    completions,
    shortages: wo.status === 'planned' ? shortages(read, wo, read.manufacturing.components(id)) : [],
    links,
  };
}


/** A material issue (or its reversal) with the stock movements it made. */
export function issueView(read: Queries, id: string) {
  const lines = read.manufacturing.issueLines(id);
  if (lines.length === 0) return undefined;
  const first = lines[0]!;
  return {
    id, kind: first.kind, reverses: first.reverses, work_order: first.work_order, date: first.date, reason: first.reason, created_by: first.created_by,
    lines: lines.map((l) => ({ line: l.line, item: l.item, qty: l.qty, value: fromCents(l.value), status: l.status })),
    reversals: [...new Set(read.manufacturing.issuesOf(first.work_order).filter((l) => l.reverses === id).map((l) => l.id))],
    transactions: read.inventory.transactionsOf(id).map((t) => ({ ...t, unit_cost: fromCents(t.unit_cost), value: fromCents(t.value) })),
    links: [{ rel: 'work_order', type: 'work_order', id: first.work_order }],
  };
}
