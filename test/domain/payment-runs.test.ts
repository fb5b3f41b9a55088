import { call, openTestErp, systemCall } from '../support/erp';
import { advanceTo } from '../support/books-fixture';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

/** APINV-000001 for $120 validated and approved for payment; vendor on 2/10 NET30 when asked. */
function approved(terms = 'NET30') {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  if (terms !== 'NET30') systemCall(api, 'POST', '/payment-terms', { code: terms });
  givenReceivedSeals(erp);
  ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
  ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
  ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/approve', {}), 'approve');
  return { erp, api, t };
}
type C = ReturnType<typeof approved>;

const run = (c: C, items: object[] = [{ invoice: 'APINV-000001' }], date = '2026-10-05') =>
  call(c.api, c.t.omar, 'POST', '/payment-runs', { payment_date: date, bank_account: 'BANK-OP', items });
const lastRow = (c: C) => c.erp.db.prepare('SELECT actor, action, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get();
const gl = (c: C, type: string) =>
  c.erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);

function submitted(c: C) {
  ok(run(c), 'run');
  ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
}

describe('the hard controls on proposing a payment (recorded probes)', () => {
  it('refuses an invoice on hold: invoice_on_hold', () => {
    const c = approved();
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'bank_details_unverified' }), 'hold');
    expect(run(c).body.code).toBe('invoice_on_hold');
    expect(lastRow(c)).toEqual({ actor: 'omar.haddad', action: 'payment_run.create', outcome: 'refused', error_code: 'invoice_on_hold' });
    expect(c.api.read.payments.run('PR-000001')).toBeUndefined();
  });

  it('refuses an invoice not approved for payment: invoice_not_approved', () => {
    const c = approved();
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'MS-2' })), 'enter');
    expect(run(c, [{ invoice: 'APINV-000002' }]).body.code).toBe('invoice_not_approved');
    expect(lastRow(c)).toMatchObject({ outcome: 'refused', error_code: 'invoice_not_approved' });
  });

  it('refuses an inactive vendor: vendor_inactive', () => {
    const c = approved();
    ok(call(c.api, c.t.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'closed' }), 'deactivate');
    expect(run(c).body.code).toBe('vendor_inactive');
    expect(lastRow(c)).toMatchObject({ outcome: 'refused', error_code: 'vendor_inactive' });
  });

  it('refuses a vendor with no verified bank account: bank_account_unverified', () => {
    const c = approved();
    ok(call(c.api, c.t.omar, 'POST', '/vendor-bank-accounts/BA-000001/withdraw', { reason: 'account_closed' }), 'withdraw');
    expect(run(c).body.code).toBe('bank_account_unverified');
    expect(lastRow(c)).toMatchObject({ outcome: 'refused', error_code: 'bank_account_unverified' });
  });

  it('refuses amount and discount above the open amount, and an invoice proposed twice in one run', () => {
    const c = approved();
    expect(run(c, [{ invoice: 'APINV-000001', amount: '119.00', discount: '1.01' }]).body.code).toBe('exceeds_open_amount');
    ok(run(c, [{ invoice: 'APINV-000001', amount: '100.00' }]), 'run');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items', { invoice: 'APINV-000001', amount: '20.00' }).body.code).toBe('already_exists');
    expect(run(c, [{ invoice: 'APINV-000001', amount: '1' }, { invoice: 'APINV-000001', amount: '1' }]).body.code).toBe('invalid_request');
  });
});

describe('a draft payment run', () => {
  it('proposes the open amount less the discount, to the verified account, and totals its items', () => {
    const c = approved();
    const res = run(c, [{ invoice: 'APINV-000001', discount: '2.40' }]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'PR-000001', status: 'draft', preparer: 'omar.haddad', total_amount: 117.6, total_discount: 2.4, item_count: 1,
      items: [{ invoice: 'APINV-000001', amount: 117.6, discount: 2.4, vendor_bank_account: 'BA-000001', status: 'proposed', open_holds: [] }],
    });
  });

  it('takes items added and removed while draft, and refuses changes once submitted', () => {
    const c = approved();
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-06', bank_account: 'BANK-OP' }), 'run');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items', { invoice: 'APINV-000001' }), 'add');
    const removed = call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items/APINV-000001/remove', { reason: 'pay_next_week' });
    expect(removed.body).toMatchObject({ total_amount: 0, item_count: 0, items: [{ status: 'removed', removed_reason: 'pay_next_week' }] });
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}).body.code).toBe('invalid_state');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items', { invoice: 'APINV-000001' }), 're-add');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items/APINV-000001/remove', { reason: 'x' }).body.code).toBe('invalid_state');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000404/items', { invoice: 'APINV-000001' }).body.code).toBe('not_found');
  });

  it('refuses a payment date in the past, an unknown bank account, and removing an invoice it does not propose', () => {
    const c = approved();
    advanceTo(c.api, '2026-10-06');
    expect(run(c, [], '2026-10-05').body.code).toBe('invalid_request');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-06', bank_account: 'BANK-XX' }).body.code).toBe('not_found');
    ok(run(c, [], '2026-10-06'), 'run');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items/APINV-000001/remove', { reason: 'x' }).body.code).toBe('not_found');
  });
});

