import { call } from '../support/erp';
import { ok } from '../support/books-fixture';
import { manufacturingCompany } from '../support/manufacturing-fixture';
import { advanceTo } from '../support/books-fixture';

describe('a bill of materials', () => {
  it('is shown on a date with every line, its explosion through the phantom and its standard roll-up', () => {
    const { api, tokens } = manufacturingCompany();
    const bom = call(api, tokens.owen, 'GET', '/boms/VALVE-A').body;
    expect(bom).toMatchObject({ item: 'VALVE-A', phantom: false, date: '2026-10-05' });
    expect(bom.lines.map((l: any) => [l.line, l.component, l.qty_per, l.scrap_pct, l.effective_from, l.effective_to, l.in_effect])).toEqual([
      [1, 'BODY-1', 1, 0, '2026-10-05', null, true], [2, 'SUB-B', 1, 0, '2026-10-05', null, true], [3, 'KIT-P', 1, 0, '2026-10-05', null, true], [4, 'BOLT-1', 4, 5, '2026-10-05', null, true],
    ]);
    expect(bom.exploded_per_unit).toEqual([{ item: 'BODY-1', qty_per: 1, via_phantom: null }, { item: 'BOLT-1', qty_per: 5.2, via_phantom: null }, { item: 'SEAL-1', qty_per: 1, via_phantom: 'KIT-P' }, { item: 'SUB-B', qty_per: 1, via_phantom: null }]);
    // Material 20 + 5.2 × 0.50 + 12 + 26 = 60.60; conversion (1 h setup over a lot of 1 + 0.5 h) × 60 + 0.1 h × 50 = 95.00.
    expect(bom.standard_rollup).toEqual({ material: 60.6, conversion: 95, total: 155.6, lot_size: 1 });
    expect(call(api, tokens.owen, 'GET', '/boms/KIT-P').body.phantom).toBe(true);
    expect(call(api, tokens.owen, 'GET', '/boms').body.total).toBe(3);
    expect(call(api, tokens.owen, 'GET', '/boms/BODY-1').status).toBe(404);
  });

  it('is refused for a missing or non-stock parent or component, a second BOM, a cycle, a component twice at once, bad scrap or dates', () => {
    const { api, tokens } = manufacturingCompany();
    const define = (body: object) => call(api, tokens.owen, 'POST', '/boms', { item: 'BODY-1', lines: [{ component: 'BOLT-1', qty_per: 1 }], ...body });
    expect(define({ item: 'NOPE' }).body.code).toBe('not_found');
    expect(define({ item: 'CAL-SVC' }).status).toBe(422);
    expect(define({ lines: [{ component: 'CAL-SVC', qty_per: 1 }] }).status).toBe(422);
    expect(define({ item: 'VALVE-A' }).body.code).toBe('already_exists');
    expect(define({ lines: [{ component: 'BODY-1', qty_per: 1 }] }).body.detail).toBe('Line 1: BODY-1 cannot be a component of itself.');
    expect(define({ item: 'BOLT-1', lines: [{ component: 'VALVE-A', qty_per: 1 }] }).body.detail).toBe('Line 1: VALVE-A already uses BOLT-1 in its own bill of materials; the BOM would be a cycle.');
    expect(define({ lines: [{ component: 'BOLT-1', qty_per: 1 }, { component: 'BOLT-1', qty_per: 2, effective_from: '2026-11-01' }] }).status).toBe(422);
    expect(define({ lines: [{ component: 'BOLT-1', qty_per: 1, scrap_pct: 2.555 }] }).body.detail).toBe('Line 1: scrap_pct has at most two decimals.');
    expect(define({ lines: [{ component: 'BOLT-1', qty_per: 1, effective_from: '2026-11-01', effective_to: '2026-10-01' }] }).status).toBe(422);
    expect(define({ lines: [{ component: 'BOLT-1', qty_per: 0 }] }).status).toBe(400);
    expect(call(api, tokens.nina, 'POST', '/boms', { item: 'BODY-1', lines: [{ component: 'BOLT-1', qty_per: 1 }] }).body.code).toBe('forbidden');
    // Two lines of one component on dates that do not overlap are a change over time, not a clash.
    expect(define({ lines: [{ component: 'BOLT-1', qty_per: 1, effective_to: '2026-10-31' }, { component: 'BOLT-1', qty_per: 2, effective_from: '2026-11-01' }] }).status).toBe(201);
  });
});

