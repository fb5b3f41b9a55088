import { call } from '../support/erp';
import { ok } from '../support/books-fixture';
import { manufacturingCompany, stockIn } from '../support/manufacturing-fixture';

const gl = (api: any, doc: string) => api.read.ledger.glLinesOf(doc).map((l: any) => [l.account, l.debit, l.credit]);

/**
 * Components in stock at the plant, bought at prices off standard: BODY-1 at $21 (standard $20),
 * BOLT-1 at $0.45 ($0.50), SEAL-1 at $12 and SUB-B at $26 (both at standard).
 */
function stocked() {
  const company = manufacturingCompany();
  const { api, tokens } = company;
  stockIn(api, tokens.rita, 'BODY-1', 10, 21);
  stockIn(api, tokens.rita, 'BOLT-1', 100, '0.45');
  stockIn(api, tokens.rita, 'SEAL-1', 50, 12, { lot: 'L1', expiry: '2027-06-30' });
  stockIn(api, tokens.rita, 'SUB-B', 5, 26);
  return company;
}

function released(qty = 4) {
  const company = stocked();
  const { api, tokens } = company;
  const id = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty }), 'wo').id as string;
  ok(call(api, tokens.nina, 'POST', `/work-orders/${id}/release`, {}), 'release');
  return { ...company, id };
}

describe('a new work order', () => {
  it('takes its components from the BOM in effect on its start date, blowing through the phantom, and its operations from the routing', () => {
    const { api, tokens } = stocked();
    const res = call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 4, start_date: '2026-10-05' });
    expect(res.status).toBe(201);
    // Due the start plus VALVE-A's 3-day lead time.
    expect(res.body).toMatchObject({ id: 'WO-000001', status: 'planned', warehouse: 'WH1', start_date: '2026-10-05', due_date: '2026-10-08', bom_date: '2026-10-05', shortages: [] });
    // BOLT-1: 4 × 1.05 direct and 1 through KIT-P; SEAL-1 only through KIT-P. The phantom itself is never required.
    expect(res.body.components.map((c: any) => [c.item, c.qty_per, c.required, c.via_phantom])).toEqual([
      ['BODY-1', 1, 4, null], ['BOLT-1', 5.2, 20.8, null], ['SEAL-1', 1, 4, 'KIT-P'], ['SUB-B', 1, 4, null],
    ]);
    expect(res.body.operations.map((o: any) => [o.seq, o.work_center, o.setup_hours, o.run_hours_per_unit, o.rate_per_hour])).toEqual([[10, 'ASSY', 1, 0.5, 60], [20, 'TEST', 0, 0.1, 50]]);
  });

  it('is refused for an item without a BOM, a phantom, a missing warehouse, or a due date before its start', () => {
    const { api, tokens } = stocked();
    const create = (body: object) => call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 4, ...body });
    expect([create({ item: 'BODY-1' }).status, create({ item: 'KIT-P' }).status, create({ due_date: '2026-10-01' }).status]).toEqual([422, 422, 422]);
    expect([create({ item: 'NOPE' }).body.code, create({ warehouse: 'WH9' }).body.code]).toEqual(['not_found', 'not_found']);
    expect(call(api, tokens.rita, 'POST', '/work-orders', { item: 'VALVE-A', qty: 1 }).body.code).toBe('forbidden');
  });
});

describe('releasing a work order', () => {
  it('is refused with components_short, naming each, while the warehouse does not hold them all', () => {
    const { api, tokens } = stocked();
    const id = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 6 }), 'wo').id;
    const res = call(api, tokens.nina, 'POST', `/work-orders/${id}/release`, {});
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'components_short', detail: 'WO-000001 cannot be released: SUB-B short 1 (needs 6, 5 available).' });
    expect(api.read.manufacturing.workOrder(id)!.status).toBe('planned');
    expect(call(api, tokens.owen, 'GET', `/work-orders/${id}`).body.shortages).toEqual([{ item: 'SUB-B', needed: 6, available: 5, short: 1 }]);
  });

  it('counts what other released orders still need as taken', () => {
    const { api, tokens } = released(4);
    const second = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 2 }), 'wo').id;
    expect(call(api, tokens.nina, 'POST', `/work-orders/${second}/release`, {}).body.detail).toBe('WO-000002 cannot be released: SUB-B short 1 (needs 2, 1 available).');
  });

  it('moves the order to released; a second release is refused', () => {
    const { api, tokens, id } = released();
    expect(api.read.manufacturing.workOrder(id)).toMatchObject({ status: 'released', released_date: '2026-10-05' });
    expect(call(api, tokens.nina, 'POST', `/work-orders/${id}/release`, {}).body.code).toBe('invalid_state');
  });
});

