import { call, issueToken, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

/** PO-000001 for 10 seals with 8 received, billed for 10: APINV-000001, validated. */
function overBilled(validate = true) {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp, 8);
  ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
  if (validate) ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
  return { erp, api, t };
}

const gl = (erp: ReturnType<typeof overBilled>['erp'], type: string) =>
  erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);
const apTie = (api: ReturnType<typeof overBilled>['api']) => api.read.ledger.balance('2000', '2026-10-05') - api.read.payables.apBalanceAsOf('2026-10-05');

describe('an invoice billing units that were not received', () => {
  it('takes a debit memo for the unreceived units at PO price, which clears the quantity variance', () => {
    const { erp, api, t } = overBilled();
    const res = call(api, t.omar, 'POST', '/debit-memos', { invoice: 'APINV-000001', lines: [{ po_line: 1, qty: 2 }], reason: 'units_not_received' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'DM-000001', invoice: 'APINV-000001', amount: 24, account: '5110', lines: [{ po_line: 1, qty: 2, unit_price: 12, amount: 24 }] });
    expect(gl(erp, 'DebitMemoRaised')).toEqual([['2000', 2400, 0], ['5110', 0, 2400]]);
    expect(api.read.ledger.balance('5110', '2026-10-05')).toBe(0);
    const inv = call(api, t.omar, 'GET', '/ap-invoices/APINV-000001').body;
    expect(inv).toMatchObject({ open_amount: 96, debit_memo_amount: 24, debit_memos: [{ id: 'DM-000001', amount: 24 }] });
    expect(apTie(api)).toBe(0);
  });

  it('takes a debit memo for an amount, to a chosen account', () => {
    const { api, t } = overBilled();
    expect(call(api, t.omar, 'POST', '/debit-memos', { invoice: 'APINV-000001', amount: '5.00', reason: 'damaged', account: '5100' }).body).toMatchObject({ amount: 5, account: '5100' });
  });

  it('refuses a debit memo beyond the open amount, on an unposted invoice, both amount and lines, neither, and to a control account', () => {
    const { api, t } = overBilled();
    const dm = (body: object) => call(api, t.omar, 'POST', '/debit-memos', { invoice: 'APINV-000001', reason: 'x', ...body }).body.code;
    expect(dm({ amount: '120.01' })).toBe('exceeds_open_amount');
    expect(dm({ amount: '1', lines: [{ po_line: 1, qty: 1 }] })).toBe('invalid_request');
    expect(dm({})).toBe('invalid_request');
    expect(dm({ amount: '1', account: '2100' })).toBe('invalid_request');
    expect(dm({ lines: [{ po_line: 9, qty: 1 }] })).toBe('not_found');
    expect(call(api, t.omar, 'POST', '/debit-memos', { invoice: 'APINV-000404', amount: 1, reason: 'x' }).body.code).toBe('not_found');
    const unposted = overBilled(false);
    expect(call(unposted.api, unposted.t.omar, 'POST', '/debit-memos', { invoice: 'APINV-000001', amount: 1, reason: 'x' }).body.code).toBe('invalid_state');
  });
});

describe('a vendor credit memo', () => {
  it('applied to an invoice at once reduces what is owed on it', () => {
    const { erp, api, t } = overBilled();
    const res = call(api, t.omar, 'POST', '/vendor-credits', { vendor: 'V-0142', vendor_reference: 'CM-77', amount: '24.00', invoice: 'APINV-000001' });
    expect(res.body).toMatchObject({ id: 'VCM-000001', status: 'applied', applied_amount: 24, unapplied_amount: 0, account: '5100', applications: [{ invoice: 'APINV-000001', amount: 24 }] });
    expect(gl(erp, 'VendorCreditRecorded')).toEqual([['2000', 2400, 0], ['5100', 0, 2400]]);
    expect(api.read.payables.invoice('APINV-000001')).toMatchObject({ open_amount: 9600, credited_amount: 2400 });
  });

  it('held on account lowers the vendor balance until it is applied, then moves to the invoice', () => {
    const { api, t } = overBilled();
    ok(call(api, t.omar, 'POST', '/vendor-credits', { vendor: 'V-0142', vendor_reference: 'CM-78', amount: '30.00', account: '5110' }), 'credit');
    expect(api.read.payables.vendorBalanceAsOf('V-0142', '2026-10-05')).toBe(12000 - 3000);
    expect(api.read.payables.invoice('APINV-000001')!.open_amount).toBe(12000);
    const applied = call(api, t.omar, 'POST', '/vendor-credits/VCM-000001/apply', { invoice: 'APINV-000001', amount: '10.00' });
    expect(applied.body).toMatchObject({ status: 'on_account', applied_amount: 10, unapplied_amount: 20 });
    expect(call(api, t.omar, 'POST', '/vendor-credits/VCM-000001/apply', { invoice: 'APINV-000001' }).body).toMatchObject({ status: 'applied', unapplied_amount: 0 });
    expect(api.read.payables.invoice('APINV-000001')).toMatchObject({ open_amount: 9000, credited_amount: 3000 });
    expect(api.read.payables.vendorBalanceAsOf('V-0142', '2026-10-05')).toBe(9000);
    expect(apTie(api)).toBe(0);
    expect(call(api, t.omar, 'POST', '/vendor-credits/VCM-000001/apply', { invoice: 'APINV-000001' }).body.code).toBe('invalid_state');
  });

  it('refuses an unknown vendor, a non-positive amount, an invoice of another vendor or not posted, and more than either allows', () => {
    const { api, t } = overBilled();
    systemCall(api, 'POST', '/vendors', { id: 'V-0300', name: 'Allied', terms: 'NET30', tin: '2', email: 'ar@allied.example', phone: '2', address: 'y' });
    const credit = (body: object) => call(api, t.omar, 'POST', '/vendor-credits', { vendor: 'V-0142', vendor_reference: 'CM', amount: '1', ...body }).body.code;
    expect(credit({ vendor: 'V-9999' })).toBe('not_found');
    expect(credit({ amount: '0' })).toBe('invalid_request');
    expect(credit({ vendor: 'V-0300', invoice: 'APINV-000001' })).toBe('invalid_request');
    expect(credit({ amount: '500', invoice: 'APINV-000001' })).toBe('exceeds_open_amount');
    expect(credit({ account: '2000' })).toBe('invalid_request');
    expect(credit({ dispute: 'DSP-000404' })).toBe('not_found');
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'U-1' })), 'unposted');
    expect(credit({ invoice: 'APINV-000002' })).toBe('invalid_state');
    ok(call(api, t.omar, 'POST', '/vendor-credits', { vendor: 'V-0142', vendor_reference: 'CM-9', amount: '5' }), 'on account');
    expect(call(api, t.omar, 'POST', '/vendor-credits/VCM-000001/apply', { invoice: 'APINV-000001', amount: '6' }).body.code).toBe('exceeds_open_amount');
    expect(call(api, t.omar, 'POST', '/vendor-credits/VCM-000404/apply', { invoice: 'APINV-000001' }).body.code).toBe('not_found');
  });
});

