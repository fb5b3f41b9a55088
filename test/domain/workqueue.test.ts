import { call, eventCount, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

/** The payables company with an invoice and a cleared wire on the statement: things a clerk can be asked to work. */
function company() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'invoice');
  ok(call(api, t.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-05', amount: -500, kind: 'payment_cleared', reference: 'WIRE 1', description: 'Wire to Mid-State, invoices MS-1001' }), 'line');
  return { erp, api, t };
}

const assign = (api: ReturnType<typeof company>['api'], body: object) => systemCall(api, 'POST', '/work-items', body);

describe('a company with an entered invoice and a statement line', () => {
  it('puts records in a clerk\'s queue and lists them in the order they were assigned, with a summary of each', () => {
    const { api, t } = company();
    expect(assign(api, { assigned_to: 'omar.haddad', record_type: 'bank_statement_line', record_id: 'BSL-000001', note: 'Wire from the CFO' }).status).toBe(201);
    const res = assign(api, { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' });
    expect(res.body).toMatchObject({ id: 'WI-000002', record_type: 'ap_invoice', record_id: 'APINV-000001', assigned_to: 'omar.haddad', status: 'open' });
    const queue = call(api, t.omar, 'GET', '/work-queue').body;
    expect(queue).toMatchObject({ user: 'omar.haddad', total: 2 });
    expect(queue.items.map((i: { position: number; record_id: string }) => [i.position, i.record_id])).toEqual([[1, 'BSL-000001'], [2, 'APINV-000001']]);
    expect(queue.items[0].record).toMatchObject({ kind: 'payment_cleared', amount: -500, reference: 'WIRE 1' });
    expect(queue.items[1].record).toMatchObject({ vendor: 'V-0142', vendor_name: 'Mid-State Brass Supply', vendor_invoice_number: 'MS-1001', total: 120, status: 'entered' });
  });

  it('shows each user only their own queue', () => {
    const { api, t } = company();
    ok(assign(api, { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' }), 'assign');
    expect(call(api, t.hannah, 'GET', '/work-queue').body).toMatchObject({ user: 'hannah.brooks', items: [], total: 0 });
  });

  it('folds the assignment into a work_items row stamped with who and when', () => {
    const { erp, api } = company();
    ok(assign(api, { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' }), 'assign');
    const row = erp.db.prepare('SELECT id, assigned_to, record_type, record_id, status, created_by, created_date FROM work_items').get();
    expect(row).toEqual({ id: 'WI-000001', assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001', status: 'open', created_by: 'system', created_date: '2026-10-05' });
  });

  it('refuses a record already in that user\'s queue', () => {
    const { api } = company();
    ok(assign(api, { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' }), 'assign');
    const again = assign(api, { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' });
    expect(again).toMatchObject({ status: 409, body: { code: 'already_exists' } });
  });

  it('refuses a record that does not exist and a user who is not staff', () => {
    const { api } = company();
    expect(assign(api, { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000099' }).body.code).toBe('not_found');
    expect(assign(api, { assigned_to: 'first.bank', record_type: 'ap_invoice', record_id: 'APINV-000001' }).body.code).toBe('not_found');
    expect(assign(api, { assigned_to: 'nobody', record_type: 'ap_invoice', record_id: 'APINV-000001' }).body.code).toBe('not_found');
  });

  it('refuses a record type it does not know, as bad input', () => {
    const { api } = company();
    expect(assign(api, { assigned_to: 'omar.haddad', record_type: 'purchase_order', record_id: 'PO-000001' }).status).toBe(400);
  });

  it('refuses a clerk assigning work, and records the probe', () => {
    const { erp, api, t } = company();
    const before = eventCount(erp);
    const res = call(api, t.omar, 'POST', '/work-items', { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' });
    expect(res.body.code).toBe('forbidden');
    expect(eventCount(erp)).toBe(before + 1);
    expect(api.read.workQueue.queueOf('omar.haddad')).toEqual([]);
  });
});