describe('issuing components', () => {
  it('takes the BOM quantities for the units from stock into WIP at the stock\'s cost: Dr WIP, Cr inventory', () => {
    const { api, tokens, id } = released();
    const res = call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    expect(res.status).toBe(201);
    expect(res.body.lines.map((l: any) => [l.item, l.qty, l.value])).toEqual([['BODY-1', 4, 84], ['BOLT-1', 20.8, 9.36], ['SEAL-1', 4, 48], ['SUB-B', 4, 104]]);
    expect(res.body.transactions.map((t: any) => [t.type, t.item, t.lot, t.qty])).toEqual([['wo_issue', 'BODY-1', null, -4], ['wo_issue', 'BOLT-1', null, -20.8], ['wo_issue', 'SEAL-1', 'L1', -4], ['wo_issue', 'SUB-B', null, -4]]);
    expect(gl(api, 'WOI-000001')).toEqual([['1300', 0, 8400], ['1300', 0, 936], ['1300', 0, 4800], ['1300', 0, 10400]]);
    expect(gl(api, id)).toEqual([['1310', 24536, 0]]);
    expect(api.read.manufacturing.workOrder(id)).toMatchObject({ status: 'in_progress', material_issued: 24536, wip_balance: 24536 });
    expect(api.read.manufacturing.wipAsOf('2026-10-05')).toBe(24536);
  });

  it('issues named lines, and is refused on a planned order, with both or neither of lines and units, an item twice, or beyond stock', () => {
    const { api, tokens, id } = released();
    const issue = (body: object) => call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, body);
    expect(issue({ lines: [{ item: 'BODY-1', qty: 2, location: 'A1' }] }).body.lines).toEqual([{ line: 1, item: 'BODY-1', qty: 2, value: 42, status: 'posted' }]);
    expect([issue({}).status, issue({ units: 1, lines: [{ item: 'BODY-1', qty: 1 }] }).status]).toEqual([422, 422]);
    expect(issue({ lines: [{ item: 'BODY-1', qty: 1 }, { item: 'BODY-1', qty: 1 }] }).status).toBe(422);
    expect(issue({ lines: [{ item: 'BODY-1', qty: 99 }] }).body.detail).toBe('Only 8 of BODY-1 is on hand at WH1; 99 was asked for.');
    expect(issue({ units: 1, date: '2026-09-30' }).body.code).toBe('period_closed');
    const planned = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 1 }), 'wo').id;
    expect(call(api, tokens.nina, 'POST', `/work-orders/${planned}/issues`, { units: 1 }).body.code).toBe('invalid_state');
  });
});

describe('reversing a wrong issue', () => {
  it('puts the stock back where it came from at the value it left with: Dr inventory, Cr WIP', () => {
    const { api, tokens, id } = released();
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { lines: [{ item: 'BODY-1', qty: 4 }] });
    const res = call(api, tokens.nina, 'POST', '/wo-issues/WOI-000002/reverse', { reason: 'issued_twice' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'WOR-000001', kind: 'reversal', reverses: 'WOI-000002', lines: [{ line: 1, item: 'BODY-1', qty: -4, value: -84 }] });
    expect(res.body.transactions.map((t: any) => [t.type, t.location, t.qty, t.value])).toEqual([['wo_issue_reversal', 'A1', 4, 84]]);
    expect(gl(api, 'WOR-000001')).toEqual([['1300', 8400, 0]]);
    expect(api.read.inventory.onHand('BODY-1')).toBe(6);
    expect(api.read.manufacturing.workOrder(id)!.material_issued).toBe(24536);
    expect(api.read.manufacturing.components(id).find((c) => c.item === 'BODY-1')!.issued).toBe(4);
    expect(call(api, tokens.nina, 'GET', '/wo-issues/WOI-000002').body).toMatchObject({ lines: [{ status: 'reversed' }], reversals: ['WOR-000001'] });
  });

  it('reverses only the lines named, and is refused for a line already reversed, a reversal, or a closed order', () => {
    const { api, tokens, id } = released();
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    const reverse = (issue: string, body: object = {}) => call(api, tokens.nina, 'POST', `/wo-issues/${issue}/reverse`, { reason: 'wrong_item', ...body });
    expect(reverse('WOI-000001', { lines: [2] }).body.lines.map((l: any) => l.item)).toEqual(['BOLT-1']);
    expect(reverse('WOI-000001', { lines: [2] }).body.code).toBe('invalid_state');
    expect(reverse('WOI-000001', { lines: [9] }).body.code).toBe('not_found');
    expect(reverse('WOR-000001').status).toBe(422);
    expect(reverse('WOI-000404').body.code).toBe('not_found');
    call(api, tokens.nina, 'POST', `/work-orders/${id}/completions`, { qty: 4 });
    call(api, tokens.nina, 'POST', `/work-orders/${id}/close`, {});
    expect(reverse('WOI-000001', { lines: [1] }).body.code).toBe('invalid_state');
  });
});