describe('a dispute with the vendor', () => {
  it('opens with a reason and amount, and is resolved by the vendor\'s credit memo applied to the invoice', () => {
    const { api, t } = overBilled();
    const opened = call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'quantity_variance', amount: '24.00', note: '2 units never arrived' });
    expect(opened.body).toMatchObject({ id: 'DSP-000001', status: 'open', reason: 'quantity_variance', amount: 24 });
    systemCall(api, 'POST', '/roles', { id: 'vendor_desk', name: 'Vendors', permissions: ['dispute.answer', 'messages.deliver', 'sim.script'] });
    systemCall(api, 'POST', '/users', { id: 'sim.vendors', name: 'Vendor desk', email: 'vendors@sim.example', kind: 'counterparty', roles: ['vendor_desk'] });
    const vendor = issueToken(api, 'sim.vendors');
    const answered = call(api, vendor, 'POST', '/disputes/DSP-000001/answer', { decision: 'credit', vendor_reference: 'CM-501' });
    expect(answered.body).toMatchObject({ id: 'VCM-000001', dispute: 'DSP-000001', amount: 24, invoice: 'APINV-000001', status: 'applied' });
    expect(call(api, t.omar, 'GET', '/disputes/DSP-000001').body).toMatchObject({ status: 'resolved', credit: 'VCM-000001', answered_by: 'sim.vendors' });
    expect(call(api, t.omar, 'GET', '/ap-invoices/APINV-000001').body).toMatchObject({ open_amount: 96, disputes: [{ id: 'DSP-000001', status: 'resolved' }] });
    expect(call(api, vendor, 'POST', '/disputes/DSP-000001/answer', { decision: 'refuse' }).body.code).toBe('invalid_state');
  });

  it('is refused by the vendor, or withdrawn by AP', () => {
    const { api, t } = overBilled();
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'price_variance', amount: 5 }), 'dispute');
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'damaged', amount: 5 }), 'dispute');
    const refused = call(api, t.grace, 'POST', '/disputes/DSP-000001/answer', { decision: 'refuse', note: 'Price per contract.' });
    expect(refused.status).toBe(403);
    systemCall(api, 'POST', '/disputes/DSP-000001/answer', { decision: 'refuse', note: 'Price per contract.' });
    expect(api.read.apMemos.dispute('DSP-000001')).toMatchObject({ status: 'refused', answer_note: 'Price per contract.' });
    expect(call(api, t.omar, 'POST', '/disputes/DSP-000002/withdraw', { reason: 'found_the_units' }).body.status).toBe('withdrawn');
    expect(call(api, t.omar, 'POST', '/disputes/DSP-000002/withdraw', { reason: 'again' }).body.code).toBe('invalid_state');
    expect(call(api, t.omar, 'GET', '/disputes', undefined, { query: { status: 'refused' } }).body.items.map((d: any) => d.id)).toEqual(['DSP-000001']);
  });

  it('refuses a disputed amount above the invoice total or not positive, and an invoice rejected or unknown', () => {
    const { api, t } = overBilled(false);
    const open = (id: string, amount: string) => call(api, t.omar, 'POST', `/ap-invoices/${id}/disputes`, { reason: 'x', amount }).body.code;
    expect(open('APINV-000001', '120.01')).toBe('invalid_request');
    expect(open('APINV-000001', '0')).toBe('invalid_request');
    expect(open('APINV-000404', '1')).toBe('not_found');
    ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/reject', { reason: 'x' }), 'reject');
    expect(open('APINV-000001', '1')).toBe('invalid_state');
  });

  it('credited while its invoice is not yet posted holds the credit on account', () => {
    const { api, t } = overBilled(false);
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'quantity_variance', amount: 24 }), 'dispute');
    const res = systemCall(api, 'POST', '/disputes/DSP-000001/answer', { decision: 'credit', amount: 24 });
    expect(res.body).toMatchObject({ invoice: null, status: 'on_account', unapplied_amount: 24 });
  });
});
