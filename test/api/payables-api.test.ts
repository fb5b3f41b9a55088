import { call, eventCount, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

/** Four invoices of Mid-State and Coastline in different states, for the list endpoints. */
function ledger() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  systemCall(api, 'POST', '/payment-terms', { code: '2/10NET30' });
  systemCall(api, 'POST', '/vendors', { id: 'V-0200', name: 'Coastline Fittings', terms: '2/10NET30', tin: '1', email: 'ar@coastline.example', phone: '1', address: 'x' });
  const nonPo = (vendor: string, number: string, date: string, total: number) =>
    ok(call(api, t.omar, 'POST', '/ap-invoices', { vendor, vendor_invoice_number: number, invoice_date: date, lines: [{ qty: 1, unit_price: total, amount: total, account: '6500', department: 'OPS' }], total }), number).id as string;
  ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'seals');
  ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
  ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/approve', {}), 'approve');
  nonPo('V-0200', 'C-1', '2026-09-20', 500);
  nonPo('V-0200', 'C-2', '2026-10-01', 700);
  ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000003/holds', { reason: 'non_po_approval' }), 'hold');
  nonPo('V-0142', 'R-9', '2026-10-02', 50);
  return { erp, api, t };
}

const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

describe('GET /ap-invoices', () => {
  it('filters by status, vendor, due date, discount date, hold and payability, with totals and pages', () => {
    const { api, t } = ledger();
    const list = (query: Record<string, unknown>) => call(api, t.omar, 'GET', '/ap-invoices', undefined, { query });
    expect(ids(list({}))).toEqual(['APINV-000001', 'APINV-000002', 'APINV-000003', 'APINV-000004']);
    expect(ids(list({ status: 'entered' }))).toEqual(['APINV-000002', 'APINV-000004']);
    expect(ids(list({ vendor: 'V-0200' }))).toEqual(['APINV-000002', 'APINV-000003']);
    expect(ids(list({ due_before: '2026-10-31' }))).toEqual(['APINV-000002', 'APINV-000003']);
    expect(ids(list({ discount_before: '2026-10-05' }))).toEqual(['APINV-000002']);
    expect(ids(list({ on_hold: 'true' }))).toEqual(['APINV-000003']);
    expect(ids(list({ on_hold: 'false', vendor: 'V-0200' }))).toEqual(['APINV-000002']);
    expect(ids(list({ payable: 'true' }))).toEqual(['APINV-000001']);
    expect(list({ limit: 2, offset: 1 }).body).toMatchObject({ total: 4, offset: 1, limit: 2, items: [{ id: 'APINV-000002' }, { id: 'APINV-000003' }] });
    expect(list({ status: 'lost' }).status).toBe(400);
    expect(list({ zz: 1 }).status).toBe(400);
  });

  it('given an approved invoice with an open dispute, then payable=true leaves it out: approved, no open hold, no open dispute', () => {
    const { api, t } = ledger();
    const list = (query: Record<string, unknown>) => ids(call(api, t.omar, 'GET', '/ap-invoices', undefined, { query }));
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'not_ordered', amount: '10.00', note: 'One seal we did not order.' }), 'dispute');
    expect(list({ payable: 'true' })).toEqual([]);
    expect(list({ status: 'approved' })).toEqual(['APINV-000001']);
  });

  it('orders by sort=, descending after a minus, ties by id, and refuses a field the invoices do not have', () => {
    const { api, t } = ledger();
    const list = (query: Record<string, unknown>) => call(api, t.omar, 'GET', '/ap-invoices', undefined, { query });
    expect(ids(list({ sort: '-invoice_date' }))).toEqual(['APINV-000004', 'APINV-000003', 'APINV-000002', 'APINV-000001'].sort((a, b) => {
      const date = (id: string) => call(api, t.omar, 'GET', `/ap-invoices/${id}`).body.invoice_date as string;
      return date(b).localeCompare(date(a)) || a.localeCompare(b);
    }));
    expect(ids(list({ sort: 'vendor,-total' }))).toEqual(['APINV-000001', 'APINV-000004', 'APINV-000003', 'APINV-000002']);
    const bad = list({ sort: 'colour' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^sort: the rows cannot be ordered by colour; fields: /);
    expect(list({ sort: 'Vendor;drop' }).status).toBe(400);
    const vendors = (query: Record<string, unknown>) => call(api, t.omar, 'GET', '/vendors', undefined, { query });
    expect(ids(vendors({ sort: '-id' }))).toEqual(['V-0200', 'V-0142']);
    expect(vendors({ sort: 'bank' }).body).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('shows money as decimals and answers an unknown invoice with 404', () => {
    const { api, t } = ledger();
    expect(call(api, t.omar, 'GET', '/ap-invoices', undefined, { query: { vendor: 'V-0200', status: 'entered' } }).body.items[0]).toMatchObject({ total: 500, discount_amount: 10, open_amount: 500 });
    expect(call(api, t.omar, 'GET', '/ap-invoices/APINV-000404').status).toBe(404);
    expect(call(api, t.omar, 'GET', '/payment-runs/PR-000404').status).toBe(404);
    expect(call(api, t.omar, 'GET', '/payments/PAY-000404').status).toBe(404);
  });
});

describe('a payment run created again after a lost response', () => {
  const body = { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001' }] };

  it('with the same Idempotency-Key returns the first run and proposes nothing twice', () => {
    const { erp, api, t } = ledger();
    const first = call(api, t.omar, 'POST', '/payment-runs', body, { idempotencyKey: 'run-2026-10-05' });
    const before = eventCount(erp);
    const again = call(api, t.omar, 'POST', '/payment-runs', body, { idempotencyKey: 'run-2026-10-05' });
    expect(again.text).toBe(first.text);
    expect(eventCount(erp)).toBe(before + 1);
    expect(api.read.payments.liveProposals('APINV-000001').map((p) => p.run)).toEqual(['PR-000001']);
  });

  it('without a key creates a second run: the invoice is proposed twice, which the stream shows', () => {
    const { erp, api, t } = ledger();
    ok(call(api, t.omar, 'POST', '/payment-runs', body), 'first');
    ok(call(api, t.omar, 'POST', '/payment-runs', body), 'blind retry');
    expect(api.read.payments.liveProposals('APINV-000001').map((p) => p.run)).toEqual(['PR-000001', 'PR-000002']);
    const proposed = erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'PaymentRunCreated' AND data LIKE '%APINV-000001%'`).get();
    expect(proposed).toEqual({ n: 2 });
  });
});

describe('the audit trail of a payment', () => {
  it('tells from the stream which invoice was paid how much, to which vendor account, and which holds were open when it was proposed', () => {
    const { erp, api, t } = ledger();
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'duplicate' }), 'hold');
    call(api, t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001' }] });
    ok(call(api, t.omar, 'POST', '/holds/HOLD-000002/release', { note: 'Not a duplicate.' }), 'release');
    ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP' }), 'pay');
    const stream = erp.db.prepare(`SELECT seq, type, outcome, error_code, data FROM events WHERE kind = 'write' AND (type LIKE 'ApInvoiceHold%' OR type = 'PaymentMade' OR action = 'payment_run.create') ORDER BY seq`).all() as any[];
    expect(stream.map((e) => [e.type ?? 'refused', e.error_code])).toEqual([
      ['ApInvoiceHoldPlaced', null], ['ApInvoiceHoldPlaced', null], ['refused', 'invoice_on_hold'], ['ApInvoiceHoldReleased', null], ['PaymentMade', null],
    ]);
    const paid = JSON.parse(stream[4].data);
    expect(paid.payment).toEqual({ id: 'PAY-000001', vendor: 'V-0142', vendor_bank_account: 'BA-000001', amount: 12000, discount: 0, allocations: [{ invoice: 'APINV-000001', amount: 12000, discount: 0 }] });
  });

  it('masks the vendor account paid to for readers without vendor_bank.read_full', () => {
    const { api, t } = ledger();
    ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/pay', { bank_account: 'BANK-OP' }), 'pay');
    const seen = call(api, t.omar, 'GET', '/payments/PAY-000001');
    expect(seen.body.paid_to).toEqual({ id: 'BA-000001', bank_name: 'Dayton Savings', routing_number: '•••••0124', account_number: '••••••9170', status: 'verified' });
    expect(seen.text).not.toMatch(/1234569170|041000124/);
  });
});

describe('the payables policy', () => {
  it('is the defaults until set, and keeps the fields not given', () => {
    const { api, t } = ledger();
    expect(call(api, t.omar, 'GET', '/payables/policy').body).toMatchObject({ price_tolerance_bp: 0, price_variance_account: '5100', discount_account: '4900' });
    expect(call(api, t.hannah, 'POST', '/payables/policy', { price_tolerance_bp: 200 }).body).toMatchObject({ price_tolerance_bp: 200, quantity_variance_account: '5110' });
    expect(call(api, t.hannah, 'POST', '/payables/policy', { freight_account: '2000' }).body.code).toBe('invalid_request');
    expect(call(api, t.hannah, 'POST', '/payables/policy', { tax_account: '2999' }).body.code).toBe('not_found');
    expect(call(api, t.omar, 'POST', '/payables/policy', { price_tolerance_bp: 0 }).body.code).toBe('forbidden');
  });
});

describe('the vendor billing record', () => {
  it('is only for counterparties with sim.script', () => {
    const { api, t } = ledger();
    const res = call(api, t.omar, 'POST', '/sim/vendor-invoices', {
      vendor: 'V-0142', invoice_number: 'X', invoice_date: '2026-10-05', source_type: 'receipt', source_id: 'RCV-000001', message: 'MSG-000001',
      lines: [{ description: 'x', qty: 1, unit_price: 1, amount: 1 }], tax: 0, freight: 0, total: 1, terms: 'NET30', defects: [],
    });
    expect(res.body.code).toBe('forbidden');
  });
});
