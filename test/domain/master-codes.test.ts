import { parseTermsCode, termsSchedule } from '../../src/domain/master/payment-terms';
import { call, openTestErp } from '../support/erp';
import { seedBooks } from '../support/books-fixture';

function books() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}

describe('payment terms codes', () => {
  it('reads NET and discount terms', () => {
    expect(parseTermsCode('NET30')).toEqual({ days_due: 30, discount_days: 0, discount_bp: 0 });
    expect(parseTermsCode('2/10NET30')).toEqual({ days_due: 30, discount_days: 10, discount_bp: 200 });
    expect(parseTermsCode('1.5/15 NET 45')).toEqual({ days_due: 45, discount_days: 15, discount_bp: 150 });
    expect(parseTermsCode('EOM')).toBeUndefined();
  });

  it('computes the due date, the discount deadline and the discount of an invoice', () => {
    expect(termsSchedule({ days_due: 30, discount_days: 10, discount_bp: 200 }, '2026-10-05', 110880)).toEqual({ due_date: '2026-11-04', discount_date: '2026-10-15', discount_amount: 2218 });
    expect(termsSchedule({ days_due: 30, discount_days: 0, discount_bp: 0 }, '2026-12-15', 50000)).toEqual({ due_date: '2027-01-14', discount_date: null, discount_amount: 0 });
  });
});

describe('a company with NET30 and 2/10NET30 defined', () => {
  it('defines terms from the code alone, or with explicit days', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/payment-terms', { code: '1/15NET45' }).body).toMatchObject({ code: '1/15NET45', days_due: 45, discount_days: 15, discount_bp: 100 });
    expect(call(api, tokens.grace, 'POST', '/payment-terms', { code: 'EOM25', days_due: 25 }).body).toMatchObject({ days_due: 25, discount_bp: 0 });
  });

  it('refuses terms it cannot read without days, and a discount without a rate', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/payment-terms', { code: 'EOM' }).body.code).toBe('invalid_request');
    expect(call(api, tokens.grace, 'POST', '/payment-terms', { code: 'X10', days_due: 30, discount_days: 10 }).body.code).toBe('invalid_request');
    expect(call(api, tokens.grace, 'POST', '/payment-terms', { code: 'X11', days_due: 10, discount_days: 20, discount_bp: 100 }).body.code).toBe('invalid_request');
  });

  it('answers an invoice\'s schedule under a terms code (slashes URL-encoded)', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.sam, 'GET', `/payment-terms/${encodeURIComponent('2/10NET30')}/schedule`, undefined, { query: { invoice_date: '2026-10-05', amount: '1108.80' } });
    expect(res.body).toMatchObject({ terms: '2/10NET30', due_date: '2026-11-04', discount_date: '2026-10-15', discount_amount: 22.18, amount: 1108.8 });
    expect(call(api, tokens.sam, 'GET', '/payment-terms/NET99/schedule', undefined, { query: { invoice_date: '2026-10-05', amount: '1' } }).status).toBe(404);
  });

  it('defines a tax code in basis points and redefines it', () => {
    const { api, tokens } = books();
    call(api, tokens.grace, 'POST', '/tax-codes', { code: 'OH', rate_bp: 575, description: 'Ohio' });
    expect(call(api, tokens.grace, 'POST', '/tax-codes', { code: 'OH', rate_bp: 725 }).body).toMatchObject({ code: 'OH', rate_bp: 725 });
    expect(call(api, tokens.sam, 'GET', '/tax-codes').body.total).toBe(1);
  });

  it('creates a customer with a ship-to address in a tax region', () => {
    const { api, tokens } = books();
    call(api, tokens.grace, 'POST', '/tax-codes', { code: 'OH', rate_bp: 725 });
    const created = call(api, tokens.grace, 'POST', '/customers', { id: 'C-1001', name: 'Lakeside Plumbing Supply', credit_limit: '25000', terms: 'NET30', email: 'AP@Lakeside.example' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ credit_limit: 25000, tax_exempt: false, status: 'active', email: 'ap@lakeside.example' });
    const res = call(api, tokens.grace, 'POST', '/customers/C-1001/ship-to', { code: 'MAIN', address: '1 Lake Rd', region: 'east', tax_code: 'OH' });
    expect(res.body.ship_to).toEqual([expect.objectContaining({ code: 'MAIN', region: 'east', tax_code: 'OH' })]);
  });

  it('refuses a customer on unknown terms, a duplicate customer, and a ship-to for an unknown customer or tax code', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/customers', { id: 'C-1', name: 'A', credit_limit: 1, terms: 'NET99' }).body.code).toBe('not_found');
    call(api, tokens.grace, 'POST', '/customers', { id: 'C-1', name: 'A', credit_limit: 1, terms: 'NET30' });
    expect(call(api, tokens.grace, 'POST', '/customers', { id: 'C-1', name: 'A', credit_limit: 1, terms: 'NET30' }).body.code).toBe('already_exists');
    expect(call(api, tokens.grace, 'POST', '/customers/C-2/ship-to', { code: 'M', address: 'x', region: 'east' }).body.code).toBe('not_found');
    expect(call(api, tokens.grace, 'POST', '/customers/C-1/ship-to', { code: 'M', address: 'x', region: 'east', tax_code: 'ZZ' }).body.code).toBe('not_found');
  });
});

describe('department budgets', () => {
  it('sets budget cells and replaces one when set again', () => {
    const { api, tokens } = books();
    call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [{ account: '6500', month: '2026-10', amount: '4000' }, { account: '6500', month: '2026-11', amount: '4000' }] });
    const res = call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [{ account: '6500', month: '2026-11', amount: '4500.50' }] });
    expect(res.body.lines.map((l: any) => [l.month, l.amount])).toEqual([['2026-10', 4000], ['2026-11', 4500.5]]);
    expect(call(api, tokens.sam, 'GET', '/budgets', undefined, { query: { department: 'OPS', month: '2026-11' } }).body.items[0].amount).toBe(4500.5);
  });

  it('refuses an unknown department, an unknown account and a cell given twice', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/budgets', { department: 'XX', lines: [{ account: '6500', month: '2026-10', amount: 1 }] }).body.code).toBe('not_found');
    expect(call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [{ account: '6999', month: '2026-10', amount: 1 }] }).body.code).toBe('not_found');
    const twice = [{ account: '6500', month: '2026-10', amount: 1 }, { account: '6500', month: '2026-10', amount: 2 }];
    expect(call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: twice }).body.code).toBe('invalid_request');
  });

  it('refuses a month that is not YYYY-MM', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [{ account: '6500', month: '2026-13', amount: 1 }] }).status).toBe(400);
  });
});

describe('customer refusals', () => {
  it('refuses a negative credit limit and a ship-to code the customer already has', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/customers', { id: 'C-1', name: 'A', credit_limit: '-1', terms: 'NET30' }).body.code).toBe('invalid_request');
    call(api, tokens.grace, 'POST', '/customers', { id: 'C-1', name: 'A', credit_limit: 1, terms: 'NET30' });
    call(api, tokens.grace, 'POST', '/customers/C-1/ship-to', { code: 'M', address: 'x', region: 'east' });
    expect(call(api, tokens.grace, 'POST', '/customers/C-1/ship-to', { code: 'M', address: 'y', region: 'west' }).body.code).toBe('already_exists');
  });
});
