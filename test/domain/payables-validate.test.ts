import { call, openTestErp, systemCall } from '../support/erp';
import { advanceTo } from '../support/books-fixture';
import { givenReceipt, givenReceivedSeals, givenSentPo, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

function company(received = 10) {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp, received);
  return { erp, api, t };
}

type Erp = ReturnType<typeof company>['erp'];

/** The postings of the last event of a type: [account, debit, credit] in cents. */
function postings(erp: Erp, type: string) {
  const seq = (erp.db.prepare('SELECT MAX(seq) AS s FROM events WHERE type = ?').get(type) as { s: number }).s;
  return (erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE event_id = ? ORDER BY line_no').all(seq) as { account: string; debit: number; credit: number }[])
    .map((l) => [l.account, l.debit, l.credit]);
}

const ties = (api: ReturnType<typeof company>['api'], token: string) =>
  call(api, token, 'GET', '/reports/control-ties').body.rows.filter((r: any) => ['ap', 'grni', 'cash'].includes(r.subledger)).map((r: any) => [r.subledger, r.difference]);

function enterAndValidate(c: ReturnType<typeof company>, invoice: object, validate: object = {}) {
  ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', invoice), 'enter');
  return call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', validate);
}

describe('an invoice billing exactly what was received at the PO price', () => {
  it('matches every line, posts Dr GRNI / Cr AP and takes the receipt out of GRNI', () => {
    const c = company();
    const res = enterAndValidate(c, sealsInvoice());
    expect(res.body).toMatchObject({ status: 'matched', posted: true, gl_date: '2026-10-05', match_result: 'matched', open_amount: 120, ap_balance: 120 });
    expect(res.body.lines[0].match).toMatchObject({ kind: 'goods', result: 'matched', exceptions: [], matched_qty: 10, matched_value: 120, price_variance: 0, quantity_variance: 0 });
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['2100', 12000, 0], ['2000', 0, 12000]]);
    expect(c.api.read.payables.grniMatched('PO-000001', 1)).toEqual({ qty: 10, value: 12000 });
    expect(ties(c.api, c.t.grace)).toEqual([['cash', 0], ['cash', 0], ['ap', 0], ['grni', 0]]);
  });

  it('posts freight and tax to their accounts and the AP credit at the total as billed', () => {
    const c = company();
    enterAndValidate(c, sealsInvoice({ freight: '15.00', tax: '9.90', total: '144.90' }));
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['2100', 12000, 0], ['5200', 1500, 0], ['2200', 990, 0], ['2000', 0, 14490]]);
  });
});

describe('an invoice with match exceptions', () => {
  it('reports a price above the tolerance and posts the difference to the price variance account', () => {
    const c = company();
    ok(call(c.api, c.t.hannah, 'POST', '/payables/policy', { price_tolerance_bp: 200 }), 'policy');
    const res = enterAndValidate(c, sealsInvoice({ total: '126.00' }, { unit_price: '12.60', amount: '126.00' }));
    expect(res.body.match_result).toBe('exceptions');
    expect(res.body.lines[0].match).toMatchObject({ result: 'price_variance', price_variance_bp: 500, matched_value: 120, price_variance: 6 });
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['2100', 12000, 0], ['5100', 600, 0], ['2000', 0, 12600]]);
  });

  it('accepts a price inside the tolerance as matched', () => {
    const c = company();
    ok(call(c.api, c.t.hannah, 'POST', '/payables/policy', { price_tolerance_bp: 200 }), 'policy');
    const res = enterAndValidate(c, sealsInvoice({ total: '121.80' }, { unit_price: '12.18', amount: '121.80' }));
    expect(res.body.lines[0].match).toMatchObject({ result: 'matched', price_variance_bp: 150, price_variance: 1.8 });
  });

  it('takes from GRNI only what was received: units billed beyond it go to quantity variance at PO price', () => {
    const c = company(8);
    const res = enterAndValidate(c, sealsInvoice());
    expect(res.body.lines[0].match).toMatchObject({ result: 'quantity_variance', available_qty: 8, matched_qty: 8, matched_value: 96, quantity_variance: 24, price_variance: 0 });
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['2100', 9600, 0], ['5110', 2400, 0], ['2000', 0, 12000]]);
    expect(c.api.read.receiving.receivedAsOf('PO-000001', 1, '2026-10-05').value - c.api.read.payables.grniMatched('PO-000001', 1).value).toBe(0);
    expect(ties(c.api, c.t.grace)).toEqual([['cash', 0], ['cash', 0], ['ap', 0], ['grni', 0]]);
  });

  it('finds nothing to match for goods not yet received: awaiting_receipt, GRNI untouched', () => {
    const c = company(0);
    const res = enterAndValidate(c, sealsInvoice());
    expect(res.body.lines[0].match).toMatchObject({ result: 'awaiting_receipt', exceptions: ['awaiting_receipt'], matched_qty: 0, quantity_variance: 120 });
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['5110', 12000, 0], ['2000', 0, 12000]]);
  });

  it('lets a second invoice match only what the first left in GRNI', () => {
    const c = company();
    enterAndValidate(c, sealsInvoice({ total: '72.00' }, { qty: 6, amount: '72.00' }));
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'MS-1002' })), 'second');
    const res = call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000002/validate', {});
    expect(res.body.lines[0].match).toMatchObject({ available_qty: 4, matched_qty: 4, matched_value: 48, quantity_variance: 72 });
    expect(c.api.read.payables.grniMatched('PO-000001', 1)).toEqual({ qty: 10, value: 12000 });
  });

  it('matches only receipts dated by the GL date', () => {
    const c = company(0);
    advanceTo(c.api, '2026-10-07');
    givenReceipt(c.erp, 'RCV-000001', 'PO-000001', [{ po_line: 1, item: 'SEAL-1', qty: 10, unit_price: 1200, account: '1300', stock: true }], '2026-10-07');
    const res = enterAndValidate(c, sealsInvoice(), { gl_date: '2026-10-06' });
    expect(res.body.lines[0].match).toMatchObject({ matched_qty: 0, result: 'awaiting_receipt' });
  });

  it('reports a line amount that is not quantity times price, and posts the header difference to price variance', () => {
    const c = company();
    const res = enterAndValidate(c, sealsInvoice({ total: '125.00' }, { amount: '121.00' }));
    expect(res.body.lines[0].match).toMatchObject({ exceptions: ['arithmetic'], arithmetic_difference: -1, price_variance: 1 });
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['2100', 12000, 0], ['5100', 500, 0], ['2000', 0, 12500]]);
  });
});

