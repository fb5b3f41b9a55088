import { call, openTestErp } from '../support/erp';
import { seedBooks, seedVendor } from '../support/books-fixture';

const VALVE = {
  id: 'BV-100', description: 'Brass ball valve 1"', type: 'stock', unit: 'ea', category: 'valves', standard_cost: '12.40',
  preferred_vendor: 'V-0142', lead_time_days: 14, order_multiple: 10, moq: 50, inventory_account: '1300', expense_account: '5000',
};
const GASKET = { id: 'GS-200', description: 'EPDM gasket 1"', type: 'stock', unit: 'ea', inventory_account: '1300', lot_controlled: true, shelf_life_days: 730 };

function catalog() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  seedVendor(api);
  seedVendor(api, 'V-0143', 'Allied Fittings');
  return { erp, api, tokens };
}

describe('a company with vendors and no items', () => {
  it('creates a stock item with its cost as a decimal and its planning data', () => {
    const { api, tokens } = catalog();
    const res = call(api, tokens.hannah, 'POST', '/items', VALVE);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'BV-100', standard_cost: 12.4, lead_time_days: 14, order_multiple: 10, moq: 50, preferred_vendor: 'V-0142', status: 'active', lot_controlled: false });
    expect(api.read.items.item('BV-100')!.standard_cost).toBe(1240);
  });

  it('defaults a lot-controlled item\'s planning data', () => {
    const { api, tokens } = catalog();
    expect(call(api, tokens.hannah, 'POST', '/items', GASKET).body).toMatchObject({ lot_controlled: true, shelf_life_days: 730, lead_time_days: 0, order_multiple: 1, moq: 0, preferred_vendor: null });
  });

  it('refuses a stock item without an inventory account', () => {
    const { api, tokens } = catalog();
    const res = call(api, tokens.hannah, 'POST', '/items', { ...VALVE, inventory_account: undefined });
    expect([res.status, res.body.code]).toEqual([422, 'invalid_request']);
  });

  it('refuses an unknown preferred vendor or account', () => {
    const { api, tokens } = catalog();
    expect(call(api, tokens.hannah, 'POST', '/items', { ...VALVE, preferred_vendor: 'V-0999' }).body.code).toBe('not_found');
    expect(call(api, tokens.hannah, 'POST', '/items', { ...VALVE, expense_account: '5999' }).body.code).toBe('not_found');
  });

  it('refuses an item id that exists', () => {
    const { api, tokens } = catalog();
    call(api, tokens.hannah, 'POST', '/items', VALVE);
    expect(call(api, tokens.hannah, 'POST', '/items', VALVE).body.code).toBe('already_exists');
  });

  it('refuses a cost with three decimals', () => {
    const { api, tokens } = catalog();
    expect(call(api, tokens.hannah, 'POST', '/items', { ...VALVE, standard_cost: '12.405' }).status).toBe(400);
  });

  it('refuses item creation to a user without master_data.manage', () => {
    const { api, tokens } = catalog();
    expect(call(api, tokens.sam, 'POST', '/items', VALVE).body.code).toBe('forbidden');
  });
});

describe('an item with planning data', () => {
  function withItems() {
    const c = catalog();
    call(c.api, c.tokens.hannah, 'POST', '/items', VALVE);
    call(c.api, c.tokens.hannah, 'POST', '/items', GASKET);
    return c;
  }

  it('updates the lead time from a vendor note, keeping the other planning data', () => {
    const { api, tokens } = withItems();
    const res = call(api, tokens.hannah, 'POST', '/items/BV-100/planning', { lead_time_days: 21, source: 'MSG-4410' });
    expect(res.body).toMatchObject({ lead_time_days: 21, order_multiple: 10, moq: 50, preferred_vendor: 'V-0142' });
  });

  it('clears the preferred vendor with null', () => {
    const { api, tokens } = withItems();
    expect(call(api, tokens.hannah, 'POST', '/items/BV-100/planning', { preferred_vendor: null }).body.preferred_vendor).toBeNull();
  });

  it('refuses an update that names no planning field', () => {
    const { api, tokens } = withItems();
    expect(call(api, tokens.hannah, 'POST', '/items/BV-100/planning', { note: 'nothing' }).body.code).toBe('invalid_request');
  });

  it('refuses an order multiple of zero, an unknown item and an unknown vendor', () => {
    const { api, tokens } = withItems();
    expect(call(api, tokens.hannah, 'POST', '/items/BV-100/planning', { order_multiple: 0 }).status).toBe(400);
    expect(call(api, tokens.hannah, 'POST', '/items/XX-1/planning', { moq: 5 }).body.code).toBe('not_found');
    expect(call(api, tokens.hannah, 'POST', '/items/BV-100/planning', { preferred_vendor: 'V-0999' }).body.code).toBe('not_found');
  });

  it('lists items by preferred vendor', () => {
    const { api, tokens } = withItems();
    expect(call(api, tokens.sam, 'GET', '/items', undefined, { query: { preferred_vendor: 'V-0142' } }).body.items.map((i: any) => i.id)).toEqual(['BV-100']);
  });
});

