import { call, openTestErp } from '../support/erp';
import { advanceTo } from '../support/books-fixture';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

/** Approved invoices of Mid-State against PO-000001, each for $120 unless given. */
function approvedInvoices(totals: number[] = [120]) {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  totals.forEach((total, i) => {
    const id = `APINV-00000${i + 1}`;
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: `MS-${i + 1}`, total }, { amount: total, qty: total / 12 })), 'enter');
    ok(call(api, t.omar, 'POST', `/ap-invoices/${id}/validate`, {}), 'validate');
    ok(call(api, t.hannah, 'POST', `/ap-invoices/${id}/approve`, {}), 'approve');
  });
  return { erp, api, t };
}
type C = ReturnType<typeof approvedInvoices>;

const gl = (c: C, type: string) =>
  c.erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);
const statementLine = (c: C, amount: number, kind = 'payment_cleared', reference = 'PAY-000001') =>
  ok(call(c.api, c.t.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: c.api.today(), amount, kind, reference }), 'statement line').id as string;

describe('a single invoice paid at once', () => {
  it('is paid to the verified account with the same postings as a run', () => {
    const c = approvedInvoices();
    const res = call(c.api, c.t.hannah, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP', routing_number: '041000124', account_number: '1234569170' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'PAY-000001', method: 'manual', run: null, amount: 120, vendor_bank_account: 'BA-000001', status: 'released' });
    expect(gl(c, 'PaymentMade')).toEqual([['2000', 12000, 0], ['1000', 0, 12000]]);
    expect(c.api.read.payables.invoice('APINV-000001')!.status).toBe('paid');
  });

  it('refuses an account that is not the verified one, an invoice on hold or not approved, and more than is open', () => {
    const c = approvedInvoices();
    const pay = (body: object, id = 'APINV-000001') => call(c.api, c.t.hannah, 'POST', `/ap-invoices/${id}/pay`, { bank_account: 'BANK-OP', ...body }).body.code;
    expect(pay({ vendor_bank_account: 'BA-000099' })).toBe('bank_account_unverified');
    expect(pay({ routing_number: '041000124', account_number: '9999999999' })).toBe('bank_account_unverified');
    expect(pay({ amount: '120.01' })).toBe('exceeds_open_amount');
    expect(pay({ amount: '0' })).toBe('invalid_request');
    expect(pay({ bank_account: 'BANK-ZZ' })).toBe('not_found');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'N-1' })), 'unapproved');
    expect(pay({}, 'APINV-000002')).toBe('invoice_not_approved');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'duplicate' }), 'hold');
    expect(pay({})).toBe('invoice_on_hold');
    expect(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP' }).body.code).toBe('forbidden');
  });

  it('refuses an inactive vendor and one without a verified account', () => {
    const c = approvedInvoices();
    ok(call(c.api, c.t.omar, 'POST', '/vendor-bank-accounts/BA-000001/withdraw', { reason: 'account_closed' }), 'withdraw');
    expect(call(c.api, c.t.hannah, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP' }).body.code).toBe('bank_account_unverified');
    ok(call(c.api, c.t.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'closed' }), 'deactivate');
    expect(call(c.api, c.t.hannah, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP' }).body.code).toBe('vendor_inactive');
  });
});

describe('a wire released outside AP that the bank shows cleared', () => {
  it('pays the invoices in the order given, each in full before the next, leaving the rest of the last open', () => {
    const c = approvedInvoices([120, 240, 360]);
    const line = statementLine(c, -300, 'payment_cleared', 'WIRE 7731 MS-2 MS-1');
    const res = call(c.api, c.t.hannah, 'POST', '/payments/external', {
      vendor: 'V-0142', bank_account: 'BANK-OP', amount: '300.00', reference: 'WIRE 7731 MS-2 MS-1', statement_line: line, invoices: ['APINV-000002', 'APINV-000001'],
    });
    expect(res.body).toMatchObject({ method: 'external', status: 'cleared', statement_line: line, vendor_bank_account: null, allocations: [{ invoice: 'APINV-000002', amount: 240 }, { invoice: 'APINV-000001', amount: 60 }] });
    expect(c.api.read.payables.invoice('APINV-000002')!.status).toBe('paid');
    expect(c.api.read.payables.invoice('APINV-000001')).toMatchObject({ status: 'approved', open_amount: 6000 });
    expect(c.api.read.payables.invoice('APINV-000003')!.open_amount).toBe(36000);
    expect(c.api.read.cash.statementLine(line)!.status).toBe('matched');
  });

  it('refuses an amount the named invoices cannot take, a statement line of another amount, and a date after today', () => {
    const c = approvedInvoices([120]);
    const wire = (body: object) => call(c.api, c.t.hannah, 'POST', '/payments/external', { vendor: 'V-0142', bank_account: 'BANK-OP', amount: '100', reference: 'W', invoices: ['APINV-000001'], ...body }).body.code;
    expect(wire({ amount: '150' })).toBe('exceeds_open_amount');
    expect(wire({ statement_line: statementLine(c, -99) })).toBe('invalid_request');
    expect(wire({ date: '2026-10-06' })).toBe('invalid_request');
    expect(wire({ invoices: ['APINV-000001', 'APINV-000001'] })).toBe('invalid_request');
    expect(wire({ vendor: 'V-0999' })).toBe('not_found');
  });
});

describe('a released payment at the bank', () => {
  function released(discount = 0) {
    const c = approvedInvoices();
    ok(call(c.api, c.t.hannah, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP', amount: 120 - discount, discount }), 'pay');
    advanceTo(c.api, '2026-10-06');
    return c;
  }

  it('is cleared by its payment_cleared line, which is matched to its bank transaction', () => {
    const c = released();
    const line = statementLine(c, -120);
    const res = call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: line });
    expect(res.body).toMatchObject({ status: 'cleared', statement_line: line, cleared_date: '2026-10-06' });
    expect(c.api.read.cash.bankTransaction(res.body.bank_transaction)!.statement_line).toBe(line);
    expect(c.api.read.cash.statementLine(line)).toMatchObject({ status: 'matched', matched: res.body.bank_transaction });
    expect(call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: line }).body.code).toBe('invalid_state');
  });

  it('refuses a line of another amount or kind, or one already matched', () => {
    const c = released();
    expect(call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: statementLine(c, -119) }).body.code).toBe('invalid_request');
    expect(call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: statementLine(c, 120, 'deposit') }).body.code).toBe('invalid_request');
    expect(call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: 'BSL-000404' }).body.code).toBe('not_found');
    expect(call(c.api, c.t.bank, 'POST', '/payments/PAY-000404/clear', { statement_line: 'BSL-000001' }).body.code).toBe('not_found');
  });

  it('returned by the bank brings the cash back, reverses the discount and reopens the invoice', () => {
    const c = released(2.4);
    ok(call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: statementLine(c, -117.6) }), 'clear');
    const back = statementLine(c, 117.6, 'returned_payment');
    const res = call(c.api, c.t.bank, 'POST', '/payments/PAY-000001/return', { statement_line: back, reason: 'account_closed' });
    expect(res.body).toMatchObject({ status: 'returned', reason: 'account_closed', returned_date: '2026-10-06' });
    expect(gl(c, 'PaymentReturned')).toEqual([['1000', 11760, 0], ['4900', 240, 0], ['2000', 0, 12000]]);
    expect(c.api.read.payables.invoice('APINV-000001')).toMatchObject({ status: 'approved', open_amount: 12000, paid_amount: 0, discount_taken: 0 });
    expect(c.api.read.cash.statementLine(back)!.status).toBe('matched');
    expect(c.api.read.cash.bookBalance('BANK-OP', '2026-10-06')).toBe(0);
  });

  it('voided before it clears reopens the invoice; a cleared one cannot be voided', () => {
    const c = released();
    const res = call(c.api, c.t.hannah, 'POST', '/payments/PAY-000001/void', { reason: 'wrong_vendor' });
    expect(res.body.status).toBe('voided');
    expect(gl(c, 'PaymentVoided')).toEqual([['1000', 12000, 0], ['2000', 0, 12000]]);
    expect(c.api.read.payables.invoice('APINV-000001')!.open_amount).toBe(12000);
    const other = released();
    ok(call(other.api, other.t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: statementLine(other, -120) }), 'clear');
    expect(call(other.api, other.t.hannah, 'POST', '/payments/PAY-000001/void', { reason: 'x' }).body.code).toBe('invalid_state');
  });

  it('is listed and shown with what it paid and where', () => {
    const c = released();
    expect(call(c.api, c.t.omar, 'GET', '/payments', undefined, { query: { vendor: 'V-0142', status: 'released' } }).body).toMatchObject({ total: 1, items: [{ id: 'PAY-000001', amount: 120 }] });
    expect(call(c.api, c.t.omar, 'GET', '/ap-invoices/APINV-000001').body.payments).toEqual([
      { id: 'PAY-000001', method: 'manual', run: null, date: '2026-10-05', status: 'released', vendor_bank_account: 'BA-000001', amount: 120, discount: 0 },
    ]);
  });
});
