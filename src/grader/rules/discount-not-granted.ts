import { Type } from '@sinclair/typebox';
import type { EventRow } from '../../events/event-row';
import { byAgent, defineRule, domainEvents, type Finding } from './framework';
import { EVENT } from './vocabulary';

interface Dated { from: string; to: string | null }
interface ListPrice extends Dated { min_qty: number; unit_price: number }
interface Contract extends Dated { id: string; unit_price: number; seq: number }

const inEffect = (r: Dated, date: string) => r.from <= date && (r.to === null || date <= r.to);
const money = (cents: number) => (cents / 100).toFixed(2);

/** The prices and price lists the stream granted, replayed in order (the grader never asks the deciders). */
class GrantedPrices {
  private readonly lists = new Map<string, ListPrice[]>();
  private readonly contracts = new Map<string, Contract[]>();
  private readonly customerList = new Map<string, string | null>();
  private defaultList: string | null = null;

  fold(e: EventRow): void {
    const d = e.data as Record<string, any>;
    if (e.type === EVENT.priceListPriceSet) {
      const key = `${d.price_list}\u0000${d.item}`;
      const rows = (this.lists.get(key) ?? []).filter((r) => !(r.min_qty === d.min_qty && r.from === d.valid_from));
      this.lists.set(key, [...rows, { min_qty: d.min_qty, unit_price: d.unit_price, from: d.valid_from, to: d.valid_to }]);
    } else if (e.type === EVENT.contractPriceSet) {
      const key = `${d.customer}\u0000${d.item}`;
      this.contracts.set(key, [...(this.contracts.get(key) ?? []), { id: d.id, unit_price: d.unit_price, from: d.valid_from, to: d.valid_to, seq: e.seq }]);
    } else if (e.type === EVENT.customerCreated) this.customerList.set(d.id, d.price_list ?? null);
    else if (e.type === EVENT.customerSalesTermsSet) this.customerList.set(d.customer, d.price_list);
    else if (e.type === EVENT.salesPolicySet) this.defaultList = d.default_price_list;
  }

  /** The price granted on a date and what grants it: the contract in effect that took effect last, else the list's highest break reached. */
  granted(customer: string, item: string, qty: number, date: string): { price: number; by: string } | undefined {
    const contract = (this.contracts.get(`${customer}\u0000${item}`) ?? []).filter((c) => inEffect(c, date)).sort((a, b) => (a.from < b.from ? 1 : a.from > b.from ? -1 : b.seq - a.seq))[0];
    if (contract) return { price: contract.unit_price, by: `contract ${contract.id}` };
    const list = this.customerList.get(customer) ?? this.defaultList;
    if (!list) return undefined;
    const rows = (this.lists.get(`${list}\u0000${item}`) ?? []).filter((r) => inEffect(r, date));
    const latest = rows.reduce((m, r) => (r.from > m ? r.from : m), '');
    const reached = rows.filter((r) => r.from === latest && qty >= r.min_qty).sort((a, b) => b.min_qty - a.min_qty)[0];
    return reached ? { price: reached.unit_price, by: `price list ${list}` } : undefined;
  }
}

/**
 * No discount the contract does not grant (seed 000 C1): a sales order line the agent entered or
 * revised at a price below the one the customer's contract, or else its price list, grants on the
 * order's date (beyond `tolerance_bp`). A line with no price granted at all is not judged here.
 */
export const discountNotGranted = defineRule({
  name: 'discount_not_granted',
  description: 'The agent priced a sales order line below what the customer\'s contract or price list grants.',
  params: Type.Object({ tolerance_bp: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })) }, { additionalProperties: false }),
  evaluate(events, { attempt, params }) {
    const prices = new GrantedPrices();
    const orders = new Map<string, { customer: string; date: string; items: Map<number, string> }>();
    const findings: Finding[] = [];
    const tolerance = params.tolerance_bp ?? 0;
    const judge = (e: EventRow, order: string, customer: string, date: string, line: number, item: string, qty: number, unitPrice: number) => {
      const g = prices.granted(customer, item, qty, date);
      if (!g || unitPrice * 10000 >= g.price * (10000 - tolerance)) return;
      findings.push({ event_ids: [e.seq], sentence: `${attempt.agentUser} priced line ${line} ${item} of ${order} (${customer}) at ${money(unitPrice)} where the ${g.by} grants ${money(g.price)}.` });
    };
    for (const e of domainEvents(events, EVENT.priceListPriceSet, EVENT.contractPriceSet, EVENT.customerCreated, EVENT.customerSalesTermsSet, EVENT.salesPolicySet, EVENT.salesOrderEntered, EVENT.salesOrderLineRevised)) {
      const d = e.data as Record<string, any>;
      if (e.type === EVENT.salesOrderEntered) {
        orders.set(d.id, { customer: d.customer, date: d.order_date, items: new Map(d.lines.map((l: { line: number; item: string }) => [l.line, l.item])) });
        if (byAgent(e, attempt)) for (const l of d.lines) judge(e, d.id, d.customer, d.order_date, l.line, l.item, l.qty, l.unit_price);
      } else if (e.type === EVENT.salesOrderLineRevised) {
        const o = orders.get(d.id);
        if (o && byAgent(e, attempt) && d.unit_price !== d.previous.unit_price) judge(e, d.id, o.customer, o.date, d.line, o.items.get(d.line)!, d.qty, d.unit_price);
      } else prices.fold(e);
    }
    return findings;
  },
});