describe('warehouses and locations', () => {
  it('creates a warehouse and its locations, and shows them together', () => {
    const { api, tokens } = catalog();
    expect(call(api, tokens.hannah, 'POST', '/warehouses', { id: 'WH-E', name: 'East', region: 'east' }).status).toBe(201);
    call(api, tokens.hannah, 'POST', '/warehouses/WH-E/locations', { code: 'A-01' });
    const res = call(api, tokens.hannah, 'POST', '/warehouses/WH-E/locations', { code: 'A-02', description: 'Bulk' });
    expect(res.body.locations.map((l: any) => l.code)).toEqual(['A-01', 'A-02']);
  });

  it('refuses a duplicate warehouse, a duplicate location and a location in no warehouse', () => {
    const { api, tokens } = catalog();
    call(api, tokens.hannah, 'POST', '/warehouses', { id: 'WH-E', name: 'East', region: 'east' });
    call(api, tokens.hannah, 'POST', '/warehouses/WH-E/locations', { code: 'A-01' });
    expect(call(api, tokens.hannah, 'POST', '/warehouses', { id: 'WH-E', name: 'East', region: 'east' }).body.code).toBe('already_exists');
    expect(call(api, tokens.hannah, 'POST', '/warehouses/WH-E/locations', { code: 'A-01' }).body.code).toBe('already_exists');
    expect(call(api, tokens.hannah, 'POST', '/warehouses/WH-X/locations', { code: 'A-01' }).body.code).toBe('not_found');
  });
});

describe('price agreements with quantity breaks', () => {
  function withAgreements() {
    const c = catalog();
    call(c.api, c.tokens.hannah, 'POST', '/items', VALVE);
    const first = call(c.api, c.tokens.hannah, 'POST', '/price-agreements', {
      vendor: 'V-0142', item: 'BV-100', valid_from: '2026-01-01', valid_to: '2026-10-31',
      breaks: [{ min_qty: 100, unit_price: '11.50' }, { min_qty: 1, unit_price: '12.00' }, { min_qty: 500, unit_price: 10.75 }],
    });
    const increase = call(c.api, c.tokens.hannah, 'POST', '/price-agreements', {
      vendor: 'V-0142', item: 'BV-100', valid_from: '2026-11-01', breaks: [{ min_qty: 1, unit_price: '12.60' }], reference: 'price notice MSG-5001',
    });
    return { ...c, first, increase };
  }

  it('stores breaks in quantity order with decimal prices shown', () => {
    const { first } = withAgreements();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: 'PA-000001', breaks: [{ min_qty: 1, unit_price: 12 }, { min_qty: 100, unit_price: 11.5 }, { min_qty: 500, unit_price: 10.75 }] });
  });

  it('prices a quantity at the highest break it reaches on the date', () => {
    const { api } = withAgreements();
    expect(api.read.items.priceFor('V-0142', 'BV-100', 99, '2026-10-05')).toEqual({ agreement: 'PA-000001', unit_price: 1200, min_qty: 1 });
    expect(api.read.items.priceFor('V-0142', 'BV-100', 100, '2026-10-05')!.unit_price).toBe(1150);
    expect(api.read.items.priceFor('V-0142', 'BV-100', 800, '2026-10-31')!.unit_price).toBe(1075);
  });

  it('prices by the agreement in effect: the increase from the first of November', () => {
    const { api } = withAgreements();
    expect(api.read.items.priceFor('V-0142', 'BV-100', 800, '2026-11-01')).toEqual({ agreement: 'PA-000002', unit_price: 1260, min_qty: 1 });
  });

  it('has no price before any agreement, for another vendor, or below the first break', () => {
    const { api, tokens } = withAgreements();
    expect(api.read.items.priceFor('V-0142', 'BV-100', 10, '2025-12-31')).toBeUndefined();
    expect(api.read.items.priceFor('V-0143', 'BV-100', 10, '2026-10-05')).toBeUndefined();
    expect(api.read.items.priceFor('V-0142', 'BV-100', 0.5, '2026-10-05')).toBeUndefined();
    const res = call(api, tokens.sam, 'GET', '/prices', undefined, { query: { vendor: 'V-0143', item: 'BV-100', qty: '10' } });
    expect(res.body).toMatchObject({ unit_price: null, agreement: null, date: '2026-10-05' });
  });

  it('answers the agreed price and extension through GET /prices', () => {
    const { api, tokens } = withAgreements();
    const res = call(api, tokens.sam, 'GET', '/prices', undefined, { query: { vendor: 'V-0142', item: 'BV-100', qty: '120', date: '2026-10-05' } });
    expect(res.body).toMatchObject({ agreement: 'PA-000001', unit_price: 11.5, extended: 1380, min_qty: 100 });
  });

  it('refuses two breaks at one quantity, an end before the start, and an unknown item', () => {
    const { api, tokens } = withAgreements();
    const base = { vendor: 'V-0142', item: 'BV-100', valid_from: '2026-12-01' };
    expect(call(api, tokens.hannah, 'POST', '/price-agreements', { ...base, breaks: [{ min_qty: 1, unit_price: 1 }, { min_qty: 1, unit_price: 2 }] }).body.code).toBe('invalid_request');
    expect(call(api, tokens.hannah, 'POST', '/price-agreements', { ...base, valid_to: '2026-11-01', breaks: [{ min_qty: 1, unit_price: 1 }] }).body.code).toBe('invalid_request');
    expect(call(api, tokens.hannah, 'POST', '/price-agreements', { ...base, item: 'XX', breaks: [{ min_qty: 1, unit_price: 1 }] }).body.code).toBe('not_found');
  });
});

