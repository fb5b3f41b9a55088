import type { EventRow } from '../../events/event-row';
import { domainEvents } from './framework';
import { EVENT } from './vocabulary';

/** What a payment record settles: invoice → amount plus discount, in cents. */
export interface Allocation { invoice: string; amount: number; discount: number }
interface PaymentRecord { id: string; allocations: Allocation[] }
interface RunItem { invoice: string; amount: number; discount: number }

/**
 * Invoices and what settles them, replayed from the stream: the payables facts the duplicate and
 * held-invoice rules judge. Only accepted writes count.
 */
export interface PayablesHistory {
  invoices: Map<string, { vendor: string; number: string; normalized: string; total: number; enteredBy: string; seq: number; live: boolean }>;
  /** Payments by id, with the invoices they settle; `live` false once returned or voided. */
  payments: Map<string, { seq: number; actor: string; allocations: Allocation[]; live: boolean }>;
  /** Run proposals still open (the run neither released, cancelled nor the item removed). */
  proposals: { run: string; seq: number; actor: string; item: RunItem }[];
}

export function payablesHistory(events: readonly EventRow[]): PayablesHistory {
  const invoices: PayablesHistory['invoices'] = new Map();
  const payments: PayablesHistory['payments'] = new Map();
  const runs = new Map<string, { seq: number; actor: string; items: Map<string, RunItem>; open: boolean }>();
  for (const e of domainEvents(events, ...Object.values(EVENT))) {
    const d = e.data as Record<string, any>;
    switch (e.type) {
      case EVENT.invoiceEntered:
        invoices.set(d.id, { vendor: d.vendor, number: d.vendor_invoice_number, normalized: d.normalized_number, total: d.total, enteredBy: e.actor, seq: e.seq, live: true });
        break;
      case EVENT.invoiceRevised: {
        const inv = invoices.get(d.id);
        if (inv) Object.assign(inv, { number: d.vendor_invoice_number, normalized: d.normalized_number, total: d.total });
        break;
      }
      case EVENT.invoiceVoided:
      case EVENT.invoiceRejected: {
        const inv = invoices.get(d.id);
        if (inv) inv.live = false;
        break;
      }
      case EVENT.runCreated:
        runs.set(d.id, { seq: e.seq, actor: e.actor, items: new Map((d.items as RunItem[]).map((i) => [i.invoice, i])), open: true });
        break;
      case EVENT.runItemAdded:
        runs.get(d.id)?.items.set(d.item.invoice, d.item);
        break;
      case EVENT.runItemRemoved:
        runs.get(d.id)?.items.delete(d.invoice);
        break;
      case EVENT.runCancelled:
      case EVENT.runReleased: {
        const run = runs.get(d.id);
        if (run) run.open = false;
        if (e.type === EVENT.runReleased) for (const p of d.payments as PaymentRecord[]) payments.set(p.id, { seq: e.seq, actor: e.actor, allocations: p.allocations, live: true });
        break;
      }
      case EVENT.paymentMade:
      case EVENT.externalPayment:
        payments.set(d.payment.id, { seq: e.seq, actor: e.actor, allocations: d.payment.allocations, live: true });
        break;
      case EVENT.paymentReturned:
      case EVENT.paymentVoided: {
        const p = payments.get(d.id);
        if (p) p.live = false;
        break;
      }
      default:
        break;
    }
  }
  const proposals: PayablesHistory['proposals'] = [];
  for (const [run, r] of [...runs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (r.open) for (const item of r.items.values()) proposals.push({ run, seq: r.seq, actor: r.actor, item });
  }
  return { invoices, payments, proposals };
}

/** The invoices an event pays or proposes to pay, with the amount and discount for each. */
export function paidOrProposed(e: EventRow): Allocation[] {
  const d = e.data as Record<string, any>;
  switch (e.type) {
    case EVENT.runCreated: return (d.items as RunItem[]).map((i) => ({ invoice: i.invoice, amount: i.amount, discount: i.discount }));
    case EVENT.runItemAdded: return [{ invoice: d.item.invoice, amount: d.item.amount, discount: d.item.discount }];
    case EVENT.paymentMade: return d.payment.allocations as Allocation[];
    default: return [];
  }
}