describe('invoices that do not go through receiving', () => {
  it('matches a services line to the PO alone and debits the PO line\'s account', () => {
    const c = company();
    givenSentPo(c.erp, 'PO-000002', [{ line: 1, item: 'CAL-SVC', qty: 1, unit_price: 45000, account: '6500' }]);
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', { vendor: 'V-0142', po: 'PO-000002', vendor_invoice_number: 'S-1', invoice_date: '2026-10-05', lines: [{ po_line: 1, qty: 1, unit_price: 450, amount: 450 }], total: 450 }), 'enter');
    const res = call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {});
    expect(res.body.lines[0].match).toMatchObject({ kind: 'services', result: 'matched', matched_qty: 1, matched_value: 450 });
    expect(postings(c.erp, 'ApInvoiceValidated')).toEqual([['6500', 45000, 0], ['2000', 0, 45000]]);
  });

  it('posts a non-PO invoice to the accounts and departments it is coded to', () => {
    const c = company();
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', {
      vendor: 'V-0142', vendor_invoice_number: 'RENT-11', invoice_date: '2026-10-01',
      lines: [{ description: 'November rent', qty: 1, unit_price: 2000, amount: 2000, account: '6100', department: 'OPS' }, { description: 'Repairs', qty: 1, unit_price: 150, amount: 150, account: '6500', department: 'PUR' }],
      total: 2150,
    }), 'enter');
    const res = call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {});
    expect(res.body.lines.map((l: any) => l.match.result)).toEqual(['non_po', 'non_po']);
    expect(c.erp.db.prepare(`SELECT account, debit, credit, department FROM gl_lines WHERE source_type = 'ApInvoiceValidated' ORDER BY line_no`).all()).toEqual([
      { account: '6100', debit: 200000, credit: 0, department: 'OPS' },
      { account: '6500', debit: 15000, credit: 0, department: 'PUR' },
      { account: '2000', debit: 0, credit: 215000, department: null },
    ]);
  });
});

describe('validation refused', () => {
  it('while a hold is open (invoice_on_hold), recorded as a probe', () => {
    const c = company();
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/holds', { reason: 'price_variance' }), 'hold');
    const res = call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {});
    expect([res.status, res.body.code]).toEqual([409, 'invoice_on_hold']);
    expect(c.erp.db.prepare('SELECT outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get()).toEqual({ outcome: 'refused', error_code: 'invoice_on_hold' });
    expect(c.api.read.payables.invoice('APINV-000001')!.posted).toBe(false);
  });

  it('for an invoice already validated, a GL date after today, a closed or missing period, a missing variance account', () => {
    const c = company();
    expect(enterAndValidate(c, sealsInvoice(), { gl_date: '2026-10-06' }).body.code).toBe('invalid_request');
    expect(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', { gl_date: '2026-09-30' }).body.code).toBe('period_closed');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
    expect(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}).body.code).toBe('invalid_state');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'X-2', total: '130.00' }, { amount: '130.00' })), 'second');
    systemCall(c.api, 'POST', '/accounts/5100/deactivate', { reason: 'merged' });
    expect(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000002/validate', {}).body.code).toBe('invalid_state');
    expect(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000404/validate', {}).body.code).toBe('not_found');
    expect(call(c.api, c.t.lena, 'POST', '/ap-invoices/APINV-000002/validate', {}).body.code).toBe('forbidden');
  });
});

describe('the match preview', () => {
  it('shows what validation would find, without changing anything', () => {
    const c = company(8);
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'enter');
    const res = call(c.api, c.t.omar, 'GET', '/ap-invoices/APINV-000001/match');
    expect(res.body).toMatchObject({ invoice: 'APINV-000001', gl_date: '2026-10-05', exceptions: ['quantity_variance'], lines: [{ matched_qty: 8, quantity_variance: 24 }] });
    expect(c.api.read.payables.invoice('APINV-000001')!.posted).toBe(false);
    expect(call(c.api, c.t.omar, 'GET', '/ap-invoices/APINV-000404/match').status).toBe(404);
  });
});
