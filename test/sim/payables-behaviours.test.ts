import { advanceTo } from '../../src/api/control-app';
import '../../src/sim/behaviours/payables';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld, type World } from '../../src/sim/world';
import { call, issueToken, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

/** The payables company with an AP box and a vendor desk counterparty; the clock on Monday 2026-10-05. */
function world() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  systemCall(api, 'POST', '/message-boxes', { box: 'ap', address: 'ap@northgate.example', name: 'Accounts Payable' });
  systemCall(api, 'POST', '/roles', { id: 'vendor_desk', name: 'Vendor desk', permissions: ['messages.deliver', 'sim.script', 'dispute.answer'] });
  systemCall(api, 'POST', '/users', { id: 'sim.vendors', name: 'Vendor desk', email: 'vendors@sim.example', kind: 'counterparty', roles: ['vendor_desk'] });
  const w: World = emptyWorld('payables', 0);
  const credentials = { 'sim.vendors': issueToken(api, 'sim.vendors'), 'omar.haddad': t.omar, 'grace.lin': t.grace, 'first.bank': t.bank, 'hannah.brooks': t.hannah, 'lena.park': t.lena };
  w.users = Object.keys(credentials).sort();
  return { erp, api, t, w, credentials };
}
type W = ReturnType<typeof world>;

const events = (c: W, type: string) => c.erp.db.prepare('SELECT seq, actor, business_date, data FROM events WHERE type = ? ORDER BY seq').all(type)
  .map((r: any) => ({ ...r, data: JSON.parse(r.data) }));

describe('a vendor that bills receipts a business day later, 5% over its price, and sends a duplicate', () => {
  function billing(enterAs: string | null) {
    const c = world();
    givenReceivedSeals(c.erp);
    c.w.actors.vendors = {
      billing: {
        as: 'sim.vendors', ap_address: 'ap@northgate.example', enter_as: enterAs,
        vendors: { 'V-0142': { from: 'ar@midstate.example', delay_days: 1, number_prefix: 'INV-00', first_number: 7640, freight_cents: 1500, defects: [{ kind: 'price_uplift', bp: 500 }, { kind: 'duplicate', delay_days: 2, number_as: 'digits_only' }] } },
      },
    };
    return c;
  }

  it('mails the rendered invoice to AP and records the billed values in a confidential event', () => {
    const c = billing(null);
    advanceTo(c.api, '2026-10-05');
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    const [billed] = events(c, 'VendorInvoiceBilled');
    expect(billed).toMatchObject({ actor: 'sim.vendors', business_date: '2026-10-06' });
    expect(billed.data).toMatchObject({
      id: 'VB-000001', vendor: 'V-0142', invoice_number: 'INV-007640', invoice_date: '2026-10-06', po: 'PO-000001', source_type: 'receipt', source_id: 'RCV-000001',
      lines: [{ po_line: 1, item: 'SEAL-1', qty: 10, unit_price: 1260, amount: 12600 }], tax: 0, freight: 1500, total: 14100, defects: ['duplicate', 'price_uplift'], resubmission_of: null,
    });
    const message = call(c.api, c.t.omar, 'GET', `/messages/${billed.data.message}`).body;
    expect(message).toMatchObject({ box: 'ap', from_address: 'ar@midstate.example', subject: 'Invoice INV-007640', status: 'new' });
    const document = call(c.api, c.t.omar, 'GET', `/messages/${billed.data.message}/attachments/1`);
    expect(document.text ?? JSON.stringify(document.body)).toMatch(/INVOICE No\. INV-007640[\s\S]*\$12\.60[\s\S]*TOTAL DUE: \$141\.00/);
    const audit = call(c.api, c.t.grace, 'GET', '/audit', undefined, { query: { type: 'VendorInvoiceBilled' } }).body;
    expect(JSON.stringify(audit)).not.toMatch(/INV-007640/);
    expect(c.api.read.payables.invoice('APINV-000001')).toBeUndefined();
  });

  it('sends the same invoice again later with its number written another way, once', () => {
    const c = billing(null);
    advanceTo(c.api, '2026-10-12', createSimulator(c.w, c.credentials));
    const billed = events(c, 'VendorInvoiceBilled');
    expect(billed.map((b) => [b.business_date, b.data.invoice_number, b.data.invoice_date, b.data.resubmission_of])).toEqual([
      ['2026-10-06', 'INV-007640', '2026-10-06', null], ['2026-10-08', '7640', '2026-10-06', 'VB-000001'],
    ]);
  });

  it('has the AP clerk actor enter each document as billed when the profile names one', () => {
    const c = billing('omar.haddad');
    advanceTo(c.api, '2026-10-09', createSimulator(c.w, c.credentials));
    const [first, second] = [c.api.read.payables.invoice('APINV-000001')!, c.api.read.payables.invoice('APINV-000002')!];
    expect([first.vendor_invoice_number, first.total, first.created_by, first.source_message]).toEqual(['INV-007640', 14100, 'omar.haddad', events(c, 'VendorInvoiceBilled')[0].data.message]);
    expect([second.vendor_invoice_number, second.normalized_number]).toEqual(['7640', first.normalized_number]);
    expect(c.api.read.payables.lines('APINV-000001')).toMatchObject([{ po_line: 1, qty: 10, unit_price: 1260, amount: 12600 }]);
  });
});

