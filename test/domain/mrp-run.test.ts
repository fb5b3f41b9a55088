import { call } from '../support/erp';
import { ok } from '../support/books-fixture';
import { manufacturingCompany, stockIn } from '../support/manufacturing-fixture';
import { purchaseOrder } from '../support/purchasing-fixture';

/**
 * A small plant on Monday 2026-10-05, planned by hand. VALVE-A (lead 3 days, safety stock 5, lots
 * of 10) is forecast 25 for the week of 10-12 and 30 for the week of 10-19, with 5 on hand. One
 * VALVE-A takes a BODY-1, a SUB-B, a KIT-P (phantom: a SEAL-1 and a BOLT-1) and 4 BOLT-1 with 5%
 * scrap, so 5.2 BOLT-1 in all; a SUB-B takes 2 SEAL-1 and 2 BOLT-1.
 *
 * On hand: BODY-1 20, SUB-B 10, BOLT-1 100, SEAL-1 100. Sent POs: PO-000001 BODY-1 20 due 10-20,
 * PO-000002 BODY-1 15 due 10-22, PO-000003 SEAL-1 200 due 10-06, PO-000004 SEAL-1 50 due 10-20,
 * PO-000005 BOLT-1 300 due 10-06. The run: three weeks (to 10-25), firm fence 5 business days
 * (10-12), defer beyond 3 business days early.
 */
function plant() {
  const company = manufacturingCompany('2026-10-05');
  const { api, tokens } = company;
  ok(call(api, tokens.owen, 'POST', '/items/VALVE-A/planning', { safety_stock: 5, moq: 10, order_multiple: 10 }), 'planning');
  ok(call(api, tokens.owen, 'POST', '/forecasts', { item: 'VALVE-A', weeks: [{ week_start: '2026-10-12', qty: 25 }, { week_start: '2026-10-19', qty: 30 }] }), 'forecast');
  stockIn(api, tokens.rita, 'VALVE-A', 5, 100);
  stockIn(api, tokens.rita, 'BODY-1', 20, 20);
  stockIn(api, tokens.rita, 'SUB-B', 10, 26);
  stockIn(api, tokens.rita, 'BOLT-1', 100, '0.50');
  stockIn(api, tokens.rita, 'SEAL-1', 100, 12, { lot: 'L1', expiry: '2027-06-30' });
  const po = (item: string, qty: number, need_by: string) => purchaseOrder(api, tokens, { vendor: 'V-0142', ship_to: 'WH1', lines: [{ item, qty, unit_price: 1, need_by }] });
  po('BODY-1', 20, '2026-10-20');
  po('BODY-1', 15, '2026-10-22');
  po('SEAL-1', 200, '2026-10-06');
  po('SEAL-1', 50, '2026-10-20');
  po('BOLT-1', 300, '2026-10-06');
  return company;
}

const pick = (s: any) => [s.id, s.kind, s.item, s.qty, s.need_date, s.release_date, s.vendor, s.order_id, s.current_date, s.firm, s.late, s.reason];

