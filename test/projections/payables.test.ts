import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { advanceTo } from '../support/books-fixture';
import { appendGiven, call, openTestErp, type GivenEvent } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

const line = { line: 1, po_line: 1, item: 'SEAL-1', description: 'Pump seal', qty: 10, unit_price: 1260, amount: 12600, account: null, department: null };
const billed = {
  vendor_invoice_number: 'INV-007640', normalized_number: '7640', invoice_date: '2026-10-01', lines: [line], tax: 0, freight: 0, total: 12600,
  terms: 'NET30', due_date: '2026-10-31', discount_date: null, discount_amount: 0,
};
const entered: GivenEvent = {
  type: 'ApInvoiceEntered', allocated: { APINV: 1 },
  data: { id: 'APINV-000001', vendor: 'V-0142', po: 'PO-000001', source_message: null, department: null, ...billed, note: '' },
};
const journalLine = (account: string, debit: number, credit: number) => ({ account, debit, credit, party_type: 'vendor' as const, party_id: 'V-0142', document_id: 'APINV-000001' });
const apMove = (amount: number, kind = 'invoice') => ({ vendor: 'V-0142', invoice: 'APINV-000001', kind, amount, document_type: 'ap_invoice', document_id: 'APINV-000001' });
const validated = (apAmount = 12600): GivenEvent => ({
  type: 'ApInvoiceValidated',
  data: {
    id: 'APINV-000001', vendor: 'V-0142', po: 'PO-000001', gl_date: '2026-10-05', price_tolerance_bp: 0, note: '',
    match: [{
      line: 1, po_line: 1, kind: 'goods', result: 'price_variance', exceptions: ['price_variance'], billed_qty: 10, billed_unit_price: 1260, billed_amount: 12600,
      arithmetic_difference: 0, po_unit_price: 1200, price_variance_bp: 500, available_qty: 10, matched_qty: 10, matched_value: 12000, price_variance: 600, quantity_variance: 0,
    }],
    arithmetic: { lines_total: 12600, tax: 0, freight: 0, computed_total: 12600, billed_total: 12600, difference: 0 },
    journal: { date: '2026-10-05', memo: 'AP invoice', lines: [journalLine('2100', 12000, 0), journalLine('5100', 600, 0), journalLine('2000', 0, 12600)] },
    ap: [apMove(apAmount)],
    grni: [{ po: 'PO-000001', po_line: 1, invoice: 'APINV-000001', qty: 10, value: 12000 }],
  },
});

function given() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  return { erp, api, t };
}

const rows = (erp: ReturnType<typeof given>['erp'], sql: string) => erp.db.prepare(sql).all();

describe('an invoice entered and validated, as events', () => {
  it('is one row as billed, its line with the stored match, and one AP and one GRNI movement', () => {
    const { erp, api } = given();
    appendGiven(erp, [entered, validated()]);
    expect(rows(erp, 'SELECT id, status, lifecycle, posted, normalized_number, total, open_amount, ap_balance, match_result, gl_date FROM ap_invoices')).toEqual([
      { id: 'APINV-000001', status: 'matched', lifecycle: 'matched', posted: 1, normalized_number: '7640', total: 12600, open_amount: 12600, ap_balance: 12600, match_result: 'exceptions', gl_date: '2026-10-05' },
    ]);
    expect(rows(erp, 'SELECT invoice, line, po, po_line, amount, match_result, matched_qty FROM ap_invoice_lines')).toEqual([
      { invoice: 'APINV-000001', line: 1, po: 'PO-000001', po_line: 1, amount: 12600, match_result: 'price_variance', matched_qty: 10 },
    ]);
    expect(rows(erp, 'SELECT date, period, vendor, invoice, kind, amount, source_type FROM ap_transactions')).toEqual([
      { date: '2026-10-05', period: '2026-10', vendor: 'V-0142', invoice: 'APINV-000001', kind: 'invoice', amount: 12600, source_type: 'ApInvoiceValidated' },
    ]);
    expect(rows(erp, 'SELECT date, invoice, po, po_line, qty, value FROM grni_matches')).toEqual([{ date: '2026-10-05', invoice: 'APINV-000001', po: 'PO-000001', po_line: 1, qty: 10, value: 12000 }]);
    expect(api.read.payables.apBalanceAsOf('2026-10-04')).toBe(0);
    expect(api.read.payables.apBalanceAsOf('2026-10-05')).toBe(12600);
  });

  it('cannot be written when its AP movements differ from what its journal posts to AP', () => {
    const { erp, api } = given();
    appendGiven(erp, [entered]);
    const before = erp.store.lastSeq();
    expect(() => appendGiven(erp, [validated(12000)])).toThrow(/AP movements \(12000\) differ from what its journal posts to AP \(12600\)/);
    expect(erp.store.lastSeq()).toBe(before);
    expect(api.read.payables.invoice('APINV-000001')!.posted).toBe(false);
  });

  it('cannot be written when its GRNI movements differ from what its journal takes out of GRNI', () => {
    const { erp } = given();
    const wrong = validated();
    (wrong.data as any).grni[0].value = 11000;
    expect(() => appendGiven(erp, [entered, wrong])).toThrow(/GRNI movements/);
  });

  it('is on hold from the hold event to its release, with the reasons open', () => {
    const { erp, api } = given();
    appendGiven(erp, [
      entered,
      { type: 'ApInvoiceHoldPlaced', data: { hold: 'HOLD-000001', invoice: 'APINV-000001', reason: 'price_variance', note: '' }, allocated: { HOLD: 1 } },
      { type: 'ApInvoiceHoldPlaced', data: { hold: 'HOLD-000002', invoice: 'APINV-000001', reason: 'tax', note: '' }, allocated: { HOLD: 2 } },
      { type: 'ApInvoiceHoldReleased', data: { hold: 'HOLD-000001', invoice: 'APINV-000001', reason: 'price_variance', note: 'approved' } },
    ]);
    expect(api.read.payables.invoice('APINV-000001')).toMatchObject({ status: 'on_hold', lifecycle: 'entered', open_holds: 1, hold_reasons: ['tax'] });
    expect(rows(erp, 'SELECT id, status, release_note FROM holds')).toEqual([
      { id: 'HOLD-000001', status: 'released', release_note: 'approved' }, { id: 'HOLD-000002', status: 'open', release_note: null },
    ]);
  });
});

