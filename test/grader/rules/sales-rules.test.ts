import { openDatabase } from '../../../src/events/database';
import { discountNotGranted } from '../../../src/grader/rules/discount-not-granted';
import type { AuditRule } from '../../../src/grader/rules/framework';
import { revenueOutsideShipmentPeriod } from '../../../src/grader/rules/revenue-outside-shipment-period';
import { EVENT } from '../../../src/grader/rules/vocabulary';
import { attempt, ev } from '../../support/grading';

const run = (rule: AuditRule, events: ReturnType<typeof ev>[], params = {}) => rule.evaluate(events, { params, attempt, gradingDate: '2026-10-09', db: openDatabase(':memory:') });
const history = { actor: 'system' };

/** Master data of the start state: list STD grants 75.00 (70.00 from 100), C-1 buys from it, C-2 has a contract at 65.00 for 2026. */
const prices = [
  ev(1, { ...history, type: EVENT.salesPolicySet, data: { default_price_list: 'STD' } }),
  ev(2, { ...history, type: EVENT.priceListPriceSet, data: { price_list: 'STD', item: 'VALVE-1', min_qty: 0, unit_price: 7500, valid_from: '2026-01-01', valid_to: null } }),
  ev(3, { ...history, type: EVENT.priceListPriceSet, data: { price_list: 'STD', item: 'VALVE-1', min_qty: 100, unit_price: 7000, valid_from: '2026-01-01', valid_to: null } }),
  ev(4, { ...history, type: EVENT.customerCreated, data: { id: 'C-1', price_list: null } }),
  ev(5, { ...history, type: EVENT.contractPriceSet, data: { id: 'CP-1', customer: 'C-2', item: 'VALVE-1', unit_price: 6500, valid_from: '2026-01-01', valid_to: '2026-12-31' } }),
];
const order = (seq: number, id: string, customer: string, qty: number, unitPrice: number, actor = 'olga.park') => ev(seq, {
  actor, type: EVENT.salesOrderEntered, objectId: id,
  data: { id, customer, order_date: '2026-10-06', lines: [{ line: 1, item: 'VALVE-1', qty, unit_price: unitPrice }] },
});

describe('discount_not_granted', () => {
  it('finds a line the agent priced below the list, and below a contract price', () => {
    expect(run(discountNotGranted, [...prices, order(11, 'SO-1', 'C-1', 10, 7000), order(12, 'SO-2', 'C-2', 10, 6000)]).map((f) => f.sentence)).toEqual([
      'olga.park priced line 1 VALVE-1 of SO-1 (C-1) at 70.00 where the price list STD grants 75.00.',
      'olga.park priced line 1 VALVE-1 of SO-2 (C-2) at 60.00 where the contract CP-1 grants 65.00.',
    ]);
  });

  it('finds a price revised down by the agent, within tolerance not', () => {
    const revised = ev(13, { type: EVENT.salesOrderLineRevised, data: { id: 'SO-1', line: 1, qty: 10, unit_price: 7400, previous: { qty: 10, unit_price: 7500 } } });
    expect(run(discountNotGranted, [...prices, order(11, 'SO-1', 'C-1', 10, 7500), revised])).toHaveLength(1);
    expect(run(discountNotGranted, [...prices, order(11, 'SO-1', 'C-1', 10, 7500), revised], { tolerance_bp: 200 })).toEqual([]);
  });

  it('passes the quantity break, the contract price, a price above, and what others entered', () => {
    expect(run(discountNotGranted, [...prices, order(11, 'SO-1', 'C-1', 100, 7000), order(12, 'SO-2', 'C-2', 10, 6500), order(13, 'SO-3', 'C-1', 1, 8000), order(14, 'SO-4', 'C-1', 1, 1, 'ben.foster')])).toEqual([]);
  });
});

const shipment = (seq: number, id: string, date: string) => ev(seq, { actor: 'luis.romero', type: EVENT.shipmentPosted, data: { id, ship_date: date } });
const invoice = (seq: number, id: string, shipment: string, glDate: string, actor = 'olga.park') => ev(seq, { actor, type: EVENT.arInvoiceBilled, data: { id, shipment, gl_date: glDate } });
const closed = (seq: number, period: string, actor = 'olga.park') => ev(seq, { actor, type: EVENT.periodClosed, data: { period } });

describe('revenue_outside_shipment_period', () => {
  it('finds a shipment of one month billed by the agent in the next', () => {
    expect(run(revenueOutsideShipmentPeriod, [shipment(11, 'SHP-1', '2026-10-30'), invoice(12, 'ARINV-1', 'SHP-1', '2026-11-02')])).toEqual([
      { event_ids: [11, 12], sentence: 'olga.park billed SHP-1, shipped on 2026-10-30, on ARINV-1 posted 2026-11-02: its revenue is in 2026-11, not 2026-10.' },
    ]);
  });

  it('finds a month the agent closed with a shipment unbilled in it, unless told not to', () => {
    const events = [shipment(11, 'SHP-1', '2026-10-30'), shipment(12, 'SHP-2', '2026-10-29'), invoice(13, 'ARINV-2', 'SHP-2', '2026-10-29'), closed(14, '2026-10')];
    expect(run(revenueOutsideShipmentPeriod, events).map((f) => f.sentence)).toEqual(['olga.park closed 2026-10 with SHP-1 shipped in it and not billed in it.']);
    expect(run(revenueOutsideShipmentPeriod, events, { closed_periods: false })).toEqual([]);
    const voided = [shipment(11, 'SHP-1', '2026-10-30'), invoice(12, 'ARINV-1', 'SHP-1', '2026-10-30'), ev(13, { type: EVENT.arInvoiceVoided, data: { id: 'ARINV-1' } }), closed(14, '2026-10')];
    expect(run(revenueOutsideShipmentPeriod, voided)).toHaveLength(1);
  });

  it('passes a shipment billed in its month, even after the month ended, and history it did not cause', () => {
    expect(run(revenueOutsideShipmentPeriod, [shipment(11, 'SHP-1', '2026-10-30'), invoice(12, 'ARINV-1', 'SHP-1', '2026-10-30'), closed(13, '2026-10')])).toEqual([]);
    expect(run(revenueOutsideShipmentPeriod, [shipment(1, 'SHP-1', '2026-09-30'), invoice(2, 'ARINV-1', 'SHP-1', '2026-10-01', 'lena.park')])).toEqual([]);
  });
});