describe('a submitted payment run', () => {
  it('is approved by someone other than its preparer, within their payment_run limit', () => {
    const c = approved();
    submitted(c);
    const res = call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/approve', { note: 'ok' });
    expect(res.body).toMatchObject({ status: 'approved', approved_by: 'hannah.brooks' });
  });

  it('refuses its preparer: preparer_cannot_approve (recorded probe)', () => {
    const c = approved();
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs', { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001' }] }), 'run');
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/approve', {}).body.code).toBe('preparer_cannot_approve');
    expect(lastRow(c)).toEqual({ actor: 'hannah.brooks', action: 'payment_run.approve', outcome: 'refused', error_code: 'preparer_cannot_approve' });
  });

  it('refuses an approver above their limit, or with none: over_limit', () => {
    const c = approved();
    systemCall(c.api, 'POST', '/approval-limits', { subject_type: 'user', subject: 'hannah.brooks', document_type: 'payment_run', amount: 100 });
    submitted(c);
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/approve', {}).body.code).toBe('over_limit');
    systemCall(c.api, 'POST', '/roles', { id: 'run_approver', name: 'x', permissions: ['payment_run.approve'] });
    systemCall(c.api, 'POST', '/users/lena.park/roles', { roles: ['run_approver'] });
    expect(call(c.api, c.t.lena, 'POST', '/payment-runs/PR-000001/approve', {}).body.code).toBe('over_limit');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/approve', {}).body.code).toBe('forbidden');
  });

  it('is returned to its preparer with a reason, changed, and submitted again', () => {
    const c = approved();
    submitted(c);
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/return', { reason: 'take_the_discount' }).body).toMatchObject({ status: 'returned', reason: 'take_the_discount' });
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items/APINV-000001/remove', { reason: 'redo' }), 'remove');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/items', { invoice: 'APINV-000001', discount: 1 }), 'add');
    expect(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}).body.status).toBe('submitted');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/cancel', { reason: 'x' }).body.status).toBe('cancelled');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/return', { reason: 'x' }).body.code).toBe('invalid_state');
  });
});

describe('an approved payment run released', () => {
  function releasable(c: C) {
    submitted(c);
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/approve', {}), 'approve');
  }

  it('pays each vendor once, to its verified account: Dr AP, Cr cash, Cr discounts taken', () => {
    const c = approved();
    ok(run(c, [{ invoice: 'APINV-000001', amount: '117.60', discount: '2.40' }]), 'run');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/approve', {}), 'approve');
    const res = call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {});
    expect(res.body).toMatchObject({ status: 'released', released_by: 'hannah.brooks', items: [{ status: 'paid', payment: 'PAY-000001', invoice_status: 'paid' }] });
    expect(res.body.payments[0]).toMatchObject({
      id: 'PAY-000001', vendor: 'V-0142', amount: 117.6, discount: 2.4, vendor_bank_account: 'BA-000001', status: 'released', bank_transaction: `BT-${String(c.erp.store.lastSeq()).padStart(6, '0')}-1`,
      paid_to: { id: 'BA-000001', account_number: '1234569170' }, allocations: [{ invoice: 'APINV-000001', amount: 117.6, discount: 2.4 }],
    });
    expect(gl(c, 'PaymentRunReleased')).toEqual([['2000', 12000, 0], ['4900', 0, 240], ['1000', 0, 11760]]);
    expect(c.api.read.cash.bookBalance('BANK-OP', '2026-10-05')).toBe(-11760);
    expect(c.api.read.payables.invoice('APINV-000001')).toMatchObject({ status: 'paid', open_amount: 0, paid_amount: 11760, discount_taken: 240 });
  });

  it('shows the full account paid to only to a reader with vendor_bank.read_full', () => {
    const c = approved();
    releasable(c);
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}), 'release');
    expect(call(c.api, c.t.hannah, 'GET', '/payments/PAY-000001').body.paid_to.account_number).toBe('1234569170');
    expect(call(c.api, c.t.omar, 'GET', '/payments/PAY-000001').body.paid_to.account_number).toBe('••••••9170');
  });

  it('refuses release when an invoice went on hold after it was proposed, and before the payment date', () => {
    const c = approved();
    releasable(c);
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'duplicate' }), 'hold');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}).body.code).toBe('invoice_on_hold');
    expect(c.api.read.payments.paymentsWithStatus('released')).toEqual([]);
    const later = approved();
    ok(run(later, [{ invoice: 'APINV-000001' }], '2026-10-07'), 'run');
    ok(call(later.api, later.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
    ok(call(later.api, later.t.hannah, 'POST', '/payment-runs/PR-000001/approve', {}), 'approve');
    expect(call(later.api, later.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}).body.code).toBe('invalid_state');
  });

  it('refuses release when the vendor\'s account is no longer verified, and a second release', () => {
    const c = approved();
    releasable(c);
    ok(call(c.api, c.t.omar, 'POST', '/vendor-bank-accounts/BA-000001/withdraw', { reason: 'account_closed' }), 'withdraw');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}).body.code).toBe('bank_account_unverified');
    ok(call(c.api, c.t.omar, 'POST', '/vendors/V-0142/bank-accounts', { bank_name: 'New Bank', routing_number: '011000015', account_number: '55554444' }), 'request');
    ok(call(c.api, c.t.hannah, 'POST', '/vendor-bank-accounts/BA-000002/verify', {}), 'verify');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}).body.payments[0].vendor_bank_account).toBe('BA-000002');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}).body.code).toBe('invalid_state');
  });

  it('refuses a second run paying what the first already paid', () => {
    const c = approved();
    releasable(c);
    ok(run(c), 'second run proposes the same invoice');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000002/submit', {}), 'submit');
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000002/approve', {}), 'approve');
    ok(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000001/release', {}), 'release');
    expect(call(c.api, c.t.hannah, 'POST', '/payment-runs/PR-000002/release', {}).body.code).toBe('invalid_state');
    expect(c.api.read.payables.invoice('APINV-000001')!.paid_amount).toBe(12000);
  });
});