describe('completing and closing', () => {
  it('receives good units at standard, writes scrap off at standard, applies labour and overhead, and closes the rest of WIP to variances', () => {
    const { api, tokens, id } = released();
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    const done = call(api, tokens.nina, 'POST', `/work-orders/${id}/completions`, { qty: 3, scrap_qty: 1, scrap_reason: 'leak_test' });
    expect(done.status).toBe(201);
    // ASSY: setup 1 h + 0.5 h × 4 = 3 h at $60; TEST 0.1 h × 4 = 0.4 h at $50: $200 applied.
    expect(done.body).toMatchObject({ id: 'WOC-000001', qty: 3, scrap_qty: 1, location: 'B1', hours: [{ seq: 10, hours: 3 }, { seq: 20, hours: 0.4 }], conversion_value: 200, completed_value: 300, scrap_value: 100 });
    expect(gl(api, id)).toEqual([['1310', 24536, 0], ['1310', 20000, 0], ['5400', 0, 20000], ['5300', 10000, 0], ['1310', 0, 40000]]);
    expect(gl(api, 'WOC-000001')).toEqual([['1300', 30000, 0]]);
    expect(api.read.inventory.stock({ item: 'VALVE-A' })).toEqual([{ item: 'VALVE-A', warehouse: 'WH1', location: 'B1', lot: null, expiry: null, qty: 3, value: 30000 }]);
    expect(api.read.manufacturing.workOrder(id)).toMatchObject({ status: 'completed', qty_completed: 3, qty_scrapped: 1, wip_balance: 4536 });

    const closed = call(api, tokens.nina, 'POST', `/work-orders/${id}/close`, {});
    // Standard material for 4 units: 4 × (20 + 5.2 × 0.50 + 12 + 26) = 242.40 against 245.36 issued: 2.96 over.
    // Conversion 200.00 at standard against 200.00 applied. The order's own standard (60.60 + 50.00 a unit)
    // is 10.60 a unit above VALVE-A's 100.00: 42.40 more, with the material variance.
    expect(closed.body).toMatchObject({
      status: 'closed', material_standard: 242.4, material_variance: 2.96, conversion_standard: 200, conversion_variance: 0, standard_difference: 42.4, variance: 45.36, wip_balance: 0,
    });
    expect(gl(api, id).slice(-2)).toEqual([['5120', 4536, 0], ['1310', 0, 4536]]);
    expect(api.read.manufacturing.wipAsOf('2026-10-05')).toBe(0);
    expect(call(api, tokens.ava, 'GET', '/reports/production-variances').body.rows).toEqual([{
      work_order: id, item: 'VALVE-A', closed_date: '2026-10-05', qty: 4, qty_completed: 3, qty_scrapped: 1, material_standard: 242.4, material_actual: 245.36, material_variance: 2.96,
      conversion_standard: 200, conversion_applied: 200, conversion_variance: 0, standard_difference: 42.4, total_variance: 45.36,
    }]);
    expect(call(api, tokens.ava, 'GET', '/reports/production-variances', undefined, { query: { from: '2026-11' } }).body.rows).toEqual([]);
    expect(call(api, tokens.ava, 'GET', '/wo-completions/WOC-000001').body.transactions.map((t: any) => [t.type, t.qty, t.value])).toEqual([['wo_completion', 3, 300]]);
  });

  it('applies the hours reported instead of standard, and posts the difference as a labour and overhead variance', () => {
    const { api, tokens, id } = released();
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    expect(call(api, tokens.nina, 'POST', `/work-orders/${id}/completions`, { qty: 4, hours: [{ seq: 10, hours: 4 }] }).body.conversion_value).toBe(260);
    // WIP left: 245.36 + 260 − 400 = 105.36: 60.00 of labour and overhead over standard, the rest material (2.96 + 42.40 as above).
    expect(call(api, tokens.nina, 'POST', `/work-orders/${id}/close`, {}).body).toMatchObject({ conversion_standard: 200, conversion_variance: 60 });
    expect(gl(api, id).slice(-3)).toEqual([['5120', 4536, 0], ['5130', 6000, 0], ['1310', 0, 10536]]);
  });

  it('is refused beyond the order, without a scrap reason, for an unknown operation, for nothing, and on a planned order', () => {
    const { api, tokens, id } = released();
    const complete = (body: object) => call(api, tokens.nina, 'POST', `/work-orders/${id}/completions`, { qty: 0, ...body });
    expect(complete({ qty: 3, scrap_qty: 2, scrap_reason: 'leak_test' }).body).toMatchObject({ code: 'over_completion', detail: 'WO-000001 has 4 of 4 left to report; 5 is more.' });
    expect([complete({ scrap_qty: 1 }).status, complete({}).status]).toEqual([422, 422]);
    expect(complete({ qty: 1, hours: [{ seq: 30, hours: 1 }] }).body.code).toBe('not_found');
    const planned = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 1 }), 'wo').id;
    expect(call(api, tokens.nina, 'POST', `/work-orders/${planned}/completions`, { qty: 1 }).body.code).toBe('invalid_state');
  });

  it('closes short with a reason only, and sends an order with nothing done to cancellation', () => {
    const { api, tokens, id } = released();
    expect(call(api, tokens.nina, 'POST', `/work-orders/${id}/close`, {}).body.detail).toBe('WO-000001 has nothing issued or reported; cancel it instead.');
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    call(api, tokens.nina, 'POST', `/work-orders/${id}/completions`, { qty: 2 });
    expect(call(api, tokens.nina, 'POST', `/work-orders/${id}/close`, {}).status).toBe(422);
    expect(call(api, tokens.nina, 'POST', `/work-orders/${id}/close`, { reason: 'demand_cancelled' }).body).toMatchObject({ status: 'closed', qty_completed: 2, material_standard: 121.2 });
    expect(call(api, tokens.owen, 'POST', `/work-orders/${id}/cancel`, { reason: 'x' }).body.code).toBe('invalid_state');
  });
});