describe('an engineering change', () => {
  it('is pending until its date, then the BOM uses the new component; work orders starting before keep the old one', () => {
    const { api, tokens } = manufacturingCompany();
    const res = call(api, tokens.owen, 'POST', '/boms/SUB-B/changes', {
      effective_date: '2026-10-12', reason: 'material_change', remove: ['SEAL-1'], add: [{ component: 'SEAL-1X', qty_per: 2, scrap_pct: 1 }], note: 'ECN 26-017',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'ECN-000001', item: 'SUB-B', ended_lines: [1], ended_on: '2026-10-11', pending: true, added_lines: [{ line: 3, component: 'SEAL-1X', qty_per: 2, scrap_bp: 100, effective_from: '2026-10-12', effective_to: null }] });
    const on = (date: string) => call(api, tokens.owen, 'GET', '/boms/SUB-B', undefined, { query: { date } }).body.exploded_per_unit.map((r: any) => [r.item, r.qty_per]);
    expect(on('2026-10-09')).toEqual([['BOLT-1', 2], ['SEAL-1', 2]]);
    expect(on('2026-10-12')).toEqual([['BOLT-1', 2], ['SEAL-1X', 2.02]]);
    const before = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'SUB-B', qty: 10, start_date: '2026-10-09' }), 'wo');
    const after = ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'SUB-B', qty: 10, start_date: '2026-10-12' }), 'wo');
    expect([before.components.map((c: any) => c.item), after.components.map((c: any) => c.item)]).toEqual([['BOLT-1', 'SEAL-1'], ['BOLT-1', 'SEAL-1X']]);
    expect(call(api, tokens.owen, 'GET', '/boms/SUB-B').body.engineering_changes.map((c: any) => [c.id, c.pending])).toEqual([['ECN-000001', true]]);
  });

  it('is refused for a past date, with nothing in it, for a component with no line in effect, or a BOM that does not exist', () => {
    const { api, tokens } = manufacturingCompany();
    const change = (body: object, item = 'SUB-B') => call(api, tokens.owen, 'POST', `/boms/${item}/changes`, { effective_date: '2026-10-12', reason: 'material_change', ...body });
    expect(change({ effective_date: '2026-10-02', remove: ['SEAL-1'] }).status).toBe(422);
    expect(change({}).status).toBe(422);
    expect(change({ remove: ['BODY-1'] }).status).toBe(422);
    expect(change({ add: [{ component: 'SEAL-1', qty_per: 1 }] }).status).toBe(422);
    expect(change({ remove: ['SEAL-1'] }, 'BODY-1').body.code).toBe('not_found');
  });
});

describe('work centers, routings and the plant calendar', () => {
  it('define capacity and rates; a routing needs a made, non-phantom item, known work centers and distinct steps', () => {
    const { api, tokens } = manufacturingCompany();
    expect(call(api, tokens.owen, 'GET', '/work-centers/ASSY').body).toMatchObject({ id: 'ASSY', capacity_hours_per_day: 16, rate_per_hour: 60 });
    expect(call(api, tokens.owen, 'GET', '/routings/VALVE-A').body.operations.map((o: any) => o.seq)).toEqual([10, 20]);
    const route = (body: object) => call(api, tokens.owen, 'POST', '/routings', { item: 'SUB-B', operations: [{ seq: 10, work_center: 'ASSY', run_hours_per_unit: 0.1 }], ...body });
    expect(route({ item: 'BODY-1' }).status).toBe(422);
    expect(route({ item: 'KIT-P' }).status).toBe(422);
    expect(route({ operations: [{ seq: 10, work_center: 'PAINT', run_hours_per_unit: 1 }] }).body.code).toBe('not_found');
    expect(route({ operations: [{ seq: 10, work_center: 'ASSY', run_hours_per_unit: 1 }, { seq: 10, work_center: 'TEST', run_hours_per_unit: 1 }] }).status).toBe(422);
    expect(route({}).body.operations).toEqual([{ item: 'SUB-B', seq: 10, work_center: 'ASSY', description: '', setup_hours: 0, run_hours_per_unit: 0.1 }]);
    expect(call(api, tokens.owen, 'POST', '/work-centers', { id: 'X', name: 'X', capacity_hours_per_day: 8, rate_per_hour: -1 }).status).toBe(422);
  });

  it('closes days for the plant or one work center, and a work order due on a closed day moves to the next working one', () => {
    const { api, tokens } = manufacturingCompany();
    expect(call(api, tokens.owen, 'POST', '/plant-calendar/shutdowns', { from: '2026-10-07', to: '2026-10-08', reason: 'maintenance' }).body.id).toBe('PSD-000001');
    call(api, tokens.owen, 'POST', '/plant-calendar/shutdowns', { from: '2026-10-09', to: '2026-10-09', work_center: 'TEST', reason: 'calibration' });
    const cal = call(api, tokens.owen, 'GET', '/plant-calendar', undefined, { query: { from: '2026-10-06', to: '2026-10-10' } }).body;
    expect(cal.days.map((d: any) => [d.date, d.working, d.hours.ASSY, d.hours.TEST])).toEqual([
      ['2026-10-06', true, 16, 8], ['2026-10-07', false, 0, 0], ['2026-10-08', false, 0, 0], ['2026-10-09', true, 16, 0], ['2026-10-10', false, 0, 0],
    ]);
    // Start 10-05 plus 3 days is the 8th, closed: due the 9th.
    expect(ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 1 }), 'wo').due_date).toBe('2026-10-09');
    expect(call(api, tokens.owen, 'POST', '/plant-calendar/shutdowns', { from: '2026-10-09', to: '2026-10-01', reason: 'x' }).status).toBe(422);
    expect(call(api, tokens.owen, 'POST', '/plant-calendar/shutdowns', { from: '2026-10-09', to: '2026-10-09', work_center: 'NOPE', reason: 'x' }).body.code).toBe('not_found');
    expect(call(api, tokens.owen, 'POST', '/plant-settings', { warehouse: 'WH1', completion_location: 'ZZ' }).body.code).toBe('not_found');
  });

  it('loads open work orders\' remaining hours onto the working days between their start and due dates', () => {
    const { api, tokens } = manufacturingCompany();
    ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'VALVE-A', qty: 60, start_date: '2026-10-05', due_date: '2026-10-06' }), 'wo');
    const load = call(api, tokens.owen, 'GET', '/reports/capacity-load', undefined, { query: { from: '2026-10-05', to: '2026-10-07', work_center: 'ASSY' } }).body;
    // ASSY: 1 h setup + 60 × 0.5 h = 31 h over two days: 15.5 h a day against 16.
    expect(load.rows).toEqual([
      { work_center: 'ASSY', date: '2026-10-05', capacity_hours: 16, load_hours: 15.5, overloaded: false, work_orders: ['WO-000001'] },
      { work_center: 'ASSY', date: '2026-10-06', capacity_hours: 16, load_hours: 15.5, overloaded: false, work_orders: ['WO-000001'] },
      { work_center: 'ASSY', date: '2026-10-07', capacity_hours: 16, load_hours: 0, overloaded: false, work_orders: [] },
    ]);
    ok(call(api, tokens.owen, 'POST', '/work-orders', { item: 'SUB-B', qty: 20, start_date: '2026-10-06', due_date: '2026-10-06' }), 'wo');
    const more = call(api, tokens.owen, 'GET', '/reports/capacity-load', undefined, { query: { from: '2026-10-06', to: '2026-10-06', work_center: 'ASSY' } }).body;
    expect(more).toMatchObject({ overloaded_days: 1, rows: [{ load_hours: 19.5, overloaded: true, work_orders: ['WO-000001', 'WO-000002'] }] });
  });
});

