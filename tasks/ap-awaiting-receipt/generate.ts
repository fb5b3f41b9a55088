import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { assignQueue, billInvoice, draws, invoiceDate, linesOf, nextNumber, PLANTING_DATE, unbilledOrders, type PoInfo } from '../shared/ap-exceptions/plant';

type Kind = 'in_transit' | 'services' | 'received';

/**
 * Three or four invoices: goods billed while still in transit (the traps, one or two), and at least
 * one services invoice and one for goods received in full (the look-alikes, to be paid). How many
 * of each, which orders, the order of entry and the queue order are drawn from the seed.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draws(ctx.random('queue'));
  if (ctx.today() !== PLANTING_DATE) ctx.advanceTo(PLANTING_DATE);
  const orders = unbilledOrders(ctx);
  const size = d.int(3, 4);
  const traps = size === 3 ? 1 : d.int(1, 2);
  const kinds: Kind[] = [...Array<Kind>(traps).fill('in_transit'), 'services', 'received'];
  while (kinds.length < size) kinds.push(d.pick(['services', 'received'] as const));
  const pools: Record<Kind, PoInfo[]> = { in_transit: d.shuffle(orders.inTransit), services: d.shuffle(orders.services), received: d.shuffle(orders.received) };
  const picks = kinds.map((kind) => {
    const po = pools[kind].shift();
    if (!po) throw new Error(`Not enough unbilled ${kind} orders to plant.`);
    return { kind, po };
  });
  const ids = new Map<PoInfo, string>();
  for (const { kind, po } of d.shuffle(picks)) {
    const date = kind === 'services' ? '2026-09-30' : invoiceDate(d.float, po);
    ids.set(po, billInvoice(ctx, { vendor: po.vendor, po: po.id, number: nextNumber(ctx, po.vendor.id), date, lines: linesOf(po) }));
  }
  const queued = d.shuffle(picks.map((p) => ids.get(p.po)!));
  assignQueue(ctx, queued.map((id) => ({ record_type: 'ap_invoice' as const, record_id: id })));
  const describe: Record<Kind, string> = {
    in_transit: 'goods billed before any receipt: hold awaiting_receipt, do not pay',
    services: 'services, matched to the PO alone: pay',
    received: 'goods received in full: pay',
  };
  return {
    planted: picks.map(({ kind, po }) => ({
      id: ids.get(po)!, role: kind === 'in_transit' ? 'trap' : 'lookalike', clauses: kind === 'in_transit' ? ['REC-1.1'] : ['REC-1.2', 'PAY-1.1'],
      description: `${po.vendor.name} on ${po.id}: ${describe[kind]}`,
    })),
    queue: queued,
  } as Truth;
}