describe('a vendor answering disputes', () => {
  it('credits its share of the disputed amount after its delay, or refuses', () => {
    const c = world();
    givenReceivedSeals(c.erp);
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'price_variance', amount: 20 }), 'dispute');
    c.w.actors.vendors = { disputes: { as: 'sim.vendors', vendors: { 'V-0142': { delay_days: 2, decision: 'credit', credit_bp: 5000, note: 'Half, as agreed.' } } } };
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    expect(c.api.read.apMemos.dispute('DSP-000001')!.status).toBe('open');
    advanceTo(c.api, '2026-10-07', createSimulator(c.w, c.credentials));
    expect(c.api.read.apMemos.dispute('DSP-000001')).toMatchObject({ status: 'resolved', credit: 'VCM-000001', answered_by: 'sim.vendors' });
    expect(c.api.read.apMemos.credit('VCM-000001')).toMatchObject({ amount: 1000, invoice: 'APINV-000001', vendor_reference: 'CM-000001' });
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/disputes', { reason: 'damaged', amount: 5 }), 'dispute');
    c.w.actors.vendors = { disputes: { as: 'sim.vendors', vendors: {}, default: { delay_days: 1, decision: 'refuse' } } };
    advanceTo(c.api, '2026-10-08', createSimulator(c.w, c.credentials));
    expect(c.api.read.apMemos.dispute('DSP-000002')!.status).toBe('refused');
  });
});

describe('a payment run submitted, an approver who releases, and a bank with a planted return and fee', () => {
  function submittedRun() {
    const c = world();
    givenReceivedSeals(c.erp);
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
    ok(call(c.api, c.t.hannah, 'POST', '/ap-invoices/APINV-000001/approve', {}), 'approve');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001' }] }), 'run');
    ok(call(c.api, c.t.omar, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
    c.w.actors.approvers = { payment_runs: { as: 'grace.lin', release: true } };
    return c;
  }

  it('is approved and released the next business day, and cleared by the bank the day after', () => {
    const c = submittedRun();
    c.w.actors.bank = { payments: { as: 'first.bank', fees: [{ date: '2026-10-07', bank_account: 'BANK-OP', amount_cents: 1500, description: 'Wire fee' }] } };
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    expect(c.api.read.payments.run('PR-000001')).toMatchObject({ status: 'released', approved_by: 'grace.lin', approved_date: '2026-10-06', released_by: 'grace.lin' });
    expect(c.api.read.payments.payment('PAY-000001')!.status).toBe('released');
    advanceTo(c.api, '2026-10-07', createSimulator(c.w, c.credentials));
    const payment = c.api.read.payments.payment('PAY-000001')!;
    expect([payment.status, payment.cleared_date]).toEqual(['cleared', '2026-10-07']);
    expect(c.api.read.cash.statementLine(payment.statement_line!)).toMatchObject({ kind: 'payment_cleared', amount: -12000, status: 'matched', matched: payment.bank_transaction });
    expect(c.api.read.cash.bookBalance('BANK-OP', '2026-10-07')).toBe(-12000 - 1500);
  });

  it('does not approve its own run, one above its limit, or one submitted today', () => {
    const c = submittedRun();
    c.w.actors.approvers = { payment_runs: { as: 'omar.haddad' } };
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    expect(c.api.read.payments.run('PR-000001')!.status).toBe('submitted');
    systemCall(c.api, 'POST', '/approval-limits', { subject_type: 'user', subject: 'grace.lin', document_type: 'payment_run', amount: 100 });
    c.w.actors.approvers = { payment_runs: { as: 'grace.lin' } };
    advanceTo(c.api, '2026-10-07', createSimulator(c.w, c.credentials));
    expect(c.api.read.payments.run('PR-000001')!.status).toBe('submitted');
  });

  it('returns a run whose release is refused to its preparer, with the refusal as the reason', () => {
    const c = submittedRun();
    c.w.actors.approvers = { payment_runs: { as: 'grace.lin', release: false } };
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'duplicate' }), 'hold');
    c.w.actors.approvers = { payment_runs: { as: 'grace.lin', release: true } };
    advanceTo(c.api, '2026-10-07', createSimulator(c.w, c.credentials));
    expect(c.api.read.payments.run('PR-000001')).toMatchObject({ status: 'returned', reason: 'invoice_on_hold' });
  });

  it('comes back when the bank returns the first payment to the vendor, and the invoice reopens', () => {
    const c = submittedRun();
    c.w.actors.bank = { payments: { as: 'first.bank', returns: [{ vendor: 'V-0142', reason: 'account_closed' }] } };
    advanceTo(c.api, '2026-10-07', createSimulator(c.w, c.credentials));
    expect(c.api.read.payments.payment('PAY-000001')).toMatchObject({ status: 'returned', reason: 'account_closed' });
    expect(c.api.read.payables.invoice('APINV-000001')).toMatchObject({ status: 'approved', open_amount: 12000 });
    expect(c.api.read.cash.bookBalance('BANK-OP', '2026-10-07')).toBe(0);
  });
});

