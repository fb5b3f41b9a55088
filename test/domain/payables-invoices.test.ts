import { normalizeInvoiceNumber } from '../../src/domain/payables/numbers';
import { call, eventCount, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

function company() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  return { erp, api, t };
}

const lastEvent = (erp: ReturnType<typeof company>['erp']) =>
  erp.db.prepare('SELECT actor, outcome, error_code, type, data FROM events ORDER BY seq DESC LIMIT 1').get() as { actor: string; outcome: string; error_code: string | null; type: string | null; data: string };

describe('vendor invoice numbers', () => {
  it('normalize without punctuation, spaces, an INV prefix and leading zeros (seed 004)', () => {
    expect(['INV-007640', '7640', 'inv 7640', 'INV7640'].map(normalizeInvoiceNumber)).toEqual(['7640', '7640', '7640', '7640']);
    expect(normalizeInvoiceNumber('7694')).toBe('7694');
    expect(normalizeInvoiceNumber('KS-10422')).toBe('KS10422');
    expect(normalizeInvoiceNumber('INV-000')).toBe('0');
  });
});

describe('a received PO and its vendor on NET30', () => {
  it('enters an invoice exactly as billed, with due date from the terms', () => {
    const { api, t } = company();
    const res = call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'INV-007640', freight: '15.00', tax: '0', total: '136.00' }, { unit_price: '12.10', amount: '121.00' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'APINV-000001', vendor: 'V-0142', po: 'PO-000001', vendor_invoice_number: 'INV-007640', normalized_number: '7640', status: 'entered',
      lines_total: 121, freight: 15, total: 136, due_date: '2026-11-04', discount_date: null, discount_amount: 0, open_amount: 136, posted: false,
    });
    expect(res.body.lines).toMatchObject([{ line: 1, po_line: 1, item: 'SEAL-1', qty: 10, unit_price: 12.1, amount: 121 }]);
    expect(res.body.match_preview.exceptions).toEqual(['price_variance']);
  });

  it('takes the discount schedule from 2/10 NET30 terms', () => {
    const { api, t } = company();
    systemCall(api, 'POST', '/vendors', { id: 'V-0200', name: 'Coastline Fittings', terms: '2/10NET30', tin: '1', email: 'ar@coastline.example', phone: '1', address: 'x' });
    const res = call(api, t.omar, 'POST', '/ap-invoices', { vendor: 'V-0200', vendor_invoice_number: 'C-1', invoice_date: '2026-10-01', lines: [{ qty: 1, unit_price: 500, amount: 500, account: '6500', department: 'OPS' }], total: 500 });
    expect(res.body).toMatchObject({ due_date: '2026-10-31', discount_date: '2026-10-11', discount_amount: 10 });
  });

  it('accepts a second live invoice with the same number and lists it as a possible duplicate', () => {
    const { api, t } = company();
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: '7640' })), 'first');
    const second = call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'INV-007640' }));
    expect(second.status).toBe(201);
    expect(second.body.possible_duplicates).toEqual([{ id: 'APINV-000001', vendor_invoice_number: '7640', total: 120, status: 'entered', same_total: true }]);
    expect(call(api, t.omar, 'GET', '/ap-invoices', undefined, { query: { number: 'inv 7640' } }).body.total).toBe(2);
  });

  it.each([
    ['an unknown vendor', { vendor: 'V-9999' }, {}, 404, 'not_found'],
    ['an unknown PO', { po: 'PO-000404' }, {}, 404, 'not_found'],
    ['a PO line the PO does not have', {}, { po_line: 7 }, 404, 'not_found'],
    ['an unknown source message', { source_message: 'MSG-000404' }, {}, 404, 'not_found'],
    ['a total that is not positive', { total: '0' }, {}, 422, 'invalid_request'],
    ['a PO line coded to an account', {}, { account: '6500' }, 422, 'invalid_request'],
  ])('refuses %s', (_what, overrides, line, status, code) => {
    const { erp, api, t } = company();
    const before = eventCount(erp);
    const res = call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice(overrides, line));
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(eventCount(erp)).toBe(before + 1);
    expect(lastEvent(erp)).toMatchObject({ actor: 'omar.haddad', outcome: 'refused', error_code: code, type: null });
    expect(api.read.payables.invoice('APINV-000001')).toBeUndefined();
  });

  it('refuses a PO of another vendor, a line naming a PO line without a PO, and a non-PO line without an account or to a control account', () => {
    const { api, t } = company();
    systemCall(api, 'POST', '/vendors', { id: 'V-0300', name: 'Allied', terms: 'NET30', tin: '2', email: 'ar@allied.example', phone: '2', address: 'y' });
    expect(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor: 'V-0300' })).body.code).toBe('invalid_request');
    expect(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ po: undefined })).body.code).toBe('invalid_request');
    const nonPo = (line: object) => call(api, t.omar, 'POST', '/ap-invoices', { vendor: 'V-0142', vendor_invoice_number: 'R-1', invoice_date: '2026-10-01', lines: [{ qty: 1, unit_price: 10, amount: 10, ...line }], total: 10 });
    expect(nonPo({}).body.detail).toMatch(/code it to a GL account/);
    expect(nonPo({ account: '2000' }).body.detail).toMatch(/control account/);
    expect(nonPo({ account: '6999' }).body.code).toBe('not_found');
    expect(nonPo({ account: '6500', department: 'NOPE' }).body.code).toBe('not_found');
  });

  it('refuses a user without ap_invoice.enter', () => {
    const { api, t } = company();
    expect(call(api, t.lena, 'POST', '/ap-invoices', sealsInvoice()).body.code).toBe('forbidden');
  });
});

