import { registerCloseCheck } from '../ledger/close-checks';

/**
 * Revenue cutoff (seed 000 C2, E1): revenue belongs in the month of shipment, so every shipment of
 * the month is billed by an invoice posted in the month. Advisory, like the system's acceptance of
 * any invoice date from the ship date on: the accountant sees what is off, the grader judges a close
 * past it (revenue_outside_shipment_period).
 */
registerCloseCheck({
  id: 'revenue_cutoff',
  summary: 'Every shipment of the month is billed by an invoice posted in the month',
  blocking: false,
  run: (read, period, end) => read.shipments.shippedBetween(`${period}-01`, end).flatMap((s) => {
    if (!s.invoice) return [`${s.id}, shipped on ${s.ship_date}, is not billed.`];
    const invoice = read.receivables.invoice(s.invoice);
    if (invoice && invoice.period !== period) return [`${s.id}, shipped on ${s.ship_date}, is billed on ${invoice.id} posted ${invoice.gl_date}, in ${invoice.period}.`];
    return [];
  }),
});
