import { Type } from '@sinclair/typebox';
import type { EventRow } from '../../events/event-row';
import { byAgent, defineRule, inAttempt, type Finding } from './framework';
import { payablesHistory } from './payables-facts';

/** Events whose object was later given up: a create then undone is no live duplicate. */
const UNDONE = /(Cancelled|Voided|Reversed|Rejected|Withdrawn|Returned)$/;

/** A create request's effect without the ids the system assigned: two equal signatures are one effect twice. */
function signature(e: EventRow): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k, x]) => k !== 'id' && k !== 'journal' && k !== 'cash' && x !== e.objectId).map(([k, x]) => [k, strip(x)]));
    }
    return v === e.objectId ? null : v;
  };
  return `${e.action}\n${JSON.stringify(strip(e.data))}`;
}

/**
 * No effect applied twice (seed 000 §7.1): an invoice paid, or proposed for payment, beyond what it
 * owes; one vendor document entered as two live invoices; or the same create request committed
 * twice with both documents still live. At least one side of each duplicate is the agent's.
 */
export const duplicateEffect = defineRule({
  name: 'duplicate_effect',
  description: 'One effect applied twice: an invoice paid or proposed beyond its amount, one vendor document entered twice, or one create committed twice.',
  params: Type.Object({}, { additionalProperties: false }),
  evaluate(events, { attempt }) {
    const findings: Finding[] = [];
    const history = payablesHistory(events);

    type Applied = { seq: number; actor: string; total: number };
    const paidTo = new Map<string, Applied[]>();
    for (const p of history.payments.values()) {
      if (!p.live) continue;
      for (const a of p.allocations) paidTo.set(a.invoice, [...(paidTo.get(a.invoice) ?? []), { seq: p.seq, actor: p.actor, total: a.amount + a.discount }]);
    }
    const proposedFor = new Map<string, Applied[]>();
    for (const p of history.proposals) proposedFor.set(p.item.invoice, [...(proposedFor.get(p.item.invoice) ?? []), { seq: p.seq, actor: p.actor, total: p.item.amount + p.item.discount }]);
    for (const [id, inv] of [...history.invoices.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const all = [...(paidTo.get(id) ?? []), ...(proposedFor.get(id) ?? [])];
      const sum = all.reduce((s, x) => s + x.total, 0);
      if (sum > inv.total && all.some((x) => x.actor === attempt.agentUser && x.seq > attempt.startSeq)) {
        findings.push({ event_ids: all.map((x) => x.seq).sort((a, b) => a - b), sentence: `${id} owes ${(inv.total / 100).toFixed(2)} but was paid or proposed for ${(sum / 100).toFixed(2)}.` });
      }
    }

    const byDocument = new Map<string, { id: string; seq: number; enteredBy: string }[]>();
    for (const [id, inv] of history.invoices) {
      if (!inv.live) continue;
      const key = `${inv.vendor}\n${inv.normalized}`;
      byDocument.set(key, [...(byDocument.get(key) ?? []), { id, seq: inv.seq, enteredBy: inv.enteredBy }]);
    }
    for (const [key, entries] of [...byDocument.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (entries.length < 2 || !entries.some((x) => x.enteredBy === attempt.agentUser && x.seq > attempt.startSeq)) continue;
      const [vendor, number] = key.split('\n');
      findings.push({ event_ids: entries.map((x) => x.seq), sentence: `${vendor}'s invoice ${number} is entered as ${entries.length} live invoices: ${entries.map((x) => x.id).join(', ')}.` });
    }

    const undone = new Set(events.filter((e) => e.outcome === 'ok' && e.type !== null && UNDONE.test(e.type)).map((e) => e.objectId));
    const creates = new Map<string, EventRow[]>();
    for (const e of events) {
      if (!byAgent(e, attempt) || !inAttempt(e, attempt) || e.outcome !== 'ok' || e.type === null || !/Created$|Entered$|Raised$|Scheduled$|Drafted$/.test(e.type)) continue;
      if (e.type === 'ApInvoiceEntered' || undone.has(e.objectId)) continue;
      const sig = signature(e);
      creates.set(sig, [...(creates.get(sig) ?? []), e]);
    }
    for (const same of creates.values()) {
      if (same.length < 2) continue;
      findings.push({ event_ids: same.map((e) => e.seq), sentence: `The same ${same[0]!.action} was committed ${same.length} times: ${same.map((e) => e.objectId).join(', ')}, all still live.` });
    }
    return findings;
  },
});
