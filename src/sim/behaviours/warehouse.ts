import { registerBehaviour } from '../behaviour-registry';

/** The warehouse's profile (world.actors.warehouse); see docs/simulation.md. */
export interface WarehouseWorld {
  /** The receiving clerk the receipts are posted as. */
  clerk: string;
  /** Post receipts for arrived deliveries by itself: for history, and tasks where receiving is not the agent's job. */
  auto_receive: boolean;
  /** The warehouses it receives into (default: every one). */
  warehouses?: string[];
  /** The location each warehouse puts deliveries away to (default: its first location). */
  locations?: Record<string, string>;
}

const RECEIVABLE = new Set(['sent', 'partially_received', 'received']);

/**
 * Each business day the clerk receives every announced delivery that has arrived, exactly as
 * delivered: the quantity, lot and expiry shipped, and a substitute as a substitution for its line.
 * A delivery received once and freed by a reversal is left to whoever reversed it.
 */
registerBehaviour('warehouse', 'receive-deliveries', (ctx) => {
  const world = ctx.world.actors.warehouse as WarehouseWorld | undefined;
  if (!world?.auto_receive || !world.clerk || !ctx.businessDay) return;
  const client = ctx.as(world.clerk);
  for (const delivery of ctx.read.receiving.deliveriesDue(ctx.date)) {
    if (world.warehouses && !world.warehouses.includes(delivery.warehouse)) continue;
    if (!RECEIVABLE.has(ctx.read.purchasing.po(delivery.po)?.status ?? '')) continue;
    // A delivery whose receipt was reversed is for whoever reversed it to receive again, not the clerk's routine.
    if (delivery.status_history.some((h) => h.status === 'received')) continue;
    const location = world.locations?.[delivery.warehouse];
    const lines = ctx.read.receiving.deliveryLines(delivery.id).map((l) => ({
      po_line: l.po_line, qty_received: l.qty, ...(l.substitute_for && l.item ? { item: l.item } : {}),
      ...(l.lot ? { lot: l.lot } : {}), ...(l.expiry ? { expiry: l.expiry } : {}), ...(location ? { location } : {}),
    }));
    client.post('/receipts', { po: delivery.po, delivery: delivery.id, lines }, `warehouse-${delivery.id}`);
  }
});