describe('managers answering escalations and journal entries', () => {
  it('answer with the scenario\'s decision for the record and reason the next business day, and nothing else', () => {
    const c = world();
    systemCall(c.api, 'POST', '/roles', { id: 'escalator', name: 'x', permissions: ['escalation.raise'] });
    systemCall(c.api, 'POST', '/users/omar.haddad/roles', { roles: ['ap_clerk', 'payables_clerk', 'escalator'] });
    ok(call(c.api, c.t.omar, 'POST', '/escalations', { record_type: 'ap_invoice', record_id: 'APINV-000007', to: 'grace.lin', reason: 'price_variance' }), 'esc');
    ok(call(c.api, c.t.omar, 'POST', '/escalations', { record_type: 'ap_invoice', record_id: 'APINV-000008', to: 'grace.lin', reason: 'tax' }), 'esc');
    c.w.actors.managers = { escalations: [{ record_id: '*', reason: 'price_variance', decision: 'accept_variance', note: 'Within the contract.' }, { user: 'hannah.brooks', record_id: '*', reason: 'tax', decision: 'keep_hold' }] };
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    expect(c.api.read.escalations.escalation('ESC-000001')).toMatchObject({ status: 'answered', decision: 'accept_variance', answered_by: 'grace.lin', answered_date: '2026-10-06' });
    expect(c.api.read.escalations.escalation('ESC-000002')!.status).toBe('open');
  });

  it('approve a submitted entry with support and return one without', () => {
    const c = world();
    const entry = (attachments: object[]) => ok(call(c.api, c.t.lena, 'POST', '/journal-entries', {
      memo: 'Accrual', lines: [{ account: '6500', debit: 100, department: 'OPS' }, { account: '2300', credit: 100 }], attachments,
    }), 'je').id as string;
    const supported = entry([{ kind: 'report', ref: 'grni', description: 'GRNI as of month end' }]);
    const bare = entry([]);
    for (const id of [supported, bare]) ok(call(c.api, c.t.lena, 'POST', `/journal-entries/${id}/submit`, {}), 'submit');
    c.w.actors.managers = { journal_entries: { as: 'grace.lin' } };
    advanceTo(c.api, '2026-10-06', createSimulator(c.w, c.credentials));
    expect(c.api.read.journalEntries.entry(supported)!.status).toBe('approved');
    expect(c.api.read.journalEntries.entry(bare)).toMatchObject({ status: 'returned' });
    expect(c.api.read.journalEntries.entry(bare)!.status_history.at(-1)).toMatchObject({ status: 'returned', reason: 'missing_support', by: 'grace.lin' });
  });
});