describe('a payment run released, as events', () => {
  it('is a payment per vendor with its allocations, its bank transaction, and the invoice settled', () => {
    const { erp, api } = given();
    appendGiven(erp, [entered, validated(), { type: 'ApInvoiceApproved', data: { id: 'APINV-000001', open_amount: 12600, note: '' } }]);
    const item = { invoice: 'APINV-000001', vendor: 'V-0142', amount: 12600, discount: 0, open_amount: 12600, vendor_bank_account: 'BA-000001' };
    const payment = { id: 'PAY-000001', vendor: 'V-0142', vendor_bank_account: 'BA-000001', amount: 12600, discount: 0, allocations: [{ invoice: 'APINV-000001', amount: 12600, discount: 0 }] };
    const [, , released] = appendGiven(erp, [
      { type: 'PaymentRunCreated', data: { id: 'PR-000001', payment_date: '2026-10-05', bank_account: 'BANK-OP', note: '', items: [item] } },
      { type: 'PaymentRunSubmitted', data: { id: 'PR-000001', total: 12600, discount: 0, note: '' } },
      {
        type: 'PaymentRunReleased',
        data: {
          id: 'PR-000001', date: '2026-10-05', bank_account: 'BANK-OP', payments: [payment],
          journal: { date: '2026-10-05', memo: 'run', lines: [journalLine('2000', 12600, 0), { ...journalLine('1000', 0, 12600), document_id: 'PAY-000001' }] },
          cash: [{ bank_account: 'BANK-OP', amount: -12600, kind: 'payment', reference: 'PAY-000001' }],
          ap: [{ ...apMove(-12600, 'payment'), document_type: 'payment', document_id: 'PAY-000001' }],
        },
      },
    ]);
    expect(rows(erp, 'SELECT id, vendor, run, method, amount, status, vendor_bank_account, bank_transaction FROM payments')).toEqual([
      { id: 'PAY-000001', vendor: 'V-0142', run: 'PR-000001', method: 'run', amount: 12600, status: 'released', vendor_bank_account: 'BA-000001', bank_transaction: `BT-${String(released!.seq).padStart(6, '0')}-1` },
    ]);
    expect(rows(erp, 'SELECT payment, n, invoice, amount FROM payment_allocations')).toEqual([{ payment: 'PAY-000001', n: 1, invoice: 'APINV-000001', amount: 12600 }]);
    expect(rows(erp, 'SELECT run, invoice, status, payment FROM payment_run_items')).toEqual([{ run: 'PR-000001', invoice: 'APINV-000001', status: 'paid', payment: 'PAY-000001' }]);
    expect(api.read.payables.invoice('APINV-000001')).toMatchObject({ status: 'paid', paid_amount: 12600, open_amount: 0 });
  });
});

describe('a file with the whole AP cycle, refusals included', () => {
  it('replays to read models equal to the live ones', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-ap-')), 'live.db');
    const { erp, api } = openTestErp(file);
    const t = seedPayables(api);
    givenReceivedSeals(erp, 8);
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
    call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/approve', {});
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'quantity_variance' }), 'hold');
    ok(call(api, t.omar, 'POST', '/holds/HOLD-000001/release', { note: 'DM to follow' }), 'release');
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
    ok(call(api, t.omar, 'POST', '/debit-memos', { invoice: 'APINV-000001', lines: [{ po_line: 1, qty: 2 }], reason: 'not_received' }), 'dm');
    ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/approve', {}), 'approve');
    ok(call(api, t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001' }] }, { idempotencyKey: 'run-1' }), 'run');
    call(api, t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-05', bank_account: 'BANK-OP', items: [{ invoice: 'APINV-000001' }] }, { idempotencyKey: 'run-1' });
    ok(call(api, t.omar, 'POST', '/payment-runs/PR-000001/submit', {}), 'submit');
    call(api, t.omar, 'POST', '/payment-runs/PR-000001/approve', {});
    ok(call(api, t.hannah, 'POST', '/payment-runs/PR-000001/approve', {}), 'approve');
    ok(call(api, t.hannah, 'POST', '/payment-runs/PR-000001/release', {}), 'release');
    advanceTo(api, '2026-10-06');
    const line = ok(call(api, t.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-06', amount: -96, kind: 'payment_cleared', reference: 'PAY-000001' }), 'line').id;
    ok(call(api, t.bank, 'POST', '/payments/PAY-000001/clear', { statement_line: line }), 'clear');
    const check = checkReplay(file, erp.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
    expect(check.equal).toBe(true);
    expect(api.read.payments.runsWithStatus(['draft', 'submitted', 'approved', 'released']).map((r) => r.id)).toEqual(['PR-000001']);
  });
});
