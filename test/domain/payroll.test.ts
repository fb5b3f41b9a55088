import { ok } from '../support/books-fixture';
import { seedCloseBooks } from '../support/close-fixture';
import { call, eventCount, openTestErp, systemCall } from '../support/erp';

function books() {
  const { erp, api } = openTestErp();
  const t = seedCloseBooks(api);
  ok(systemCall(api, 'POST', '/users', { id: 'omar.haddad2', name: 'Omar H', email: 'omar2@northgate.example', department: 'PUR', roles: [], kind: 'staff' }), 'user');
  ok(call(api, t.lena, 'POST', '/bank-accounts/BANK-PR/deposits', { date: '2026-10-05', amount: '20000.00', credit_account: '3000', reference: 'Funding' }), 'fund');
  return { erp, api, t };
}

const RUN = {
  period_start: '2026-09-26', period_end: '2026-10-09', bank_account: 'BANK-PR',
  lines: [
    { employee: 'lena.park', gross: '2500.00', employee_taxes: '500.00', employer_taxes: '250.00' },
    { employee: 'mia.santos', gross: '3000.00', employee_taxes: '690.00', employer_taxes: '300.00' },
    { employee: 'omar.haddad2', gross: '1800.00', employee_taxes: '360.00', employer_taxes: '180.00' },
  ],
};

describe("an employee's pay", () => {
  it('is set by the payroll administrator from a date, and read back only with payroll.read', () => {
    const { api, t } = books();
    const res = call(api, t.mia, 'POST', '/employees/lena.park/compensation', { kind: 'salary', annual_salary: '65000.00', employer_burden_bp: 1000, effective_date: '2026-10-01' });
    expect(res.body).toMatchObject({ employee: 'lena.park', current: { kind: 'salary', annual_salary: 65000, hourly_rate: null, employer_burden_bp: 1000 } });
    ok(call(api, t.mia, 'POST', '/employees/lena.park/compensation', { kind: 'salary', annual_salary: '67000.00', employer_burden_bp: 1000, effective_date: '2027-01-01', note: 'Review' }), 'raise');
    const read = call(api, t.mia, 'GET', '/employees/lena.park/compensation');
    expect([read.body.current.annual_salary, read.body.history.map((h: any) => h.effective_date)]).toEqual([65000, ['2026-10-01', '2027-01-01']]);
    expect(call(api, t.lena, 'GET', '/employees/lena.park/compensation').body.code).toBe('forbidden');
  });

  it('refuses a salary with an hourly rate, no amount, a non-employee, and a user without payroll.manage', () => {
    const { api, t } = books();
    const body = { kind: 'salary', annual_salary: '65000.00', employer_burden_bp: 1000, effective_date: '2026-10-01' };
    expect(call(api, t.mia, 'POST', '/employees/lena.park/compensation', { ...body, hourly_rate: '30.00' }).body.code).toBe('invalid_request');
    expect(call(api, t.mia, 'POST', '/employees/lena.park/compensation', { kind: 'hourly', employer_burden_bp: 1000, effective_date: '2026-10-01' }).body.code).toBe('invalid_request');
    expect(call(api, t.mia, 'POST', '/employees/first.bank/compensation', body).status).toBe(404);
    expect(call(api, t.grace, 'POST', '/employees/lena.park/compensation', body).body.code).toBe('forbidden');
  });
});

describe('a pay run', () => {
  it('posts wages and employer taxes by department, net pay out of the payroll account and taxes to payable', () => {
    const { api, t } = books();
    const res = call(api, t.mia, 'POST', '/payroll-runs', RUN);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'PAYRUN-000001', pay_date: '2026-10-05', employees: 3, gross: 7300, employee_taxes: 1550, employer_taxes: 730, net: 5750 });
    expect(res.body.lines[0]).toMatchObject({ employee: 'lena.park', department: 'ACC', gross: 2500, net: 2000 });
    const gl = call(api, t.grace, 'GET', '/gl-lines', undefined, { query: { document_id: 'PAYRUN-000001' } }).body.items;
    expect(gl.map((l: any) => [l.account, l.department, l.debit, l.credit])).toEqual([
      ['6300', 'ACC', 2500, 0], ['6310', 'ACC', 250, 0], ['6300', 'OPS', 3000, 0], ['6310', 'OPS', 300, 0], ['6300', 'PUR', 1800, 0], ['6310', 'PUR', 180, 0],
      ['1010', null, 0, 5750], ['2400', null, 0, 2280],
    ]);
    expect(api.read.cash.bookBalance('BANK-PR', '2026-10-05')).toBe(2_000_000 - 575_000);
    expect(call(api, t.grace, 'GET', '/reports/control-ties').body.tied).toBe(true);
  });

  it('refuses to pay an employee twice for a day, and records the probe without posting', () => {
    const { erp, api, t } = books();
    ok(call(api, t.mia, 'POST', '/payroll-runs', RUN), 'first');
    const before = eventCount(erp);
    const res = call(api, t.mia, 'POST', '/payroll-runs', { ...RUN, period_start: '2026-10-09', period_end: '2026-10-23' });
    expect([res.status, res.body.code, res.body.detail]).toEqual([409, 'already_exists', 'Line 1: lena.park is already paid for 2026-09-26 to 2026-10-09 by PAYRUN-000001.']);
    expect(eventCount(erp)).toBe(before + 1);
  });

  it('refuses withholding above gross, an employee twice on a run, a period that ends before it starts, an unknown bank account, and a user without payroll.run', () => {
    const { api, t } = books();
    const line = RUN.lines[0]!;
    expect(call(api, t.mia, 'POST', '/payroll-runs', { ...RUN, lines: [{ ...line, employee_taxes: '2500.01' }] }).body.code).toBe('invalid_request');
    expect(call(api, t.mia, 'POST', '/payroll-runs', { ...RUN, lines: [line, line] }).body.code).toBe('invalid_request');
    expect(call(api, t.mia, 'POST', '/payroll-runs', { ...RUN, period_end: '2026-09-25' }).body.code).toBe('invalid_request');
    expect(call(api, t.mia, 'POST', '/payroll-runs', { ...RUN, bank_account: 'BANK-XX' }).status).toBe(404);
    expect(call(api, t.lena, 'POST', '/payroll-runs', RUN).body.code).toBe('forbidden');
  });

  it('is listed with its totals to payroll readers, and hidden from others', () => {
    const { api, t } = books();
    ok(call(api, t.mia, 'POST', '/payroll-runs', RUN), 'run');
    expect(call(api, t.grace, 'GET', '/payroll-runs').body.items).toMatchObject([{ id: 'PAYRUN-000001', gross: 7300, net: 5750 }]);
    expect(call(api, t.lena, 'GET', '/payroll-runs/PAYRUN-000001').body.code).toBe('forbidden');
  });
});