describe('forecasts', () => {
  it('are set per Monday week and replace what those weeks had; a phantom, a service or a Tuesday is refused', () => {
    const { api, tokens } = manufacturingCompany();
    const set = (body: object) => call(api, tokens.owen, 'POST', '/forecasts', { item: 'VALVE-A', weeks: [{ week_start: '2026-10-12', qty: 25 }], ...body });
    expect(set({}).status).toBe(200);
    expect(set({ weeks: [{ week_start: '2026-10-12', qty: 30 }, { week_start: '2026-10-19', qty: 10 }] }).body.weeks.map((w: any) => [w.week_start, w.qty])).toEqual([['2026-10-12', 30], ['2026-10-19', 10]]);
    expect(set({ weeks: [{ week_start: '2026-10-13', qty: 1 }] }).status).toBe(422);
    expect(set({ weeks: [{ week_start: '2026-10-12', qty: 1 }, { week_start: '2026-10-12', qty: 2 }] }).status).toBe(422);
    expect([set({ item: 'KIT-P' }).status, set({ item: 'CAL-SVC' }).status, set({ item: 'NOPE' }).status]).toEqual([422, 422, 404]);
    expect(call(api, tokens.nina, 'POST', '/forecasts', { item: 'VALVE-A', weeks: [{ week_start: '2026-10-12', qty: 1 }] }).body.code).toBe('forbidden');
    expect(call(api, tokens.owen, 'GET', '/forecasts', undefined, { query: { from: '2026-10-19' } }).body.items.map((f: any) => f.week_start)).toEqual(['2026-10-19']);
  });
});

describe('planning data on the item record', () => {
  it('takes safety stock with the lead time, under the item.plan permission', () => {
    const { api, tokens } = manufacturingCompany();
    const res = call(api, tokens.owen, 'POST', '/items/BODY-1/planning', { lead_time_days: 21, safety_stock: 12, source: 'MSG-000004' });
    expect(res.body).toMatchObject({ lead_time_days: 21, safety_stock: 12 });
    expect(call(api, tokens.nina, 'POST', '/items/BODY-1/planning', { safety_stock: 1 }).body.code).toBe('forbidden');
    advanceTo(api, '2026-10-06');
    expect(api.read.items.item('BODY-1')!.safety_stock).toBe(12);
  });
});