describe('approved substitutes', () => {
  function withSubstitutes() {
    const c = catalog();
    call(c.api, c.tokens.hannah, 'POST', '/items', VALVE);
    call(c.api, c.tokens.hannah, 'POST', '/items', { ...VALVE, id: 'BV-101', description: 'Brass ball valve 1", lead-free' });
    call(c.api, c.tokens.hannah, 'POST', '/items', { ...VALVE, id: 'BV-102', description: 'Bronze ball valve 1"' });
    return c;
  }

  it('approves a substitute from one vendor only, or from any vendor', () => {
    const { api, tokens } = withSubstitutes();
    expect(call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'BV-101', vendor: 'V-0142' }).status).toBe(201);
    call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'BV-102' });
    expect(api.read.items.isApprovedSubstitute('BV-100', 'BV-101', 'V-0142')).toBe(true);
    expect(api.read.items.isApprovedSubstitute('BV-100', 'BV-101', 'V-0143')).toBe(false);
    expect(api.read.items.isApprovedSubstitute('BV-100', 'BV-102', 'V-0143')).toBe(true);
    expect(call(api, tokens.sam, 'GET', '/items/BV-100').body.approved_substitutes).toEqual([{ substitute: 'BV-101', vendor: 'V-0142' }, { substitute: 'BV-102', vendor: '*' }]);
  });

  it('withdraws an approval with a reason', () => {
    const { api, tokens } = withSubstitutes();
    call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'BV-102' });
    expect(call(api, tokens.hannah, 'POST', '/approved-substitutes/remove', { item: 'BV-100', substitute: 'BV-102', reason: 'engineering_change' }).status).toBe(200);
    expect(api.read.items.isApprovedSubstitute('BV-100', 'BV-102', 'V-0142')).toBe(false);
    expect(call(api, tokens.hannah, 'POST', '/approved-substitutes/remove', { item: 'BV-100', substitute: 'BV-102', reason: 'again' }).body.code).toBe('not_found');
  });

  it('refuses an item as its own substitute, a duplicate approval and an unknown item', () => {
    const { api, tokens } = withSubstitutes();
    expect(call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'BV-100' }).body.code).toBe('invalid_request');
    call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'BV-101' });
    expect(call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'BV-101' }).body.code).toBe('already_exists');
    expect(call(api, tokens.hannah, 'POST', '/approved-substitutes', { item: 'BV-100', substitute: 'ZZ-1' }).body.code).toBe('not_found');
  });
});

describe('refusals of master data that would not make sense', () => {
  it.each([
    ['an item with a negative standard cost', '/items', { ...VALVE, id: 'BV-900', standard_cost: '-1.00' }, 'invalid_request'],
    ['a price agreement with an unknown vendor', '/price-agreements', { vendor: 'V-0999', item: 'BV-100', valid_from: '2026-10-01', breaks: [{ min_qty: 1, unit_price: 1 }] }, 'not_found'],
    ['a price break at a zero price', '/price-agreements', { vendor: 'V-0142', item: 'BV-100', valid_from: '2026-10-01', breaks: [{ min_qty: 1, unit_price: 0 }] }, 'invalid_request'],
    ['a substitute from an unknown vendor', '/approved-substitutes', { item: 'BV-100', substitute: 'GS-200', vendor: 'V-0999' }, 'not_found'],
  ])('refuses %s', (_what, path, body, code) => {
    const { api, tokens } = catalog();
    call(api, tokens.hannah, 'POST', '/items', VALVE);
    call(api, tokens.hannah, 'POST', '/items', GASKET);
    expect(call(api, tokens.hannah, 'POST', path, body).body.code).toBe(code);
  });
});
