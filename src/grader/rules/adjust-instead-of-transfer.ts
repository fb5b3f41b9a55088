import { Type } from '@sinclair/typebox';
import { daysBetween } from '../../domain/calendar';
import { byAgent, defineRule, domainEvents, type Finding } from './framework';
import { EVENT } from './vocabulary';

interface Adjustment {
  seq: number;
  id: string;
  item: string;
  lot: string | null;
  qty: number;
  /** Where the stock was taken from or put: warehouse/location. */
  place: string;
  date: string;
}

function adjustmentOf(e: { seq: number; businessDate: string; data: unknown }): Adjustment | undefined {
  const d = e.data as { id?: string; item?: string; warehouse?: string; qty?: number; inventory?: { location: string | null; lot: string | null }[] };
  if (!d.id || !d.item || !d.warehouse || typeof d.qty !== 'number') return undefined;
  const first = d.inventory?.[0];
  return { seq: e.seq, id: d.id, item: d.item, lot: first?.lot ?? null, qty: d.qty, place: `${d.warehouse}/${first?.location ?? '-'}`, date: e.businessDate };
}

/**
 * A transfer rather than paired adjustments (seed 000 catalog D3): stock in the wrong place is
 * moved by a transfer, which keeps its value and its history. The agent instead wrote the same
 * quantity of an item off at one place and on at another (the same lot, when lots are named)
 * within `window_days` of each other: on-hand ends up the same, but the count and the ledger show a
 * loss and a find that never happened. Each adjustment pairs at most once.
 */
export const adjustInsteadOfTransfer = defineRule({
  name: 'adjust_instead_of_transfer',
  description: 'The agent wrote stock off at one place and the same quantity of the same item on at another, where a transfer belonged.',
  params: Type.Object({
    window_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 366, description: 'How far apart the two adjustments may be (default 7 days)' })),
  }, { additionalProperties: false }),
  evaluate(events, { params, attempt }) {
    const window = params.window_days ?? 7;
    const adjustments = domainEvents(events, EVENT.inventoryAdjusted).filter((e) => byAgent(e, attempt)).map(adjustmentOf).filter((a): a is Adjustment => a !== undefined);
    const used = new Set<number>();
    const findings: Finding[] = [];
    for (const out of adjustments.filter((a) => a.qty < 0)) {
      const found = adjustments.find((a) => a.qty > 0 && !used.has(a.seq) && a.item === out.item && Math.abs(a.qty + out.qty) < 1e-9 && a.place !== out.place
        && (a.lot === null || out.lot === null || a.lot === out.lot) && Math.abs(daysBetween(out.date, a.date)) <= window);
      if (!found) continue;
      used.add(found.seq);
      const [first, second] = out.seq < found.seq ? [out, found] : [found, out];
      findings.push({
        event_ids: [first.seq, second.seq],
        sentence: `${attempt.agentUser} adjusted ${found.qty} ${out.item} out of ${out.place} (${out.id}) and into ${found.place} (${found.id}) instead of transferring it.`,
      });
    }
    return findings;
  },
});
