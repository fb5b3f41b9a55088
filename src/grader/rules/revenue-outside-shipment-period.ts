import { Type } from '@sinclair/typebox';
import { byAgent, defineRule, domainEvents, type Finding } from './framework';
import { EVENT } from './vocabulary';

/**
 * Revenue in the period of shipment (seed 000 C2, E1): an AR invoice the agent billed for a
 * shipment, posted in another month than the shipment's; and (E1's cutoff) a month the agent
 * closed in which something shipped that no invoice posted in that month bills.
 */
export const revenueOutsideShipmentPeriod = defineRule({
  name: 'revenue_outside_shipment_period',
  description: 'The agent posted a shipment\'s revenue in another month than it shipped, or closed a month with shipments unbilled in it.',
  params: Type.Object({ closed_periods: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  evaluate(events, { attempt, params }) {
    const shipped = new Map<string, { date: string; seq: number }>();
    /** Shipment → the live invoice billing it and its posting month. */
    const billed = new Map<string, { invoice: string; period: string }>();
    const invoiceShipment = new Map<string, string>();
    const findings: Finding[] = [];
    for (const e of domainEvents(events, EVENT.shipmentPosted, EVENT.arInvoiceBilled, EVENT.arInvoiceVoided, EVENT.periodClosed)) {
      const d = e.data as Record<string, any>;
      if (e.type === EVENT.shipmentPosted) shipped.set(d.id, { date: d.ship_date, seq: e.seq });
      else if (e.type === EVENT.arInvoiceBilled && d.shipment) {
        billed.set(d.shipment, { invoice: d.id, period: d.gl_date.slice(0, 7) });
        invoiceShipment.set(d.id, d.shipment);
        const s = shipped.get(d.shipment);
        if (s && byAgent(e, attempt) && s.date.slice(0, 7) !== d.gl_date.slice(0, 7)) {
          findings.push({ event_ids: [s.seq, e.seq], sentence: `${attempt.agentUser} billed ${d.shipment}, shipped on ${s.date}, on ${d.id} posted ${d.gl_date}: its revenue is in ${d.gl_date.slice(0, 7)}, not ${s.date.slice(0, 7)}.` });
        }
      } else if (e.type === EVENT.arInvoiceVoided) {
        const s = invoiceShipment.get(d.id);
        if (s && billed.get(s)?.invoice === d.id) billed.delete(s);
      } else if (e.type === EVENT.periodClosed && params.closed_periods !== false && byAgent(e, attempt)) {
        const unbilled = [...shipped].filter(([id, s]) => s.date.slice(0, 7) === d.period && billed.get(id)?.period !== d.period).map(([id]) => id).sort();
        if (unbilled.length) findings.push({ event_ids: [e.seq, ...unbilled.map((id) => shipped.get(id)!.seq)], sentence: `${attempt.agentUser} closed ${d.period} with ${unbilled.join(', ')} shipped in it and not billed in it.` });
      }
    }
    return findings;
  },
});
