import { formatCents } from '../../domain/money';
import type { ScenarioBuilder } from '../builder';
import type { ProductionDesign } from './production-design';

const line = (l: { component: string; qty: number; scrapPct?: number }) => ({ component: l.component, qty_per: l.qty, ...(l.scrapPct ? { scrap_pct: l.scrapPct } : {}) });

/**
 * The plant's master data as engineering set it up before history: the plant warehouse (Dayton,
 * completions to FG), work centers, BOMs (parents after their subassemblies), routings, the
 * engineering changes already scheduled, and the summer shutdown on the plant calendar.
 */
export function setUpPlant(b: ScenarioBuilder, design: ProductionDesign): void {
  b.sys('POST', '/plant-settings', { warehouse: 'DAY', completion_location: 'FG' });
  for (const wc of design.workCenters) b.sys('POST', '/work-centers', { id: wc.id, name: wc.name, capacity_hours_per_day: wc.hoursPerDay, rate_per_hour: formatCents(wc.rate, false) });
  const effective = b.today();
  for (const bom of design.boms) {
    b.sys('POST', '/boms', { item: bom.item, phantom: bom.phantom ?? false, lines: bom.lines.map((l) => ({ ...line(l), effective_from: effective })) });
  }
  for (const r of design.routings) {
    b.sys('POST', '/routings', { item: r.item, operations: r.operations.map(([work_center, setup_hours, run_hours_per_unit], i) => ({ seq: (i + 1) * 10, work_center, setup_hours, run_hours_per_unit })) });
  }
  for (const c of design.changes) b.sys('POST', `/boms/${c.item}/changes`, { effective_date: c.effective, reason: c.reason, remove: c.remove, add: c.add.map(line), note: c.note });
  for (const [from, to, reason] of design.shutdowns) b.sys('POST', '/plant-calendar/shutdowns', { from, to, reason, note: 'Plant closed for maintenance and the annual count' });
}
