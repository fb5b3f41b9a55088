import { call, openTestErp, systemCall } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables, tokenFor } from '../support/payables-fixture';

function invoicedReceipt(validate: boolean) {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  const invoice = ok(call(api, t.omar, 'POST', '/ap-invoices', sealsInvoice()), 'invoice').id as string;
  if (validate) ok(call(api, t.omar, 'POST', `/ap-invoices/${invoice}/validate`, {}), 'validate');
  systemCall(api, 'POST', '/roles', { id: 'receiving', name: 'Receiving', permissions: ['receipt.post'] });
  systemCall(api, 'POST', '/users', { id: 'rita.vance', name: 'Rita Vance', email: 'rita.vance@northgate.example', department: 'OPS', roles: ['receiving'] });
  return { api, rita: tokenFor(api, 'rita.vance') };
}

describe('a receipt whose goods an invoice has already matched', () => {
  it('cannot be reversed: GRNI would go below zero', () => {
    const { api, rita } = invoicedReceipt(true);
    const res = call(api, rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'received_in_error' });
    expect([res.status, res.body.code]).toEqual([409, 'invalid_state']);
    expect(res.body.detail).toBe('RCV-000001: 10 of PO-000001 line 1 is already matched by invoices; reverse or credit the invoice first.');
  });
});

describe('a receipt whose invoice is entered but not yet validated', () => {
  it('can still be reversed', () => {
    const { api, rita } = invoicedReceipt(false);
    expect(call(api, rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'received_in_error' }).status).toBe(200);
  });
});