describe('an MRP run over a hand-planned BOM', () => {
  it('nets level by level into the planned orders and action messages worked out by hand', () => {
    const { api, tokens } = plant();
    const run = call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, firm_days: 5, defer_days: 3 });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ id: 'MRP-000001', run_date: '2026-10-05', horizon_end: '2026-10-25', firm_fence: '2026-10-12', items_planned: 5 });
    const list = call(api, tokens.owen, 'GET', '/mrp/suggestions').body.items;
    expect(list.map(pick)).toEqual([
      // VALVE-A: 10-12 falls to 5 − 25 = −20, 25 short of safety stock → 30 (lots of 10), released 3 days earlier; 10-19 the same again.
      ['MRP-000001-0001', 'planned_wo', 'VALVE-A', 30, '2026-10-12', '2026-10-09', null, null, null, true, false, 'forecast week of 2026-10-12'],
      ['MRP-000001-0002', 'planned_wo', 'VALVE-A', 30, '2026-10-19', '2026-10-16', null, null, null, false, false, 'forecast week of 2026-10-19'],
      // BODY-1: 30 needed 10-09 against 20 on hand takes PO-000001 (due 10-20: expedite); 30 more 10-16 takes PO-000002
      // (due 10-22: expedite) and is still 5 short, a purchase that should have gone out 14 days before, on 10-02: late.
      ['MRP-000001-0003', 'expedite', 'BODY-1', 20, '2026-10-09', null, null, 'PO-000001', '2026-10-20', false, false, 'planned order MRP-000001-0001 (VALVE-A)'],
      ['MRP-000001-0004', 'expedite', 'BODY-1', 15, '2026-10-16', null, null, 'PO-000002', '2026-10-22', false, false, 'planned order MRP-000001-0002 (VALVE-A)'],
      ['MRP-000001-0005', 'planned_po', 'BODY-1', 5, '2026-10-16', '2026-10-02', 'V-0142', null, null, true, true, 'planned order MRP-000001-0002 (VALVE-A)'],
      // SUB-B: 10 on hand, 30 needed 10-09 → 20 (released 10-07); 30 needed 10-16 → 30 (released 10-14, past the fence).
      ['MRP-000001-0006', 'planned_wo', 'SUB-B', 20, '2026-10-09', '2026-10-07', null, null, null, true, false, 'planned order MRP-000001-0001 (VALVE-A)'],
      ['MRP-000001-0007', 'planned_wo', 'SUB-B', 30, '2026-10-16', '2026-10-14', null, null, null, false, false, 'planned order MRP-000001-0002 (VALVE-A)'],
      // BOLT-1: 100 − 40 (10-07) − 156 (10-09) takes PO-000005 (300, 3 business days early: within tolerance) → 204;
      // − 60 (10-14) − 156 (10-16) = −12 → a lot of 100, released 5 days before (Sunday 10-11, so Friday 10-09).
      ['MRP-000001-0008', 'planned_po', 'BOLT-1', 100, '2026-10-16', '2026-10-09', 'V-0142', null, null, true, false, 'planned order MRP-000001-0002 (VALVE-A)'],
      // SEAL-1: 100 − 40 − 30 − 60 falls short on 10-14 and takes PO-000003, due 10-06: six business days early → defer;
      // PO-000004 is then needed by nothing in the horizon → cancel.
      ['MRP-000001-0009', 'defer', 'SEAL-1', 200, '2026-10-14', null, null, 'PO-000003', '2026-10-06', false, false, 'planned order MRP-000001-0007 (SUB-B)'],
      ['MRP-000001-0010', 'cancel', 'SEAL-1', 50, '2026-10-20', null, null, 'PO-000004', '2026-10-20', false, false, 'not needed by 2026-10-25'],
    ]);
    expect(run.body.summary).toEqual([
      { kind: 'cancel', count: 1, firm: 0, late: 0, open: 1 }, { kind: 'defer', count: 1, firm: 0, late: 0, open: 1 }, { kind: 'expedite', count: 2, firm: 0, late: 0, open: 2 },
      { kind: 'planned_po', count: 2, firm: 2, late: 1, open: 2 }, { kind: 'planned_wo', count: 4, firm: 2, late: 0, open: 4 },
    ]);
  });

  it('gives the same suggestions for the same state, and supersedes the open ones of the run before', () => {
    const a = plant();
    const b = plant();
    const data = (c: typeof a) => {
      call(c.api, c.tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
      return c.erp.db.prepare("SELECT data FROM events WHERE type = 'MrpRunCompleted'").get();
    };
    expect(data(a)).toEqual(data(b));
    call(a.api, a.tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    expect(a.api.read.mrp.suggestion('MRP-000001-0001')!.status).toBe('superseded');
    expect(call(a.api, a.tokens.owen, 'GET', '/mrp/suggestions').body.items[0].id).toBe('MRP-000002-0001');
  });
});