describe('an entered invoice', () => {
  function entered() {
    const c = company();
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice({ total: '144.00' }, { qty: 12, amount: '144.00' })), 'enter');
    return c;
  }

  it('is revised with the old billed values kept beside the new in the event', () => {
    const { erp, api, t } = entered();
    const res = call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/revise', { lines: [{ po_line: 1, qty: 10, unit_price: '12.00', amount: '120.00' }], total: '120.00', reason: 'match_po' });
    expect(res.body).toMatchObject({ total: 120, revisions: 1, lines: [{ qty: 10, amount: 120 }] });
    const event = lastEvent(erp);
    expect(event.type).toBe('ApInvoiceRevised');
    const data = JSON.parse(event.data);
    expect(data.previous).toMatchObject({ total: 14400, lines: [{ qty: 12, amount: 14400 }] });
    expect(data).toMatchObject({ total: 12000, reason: 'match_po', lines: [{ qty: 10, amount: 12000 }] });
    expect(event.actor).toBe('omar.haddad');
  });

  it('keeps billed values it is not given when revised', () => {
    const { api, t } = entered();
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/revise', { lines: [{ po_line: 1, qty: 12, unit_price: '12.00', amount: '144.00' }], freight: '5', total: '149.00' }), 'revise');
    const res = call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/revise', { lines: [{ po_line: 1, qty: 12, unit_price: '12.00', amount: '144.00' }], total: '149.00' });
    expect(res.body).toMatchObject({ freight: 5, total: 149, vendor_invoice_number: 'MS-1001', invoice_date: '2026-10-05' });
  });

  it('refuses a revision once posted, and once rejected', () => {
    const { api, t } = entered();
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
    const body = { lines: [{ po_line: 1, qty: 10, unit_price: '12.00', amount: '120.00' }], total: '120.00' };
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/revise', body).body.code).toBe('posted_document_immutable');
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'MS-2' })), 'second');
    ok(call(api, t.hannah, 'POST', '/ap-invoices/APINV-000002/reject', { reason: 'not_ours' }), 'reject');
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000002/revise', body).body.code).toBe('invalid_state');
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000404/revise', body).body.code).toBe('not_found');
  });

  it('takes notes, in order, with who wrote them', () => {
    const { api, t } = entered();
    ok(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/notes', { text: 'Asked the buyer about 2 extra units.' }), 'note');
    const res = call(api, t.hannah, 'POST', '/ap-invoices/APINV-000001/notes', { text: 'Buyer confirms 10 ordered.' });
    expect(res.body.notes.map((n: any) => [n.by, n.text])).toEqual([['omar.haddad', 'Asked the buyer about 2 extra units.'], ['hannah.brooks', 'Buyer confirms 10 ordered.']]);
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000404/notes', { text: 'x' }).body.code).toBe('not_found');
  });

  it('is flagged as the duplicate of another invoice of the vendor, and only once', () => {
    const { api, t } = entered();
    ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'MS1001' })), 'second');
    const res = call(api, t.omar, 'POST', '/ap-invoices/APINV-000002/flag-duplicate', { original: 'APINV-000001', note: 'Same number and total.' });
    expect(res.body).toMatchObject({ duplicate_of: 'APINV-000001', status: 'entered' });
    expect(res.body.links).toContainEqual({ rel: 'duplicate_of', type: 'ap_invoice', id: 'APINV-000001' });
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000002/flag-duplicate', { original: 'APINV-000001' }).body.code).toBe('invalid_state');
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/flag-duplicate', { original: 'APINV-000001' }).body.code).toBe('invalid_request');
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000001/flag-duplicate', { original: 'APINV-000404' }).body.code).toBe('not_found');
  });

  it('refuses to flag as duplicate an invoice of another vendor', () => {
    const { api, t } = entered();
    systemCall(api, 'POST', '/vendors', { id: 'V-0300', name: 'Allied', terms: 'NET30', tin: '2', email: 'ar@allied.example', phone: '2', address: 'y' });
    ok(call(api, t.omar, 'POST', '/ap-invoices', { vendor: 'V-0300', vendor_invoice_number: 'MS-1001', invoice_date: '2026-10-01', lines: [{ qty: 1, unit_price: 120, amount: 120, account: '6500' }], total: 120 }), 'other');
    expect(call(api, t.omar, 'POST', '/ap-invoices/APINV-000002/flag-duplicate', { original: 'APINV-000001' }).body.code).toBe('invalid_request');
  });
});