describe('cancelling and rescheduling', () => {
  it('cancels an order nothing was issued to; refuses one with issues', () => {
    const { api, tokens, id } = released();
    const other = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'SUB-B', qty: 5 }), 'wo').id;
    expect(call(api, tokens.owen, 'POST', `/work-orders/${other}/cancel`, { reason: 'demand_cancelled' }).body.status).toBe('cancelled');
    const list = (query: Record<string, unknown>) => call(api, tokens.ava, 'GET', '/work-orders', undefined, { query }).body;
    expect([list({ status: 'cancelled' }).items.map((w: any) => w.id), list({ item: 'VALVE-A' }).total]).toEqual([[other], 1]);
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 1 });
    expect(call(api, tokens.owen, 'POST', `/work-orders/${id}/cancel`, { reason: 'x' }).body.code).toBe('invalid_state');
  });

  it('moves an open order\'s dates with a reason, kept in its status history', () => {
    const { api, tokens, id } = released();
    const res = call(api, tokens.owen, 'POST', `/work-orders/${id}/reschedule`, { due_date: '2026-10-15', reason: 'customer_delay' });
    expect(res.body).toMatchObject({ start_date: '2026-10-05', due_date: '2026-10-15', status: 'released' });
    expect(res.body.status_history.at(-1)).toMatchObject({ status: 'released', reason: 'customer_delay' });
    expect(call(api, tokens.owen, 'POST', `/work-orders/${id}/reschedule`, { reason: 'x' }).status).toBe(422);
    expect(call(api, tokens.owen, 'POST', `/work-orders/${id}/reschedule`, { due_date: '2026-10-01', reason: 'x' }).status).toBe(422);
  });
});

describe('the books of production', () => {
  it('tie WIP and inventory to their subledgers, and item usage counts work-order issues net of reversals', () => {
    const { api, tokens, id } = released();
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { units: 4 });
    call(api, tokens.nina, 'POST', `/work-orders/${id}/issues`, { lines: [{ item: 'BODY-1', qty: 4 }] });
    call(api, tokens.nina, 'POST', '/wo-issues/WOI-000002/reverse', { reason: 'issued_twice' });
    call(api, tokens.nina, 'POST', `/work-orders/${id}/completions`, { qty: 2 });
    const ties = call(api, tokens.grace, 'GET', '/reports/control-ties').body;
    expect(ties.rows.filter((r: any) => ['1300', '1310'].includes(r.account)).map((r: any) => [r.account, r.gl_balance, r.subledger_balance, r.tied])).toEqual([
      // Stock in 985.00, out to WIP 245.36 (the twice-issued bodies back), back from it 2 valves at 100.00.
      ['1300', 939.64, 939.64, true],
      // In: 245.36 of material and 130.00 of conversion (setup 1 h + 2 × 0.5 h at 60, 2 × 0.1 h at 50); out: 200.00.
      ['1310', 175.36, 175.36, true],
    ]);
    const wip = call(api, tokens.ava, 'GET', '/reports/wip').body;
    expect(wip).toMatchObject({ total: 175.36, rows: [{ work_order: id, material: 245.36, conversion: 130, completed: -200, balance: 175.36 }] });
    const usage = call(api, tokens.ava, 'GET', '/reports/item-usage', undefined, { query: { item: 'BODY-1', from: '2026-10', to: '2026-10' } }).body;
    expect(usage.rows[0]).toMatchObject({ item: 'BODY-1', total_qty: 4, total_value: 84 });
  });
});