describe('planned orders after a run', () => {
  function planned() {
    const company = plant();
    call(company.api, company.tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    return company;
  }

  it('release a planned work order at its quantity and dates into a planned work order linked back', () => {
    const { api, tokens } = planned();
    const res = call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0001/release', {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'WO-000001', item: 'VALVE-A', qty: 30, start_date: '2026-10-09', due_date: '2026-10-12', status: 'planned', planned_order: 'MRP-000001-0001' });
    expect(api.read.mrp.suggestion('MRP-000001-0001')).toMatchObject({ status: 'released', released_as_type: 'work_order', released_as: 'WO-000001' });
    expect(call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0001/release', {}).body.code).toBe('invalid_state');
  });

  it('release a late planned purchase order into a draft PO at the standard cost when no agreement prices it', () => {
    const { api, tokens } = planned();
    const res = call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0005/release', {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'PO-000006', vendor: 'V-0142', buyer: 'owen.mercer', ship_to: 'WH1', status: 'draft' });
    expect(res.body.lines.map((l: any) => [l.item, l.qty, l.need_by, l.unit_price])).toEqual([['BODY-1', 5, '2026-10-16', 20]]);
    expect(api.read.mrp.suggestion('MRP-000001-0005')).toMatchObject({ status: 'released', released_as_type: 'purchase_order', released_as: 'PO-000006' });
  });

  it('release several planned purchase orders of one vendor as one purchase order, a line each', () => {
    const { api, tokens } = planned();
    const res = call(api, tokens.owen, 'POST', '/mrp/releases', { suggestions: ['MRP-000001-0005', 'MRP-000001-0008'] });
    expect(res.body.lines.map((l: any) => [l.line, l.item, l.qty, l.need_by])).toEqual([[1, 'BODY-1', 5, '2026-10-16'], [2, 'BOLT-1', 100, '2026-10-16']]);
    expect(api.read.mrp.suggestion('MRP-000001-0008')!.released_as).toBe('PO-000006');
    expect(call(api, tokens.owen, 'POST', '/mrp/releases', { suggestions: ['MRP-000001-0006'] }).body.code).toBe('invalid_request');
    expect(call(api, tokens.owen, 'POST', '/mrp/releases', { suggestions: ['MRP-000001-0005', 'MRP-000001-0005'] }).body.code).toBe('invalid_request');
  });

  it('firm a planned order, which the next run keeps as supply instead of planning it again', () => {
    const { api, tokens } = planned();
    const firmed = call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0002/firm', { qty: 40, need_date: '2026-10-20' });
    expect(firmed.body).toMatchObject({ status: 'firmed', qty: 40, need_date: '2026-10-20', release_date: '2026-10-16' });
    call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    expect(api.read.mrp.suggestion('MRP-000001-0002')!.status).toBe('firmed');
    const valve = api.read.mrp.suggestionsOf('MRP-000002').filter((s) => s.item === 'VALVE-A').map((s) => [s.kind, s.qty, s.need_date]);
    // 5 − 25 on 10-12 takes the firmed 40 (due 10-20, but an order a planner fixed gets no messages) → 20;
    // 20 − 30 on 10-19 is 15 short of safety stock → a lot of 20.
    expect(valve).toEqual([['planned_wo', 20, '2026-10-19']]);
    expect(call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0002/release', {}).body).toMatchObject({ qty: 40, due_date: '2026-10-20', planned_order: 'MRP-000001-0002' });
  });

  it('are refused when they are action messages, superseded, or released by someone without the permission for what they create', () => {
    const { api, tokens } = planned();
    expect(call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0003/release', {}).body.code).toBe('invalid_request');
    expect(call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0003/firm', {}).body.code).toBe('invalid_request');
    expect(call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-009999-0001/release', {}).body.code).toBe('not_found');
    expect(call(api, tokens.nina, 'POST', '/mrp/suggestions/MRP-000001-0001/release', {}).body.code).toBe('forbidden');
    call(api, tokens.owen, 'POST', '/mrp/runs', {});
    const stale = call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0001/release', {});
    expect([stale.body.code, stale.body.detail]).toEqual(['invalid_state', 'MRP-000001-0001 was superseded by a later MRP run; use that run\'s suggestions.']);
    expect(call(api, tokens.nina, 'POST', '/mrp/runs', {}).body.code).toBe('forbidden');
  });

  it('a planned purchase order without a vendor needs one named, and an inactive vendor is refused', () => {
    const { api, tokens } = planned();
    ok(call(api, tokens.owen, 'POST', '/items/BOLT-1/planning', { preferred_vendor: null }), 'planning');
    call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    const bolt = api.read.mrp.suggestionsOf('MRP-000002').find((s) => s.kind === 'planned_po' && s.item === 'BOLT-1')!;
    expect(bolt.vendor).toBeNull();
    expect(call(api, tokens.owen, 'POST', `/mrp/suggestions/${bolt.id}/release`, {}).body.code).toBe('invalid_request');
    expect(call(api, tokens.owen, 'POST', `/mrp/suggestions/${bolt.id}/release`, { vendor: 'V-0200' }).body.code).toBe('vendor_inactive');
    expect(call(api, tokens.owen, 'POST', `/mrp/suggestions/${bolt.id}/release`, { vendor: 'V-0142', unit_price: '0.55' }).body.lines[0].unit_price).toBe(0.55);
  });
});

describe('an action message', () => {
  it('is worked by a vendor request on its PO line, which the vendor answers with a promise date the next run plans with', () => {
    const { api, tokens } = plant();
    call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    const req = call(api, tokens.owen, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'expedite', line: 1, date: '2026-10-09' });
    expect(req.status).toBe(201);
    const message = call(api, tokens.owen, 'GET', '/mrp/suggestions/MRP-000001-0003').body;
    expect(message).toMatchObject({ status: 'requested', request: req.body.id, order: { po: 'PO-000001', line: 1, need_by: '2026-10-20' } });
    expect(message.vendor_requests.map((r: any) => [r.kind, r.status])).toEqual([['expedite', 'pending']]);
    ok(call(api, tokens.vendor, 'POST', `/vendor-requests/${req.body.id}/answer`, { decision: 'accepted', date: '2026-10-09' }), 'answer');
    call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    const body = api.read.mrp.suggestionsOf('MRP-000002').filter((s) => s.item === 'BODY-1').map((s) => [s.kind, s.order_id, s.qty]);
    // PO-000001 now comes on 10-09, when it is needed: no message on it any more.
    expect(body).toEqual([['expedite', 'PO-000002', 15], ['planned_po', null, 5]]);
  });

  it('on a work order is worked by rescheduling the order', () => {
    const { api, tokens } = plant();
    ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'SUB-B', qty: 20, start_date: '2026-10-19', due_date: '2026-10-21' }), 'wo');
    call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    const [msg] = api.read.mrp.suggestionsOf('MRP-000001').filter((s) => s.order_id === 'WO-000001');
    expect([msg!.kind, msg!.need_date, msg!.current_date]).toEqual(['expedite', '2026-10-09', '2026-10-21']);
    ok(call(api, tokens.owen, 'POST', '/work-orders/WO-000001/reschedule', { start_date: '2026-10-07', due_date: '2026-10-09', reason: 'mrp_expedite' }), 'reschedule');
    expect(api.read.mrp.suggestion(msg!.id)!.status).toBe('rescheduled');
  });
});

describe('the planner\'s exceptions report', () => {
  it('lists late and firm planned orders not released, open action messages, items below safety stock and work orders planned past their start', () => {
    const { api, tokens } = plant();
    call(api, tokens.owen, 'POST', '/mrp/runs', { horizon_weeks: 3, defer_days: 3 });
    call(api, tokens.owen, 'POST', '/mrp/suggestions/MRP-000001-0006/release', {});
    const r = call(api, tokens.owen, 'GET', '/reports/mrp-exceptions').body;
    expect(r.late_planned_orders.map((s: any) => s.suggestion)).toEqual(['MRP-000001-0005']);
    expect(r.firm_planned_orders.map((s: any) => s.suggestion)).toEqual(['MRP-000001-0001', 'MRP-000001-0008']);
    expect(r.action_messages.map((s: any) => [s.kind, s.order_id])).toEqual([['expedite', 'PO-000001'], ['expedite', 'PO-000002'], ['defer', 'PO-000003'], ['cancel', 'PO-000004']]);
    expect(r.below_safety_stock).toEqual([]);
    expect(r.overdue_work_orders).toEqual([]);
  });
});
