import { call, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

function entered() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
  return { erp, api, t };
}

function validated() {
  const c = entered();
  ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
  return c;
}

const INV = '/ap-invoices/APINV-000001';
const gl = (erp: ReturnType<typeof entered>['erp'], type: string) =>
  erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);

describe('an invoice with a hold placed', () => {
  it('is on hold while any hold is open, and returns to its state when the last is released', () => {
    const { api, t } = validated();
    const placed = call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'price_variance', note: '5% above PO' });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ status: 'on_hold', open_holds: 1, hold_reasons: ['price_variance'], holds: [{ id: 'HOLD-000001', reason: 'price_variance', status: 'open', placed_by: 'omar.haddad' }] });
    ok(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'tax' }), 'second hold');
    const released = call(api, t.hannah, 'POST', '/holds/HOLD-000001/release', { note: 'Buyer approved the price in writing.' });
    expect(released.body).toMatchObject({ id: 'HOLD-000001', status: 'released', released_by: 'hannah.brooks', release_note: 'Buyer approved the price in writing.', invoice_status: 'on_hold' });
    ok(call(api, t.hannah, 'POST', '/holds/HOLD-000002/release', { note: 'Tax is right.' }), 'release');
    const inv = api.read.payables.invoice('APINV-000001')!;
    expect([inv.status, inv.open_holds, inv.hold_reasons]).toEqual(['matched', 0, []]);
    expect(inv.status_history.map((s) => [s.status, s.reason])).toEqual([['entered', null], ['matched', null], ['on_hold', 'price_variance'], ['matched', 'released_tax']]);
  });

  it('refuses a second open hold with the same reason, an unknown reason, and a hold on a paid invoice', () => {
    const { api, t } = validated();
    ok(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'duplicate' }), 'hold');
    expect(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'duplicate' }).body.code).toBe('already_exists');
    expect(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'no_reason_at_all' }).body.code).toBe('invalid_request');
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000404/holds', { reason: 'duplicate' }).body.code).toBe('not_found');
    expect(call(api, t.lena, 'POST', `${INV}/holds`, { reason: 'tax' }).body.code).toBe('forbidden');
    ok(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', { note: 'Not a duplicate.' }), 'release');
    ok(call(api, t.hannah, 'POST', `${INV}/approve`, {}), 'approve');
    ok(call(api, t.hannah, 'POST', `${INV}/pay`, { bank_account: 'BANK-OP' }), 'pay');
    expect(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'tax' }).body.code).toBe('invalid_state');
  });

  it('refuses to release a hold twice, an unknown hold, and a release without a note', () => {
    const { api, t } = validated();
    ok(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'other' }), 'hold');
    ok(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', { note: 'done' }), 'release');
    expect(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', { note: 'again' }).body.code).toBe('invalid_state');
    expect(call(api, t.omar, 'POST', '/holds/HOLD-000404/release', { note: 'x' }).body.code).toBe('not_found');
    expect(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', {}).body.code).toBe('invalid_request');
  });

  it('lists holds by status and reason', () => {
    const { api, t } = validated();
    ok(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'other' }), 'hold');
    ok(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'tax' }), 'hold');
    ok(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', { note: 'done' }), 'release');
    expect(call(api, t.omar, 'GET', '/holds', undefined, { query: { status: 'open' } }).body.items.map((h: any) => h.id)).toEqual(['HOLD-000002']);
  });
});

describe('approval for payment', () => {
  it('approves a validated PO invoice', () => {
    const { api, t } = validated();
    const res = call(api, t.hannah, 'POST', `${INV}/approve`, { note: 'Matched.' });
    expect(res.body).toMatchObject({ status: 'approved', approved_by: 'hannah.brooks', approved_date: '2026-10-05' });
  });

  it('refuses an invoice on hold (invoice_on_hold), one not validated, and one already approved', () => {
    const { api, t } = entered();
    expect(call(api, t.hannah, 'POST', `${INV}/approve`, {}).body.code).toBe('invalid_state');
    ok(call(api, t.omar, 'POST', `${INV}/validate`, {}), 'validate');
    ok(call(api, t.omar, 'POST', `${INV}/holds`, { reason: 'disputed' }), 'hold');
    const res = call(api, t.hannah, 'POST', `${INV}/approve`, {});
    expect([res.status, res.body.code]).toEqual([409, 'invoice_on_hold']);
    ok(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', { note: 'Settled.' }), 'release');
    ok(call(api, t.hannah, 'POST', `${INV}/approve`, {}), 'approve');
    expect(call(api, t.hannah, 'POST', `${INV}/approve`, {}).body.code).toBe('invalid_state');
    expect(call(api, t.omar, 'POST', `${INV}/approve`, {}).body.code).toBe('forbidden');
  });

  describe('of a non-PO invoice', () => {
    function nonPo(total: number, enteredBy: 'omar' | 'hannah' = 'omar') {
      const c = entered();
      const token = c.t[enteredBy];
      ok(call(c.api, token, 'POST', '/ap-invoices', { vendor: 'V-0142', vendor_invoice_number: 'CAL-9', invoice_date: '2026-10-01', lines: [{ description: 'Calibration', qty: 1, unit_price: total, amount: total, account: '6500', department: 'OPS' }], total }), 'enter');
      ok(call(c.api, token, 'POST', '/ap-invoices/APINV-000002/validate', {}), 'validate');
      return c;
    }

    it('needs the approver\'s non_po_invoice limit', () => {
      const { api, t } = nonPo(4000);
      expect(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000002/approve', {}).body.status).toBe('approved');
    });

    it('refuses above the limit (over_limit), without one (forbidden), and to the person who entered it', () => {
      const c = nonPo(6000);
      expect(call(c.api, c.t.hannah, 'POST', '/ap-invoices/APINV-000002/approve', {}).body.code).toBe('over_limit');
      systemCall(c.api, 'POST', '/roles', { id: 'approver_no_limit', name: 'x', permissions: ['ap_invoice.approve'] });
      systemCall(c.api, 'POST', '/users/lena.park/roles', { roles: ['approver_no_limit'] });
      expect(call(c.api, c.t.lena, 'POST', '/ap-invoices/APINV-000002/approve', {}).body.code).toBe('forbidden');
      const own = nonPo(100, 'hannah');
      expect(call(own.api, own.t.hannah, 'POST', '/ap-invoices/APINV-000002/approve', {}).body.code).toBe('requester_cannot_approve');
    });
  });
});

describe('rejecting and voiding', () => {
  it('rejects an unposted invoice with a reason; nothing is owed', () => {
    const { api, t } = entered();
    const res = call(api, t.hannah, 'POST', `${INV}/reject`, { reason: 'not_our_po', note: 'Billed to another company.' });
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'not_our_po', open_amount: 0 });
    expect(call(api, t.hannah, 'POST', `${INV}/reject`, { reason: 'again' }).body.code).toBe('invalid_state');
  });

  it('refuses to reject a posted invoice: it is voided instead', () => {
    const { api, t } = validated();
    expect(call(api, t.hannah, 'POST', `${INV}/reject`, { reason: 'x' }).body.code).toBe('posted_document_immutable');
  });

  it('voids a posted invoice by reversing its validation today and putting the receipt back in GRNI', () => {
    const { erp, api, t } = validated();
    const res = call(api, t.hannah, 'POST', `${INV}/void`, { reason: 'duplicate', note: 'Entered twice.' });
    expect(res.body).toMatchObject({ status: 'voided', open_amount: 0, ap_balance: 0 });
    expect(gl(erp, 'ApInvoiceVoided')).toEqual([['2100', 0, 12000], ['2000', 12000, 0]]);
    expect(api.read.payables.grniMatched('PO-000001', 1)).toEqual({ qty: 0, value: 0 });
    expect(api.read.payables.apBalanceAsOf('2026-10-05')).toBe(0);
  });

  it('voids an unposted invoice without a posting', () => {
    const { erp, api, t } = entered();
    expect(call(api, t.hannah, 'POST', `${INV}/void`, { reason: 'entered_in_error' }).body.status).toBe('voided');
    expect(gl(erp, 'ApInvoiceVoided')).toEqual([]);
  });

  it('refuses to void an invoice partly paid, one proposed in a payment run, and one already voided', () => {
    const { api, t } = validated();
    ok(call(api, t.hannah, 'POST', `${INV}/approve`, {}), 'approve');
    ok(call(api, t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001', amount: 20 }] }), 'run');
    expect(call(api, t.hannah, 'POST', `${INV}/void`, { reason: 'x' }).body.detail).toMatch(/proposed in PR-000001/);
    ok(call(api, t.omar, 'POST', '/payment-runs/PR-000001/cancel', { reason: 'wrong_amount' }), 'cancel');
    ok(call(api, t.hannah, 'POST', `${INV}/pay`, { bank_account: 'BANK-OP', amount: 20 }), 'pay');
    expect(call(api, t.hannah, 'POST', `${INV}/void`, { reason: 'x' }).body.detail).toMatch(/only an unpaid invoice/);
    const other = entered();
    ok(call(other.api, other.t.hannah, 'POST', `${INV}/void`, { reason: 'x' }), 'void');
    expect(call(other.api, other.t.hannah, 'POST', `${INV}/void`, { reason: 'x' }).body.code).toBe('invalid_state');
  });
});

describe('writing off an open balance', () => {
  it('posts Dr AP, Cr the write-off account, and settles the invoice', () => {
    const { erp, api, t } = validated();
    const res = call(api, t.hannah, 'POST', `${INV}/write-off`, { amount: '20.00', reason: 'short_shipment_settled' });
    expect(res.body).toMatchObject({ written_off_amount: 20, open_amount: 100, status: 'matched' });
    expect(gl(erp, 'ApInvoiceWrittenOff')).toEqual([['2000', 2000, 0], ['4950', 0, 2000]]);
    expect(call(api, t.hannah, 'POST', `${INV}/write-off`, { reason: 'rest' }).body).toMatchObject({ open_amount: 0, status: 'paid', written_off_amount: 120 });
  });

  it('refuses more than is open, a balance not posted, and a user without the permission', () => {
    const { api, t } = entered();
    expect(call(api, t.hannah, 'POST', `${INV}/write-off`, { reason: 'x' }).body.code).toBe('invalid_state');
    ok(call(api, t.omar, 'POST', `${INV}/validate`, {}), 'validate');
    expect(call(api, t.hannah, 'POST', `${INV}/write-off`, { amount: '120.01', reason: 'x' }).body.code).toBe('exceeds_open_amount');
    expect(call(api, t.hannah, 'POST', `${INV}/write-off`, { amount: '-1', reason: 'x' }).body.code).toBe('invalid_request');
    expect(call(api, t.omar, 'POST', `${INV}/write-off`, { reason: 'x' }).body.code).toBe('forbidden');
  });
});
