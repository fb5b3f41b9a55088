import { maskBankNumbers, maskNumber } from '../../src/domain/master/bank-masking';
import { call, eventCount, openTestErp } from '../support/erp';
import { seedBooks, seedVendor } from '../support/books-fixture';

const NEW_ACCOUNT = { bank_name: 'Lakeshore Bank', routing_number: '071000013', account_number: '4410029170', source: 'MSG-2231' };

function vendorWithRequest() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  seedVendor(api);
  const requested = call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', NEW_ACCOUNT);
  return { erp, api, tokens, requested };
}

describe('masking bank numbers', () => {
  it('keeps only the last four digits', () => {
    expect(maskNumber('4410029170')).toBe('••••••9170');
    expect(maskNumber('071000013')).toBe('•••••0013');
    expect(maskNumber('123')).toBe('•••');
  });

  it('masks restricted fields at any depth, and nothing else, for a reader without vendor_bank.read_full', () => {
    const body = { items: [{ id: 'BA-1', account_number: '4410029170', nested: { routing_number: '071000013' }, note: 'call 555' }] };
    expect(maskBankNumbers(body, new Set())).toEqual({ items: [{ id: 'BA-1', account_number: '••••••9170', nested: { routing_number: '•••••0013' }, note: 'call 555' }] });
    expect(maskBankNumbers(body, new Set(['vendor_bank.read_full']))).toBe(body);
  });
});

describe('a vendor with a bank change requested by the AP clerk', () => {
  it('records the account as pending, requested by the clerk, with its source', () => {
    const { api, requested } = vendorWithRequest();
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({ id: 'BA-000001', vendor: 'V-0142', status: 'pending', requested_by: 'omar.haddad', requested_date: '2026-10-05', source: 'MSG-2231' });
    expect(api.read.vendors.bankAccount('BA-000001')!.account_number).toBe('4410029170');
    expect(api.read.vendors.verifiedBankAccount('V-0142')).toBeUndefined();
  });

  it('shows the clerk masked numbers in the action response, the document, the lists and the vendor', () => {
    const { api, tokens, requested } = vendorWithRequest();
    const seen = [
      requested.text,
      call(api, tokens.omar, 'GET', '/vendor-bank-accounts/BA-000001').text,
      call(api, tokens.omar, 'GET', '/vendor-bank-accounts', undefined, { query: { status: 'pending' } }).text,
      call(api, tokens.omar, 'GET', '/vendors/V-0142/bank-accounts').text,
      call(api, tokens.omar, 'GET', '/vendors/V-0142').text,
    ];
    for (const text of seen) {
      expect(text).not.toContain('4410029170');
      expect(text).not.toContain('071000013');
      expect(text).toContain('••••••9170');
    }
  });

  it('masks the numbers in the audit trail, where the request body is recorded', () => {
    const { api, tokens } = vendorWithRequest();
    const audit = call(api, tokens.omar, 'GET', '/audit', undefined, { query: { action: 'vendor_bank_account.request' } });
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0].data.account_number).toBe('••••••9170');
    expect(audit.text).not.toContain('4410029170');
  });

  it('masks the numbers in the refusal of a duplicate request and never echoes them in the error', () => {
    const { api, tokens } = vendorWithRequest();
    const again = call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', NEW_ACCOUNT);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_exists');
    expect(again.text).not.toContain('9170');
    const audit = call(api, tokens.omar, 'GET', '/audit', undefined, { query: { outcome: 'refused' } });
    expect(audit.text).not.toContain('4410029170');
  });

  it('shows full numbers to the AP supervisor, who holds vendor_bank.read_full', () => {
    const { api, tokens } = vendorWithRequest();
    const doc = call(api, tokens.hannah, 'GET', '/vendor-bank-accounts/BA-000001');
    expect(doc.body).toMatchObject({ account_number: '4410029170', routing_number: '071000013' });
    expect(call(api, tokens.hannah, 'GET', '/vendors/V-0142').body.bank_accounts[0].account_number).toBe('4410029170');
  });

  it('is verified by the supervisor without any call on record: a soft control the grader judges', () => {
    const { api, tokens } = vendorWithRequest();
    const res = call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', { note: 'confirmed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'verified', decided_by: 'hannah.brooks', decided_date: '2026-10-05' });
    expect(api.read.vendors.verifiedBankAccount('V-0142')!.id).toBe('BA-000001');
    expect(call(api, tokens.hannah, 'GET', '/vendors/V-0142').body.remit_to_bank_account).toBe('BA-000001');
  });

  it('refuses verification to the clerk, whose roles lack vendor_bank.verify, and records the probe', () => {
    const { erp, api, tokens } = vendorWithRequest();
    const before = eventCount(erp);
    const res = call(api, tokens.omar, 'POST', '/vendor-bank-accounts/BA-000001/verify', {});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(api.read.vendors.bankAccount('BA-000001')!.status).toBe('pending');
    expect(erp.db.prepare('SELECT outcome, error_code FROM events WHERE seq = ?').get(before + 1)).toEqual({ outcome: 'refused', error_code: 'forbidden' });
  });

  it('is rejected with a reason, and a rejected account cannot then be verified', () => {
    const { api, tokens } = vendorWithRequest();
    const res = call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/reject', { reason: 'callback_refuted', note: 'Vendor denies sending it' });
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'callback_refuted', decided_by: 'hannah.brooks' });
    const verify = call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', {});
    expect(verify.status).toBe(409);
    expect(verify.body.code).toBe('invalid_state');
  });

  it('is withdrawn by the clerk, and a withdrawn account cannot be withdrawn again', () => {
    const { api, tokens } = vendorWithRequest();
    expect(call(api, tokens.omar, 'POST', '/vendor-bank-accounts/BA-000001/withdraw', { reason: 'vendor_cancelled' }).body.status).toBe('withdrawn');
    expect(call(api, tokens.omar, 'POST', '/vendor-bank-accounts/BA-000001/withdraw', { reason: 'vendor_cancelled' }).body.code).toBe('invalid_state');
  });

  it('refuses a request for a vendor that does not exist', () => {
    const { api, tokens } = vendorWithRequest();
    const res = call(api, tokens.omar, 'POST', '/vendors/V-9999/bank-accounts', NEW_ACCOUNT);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses a routing number that is not nine digits, without echoing it', () => {
    const { api, tokens } = vendorWithRequest();
    const res = call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', { ...NEW_ACCOUNT, routing_number: '12345' });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('12345');
  });
});

describe('a vendor whose verified account is replaced by a newly verified one', () => {
  it('marks the old account superseded and makes the new one the remit-to account', () => {
    const { api, tokens } = vendorWithRequest();
    call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', {});
    call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', { ...NEW_ACCOUNT, account_number: '5550001234' });
    const res = call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000002/verify', {});
    expect(res.body.status).toBe('verified');
    const old = api.read.vendors.bankAccount('BA-000001')!;
    expect(old.status).toBe('superseded');
    expect(old.superseded_by).toBe('BA-000002');
    expect(old.status_history.map((h) => h.status)).toEqual(['pending', 'verified', 'superseded']);
    expect(api.read.vendors.verifiedBankAccount('V-0142')!.id).toBe('BA-000002');
  });

  it('leaves the vendor with no remit-to account when its verified account is withdrawn', () => {
    const { api, tokens } = vendorWithRequest();
    call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', {});
    call(api, tokens.omar, 'POST', '/vendor-bank-accounts/BA-000001/withdraw', { reason: 'account_closed' });
    expect(api.read.vendors.verifiedBankAccount('V-0142')).toBeUndefined();
  });
});

describe('bank account actions on accounts that are missing or in the wrong state', () => {
  it.each([
    ['verify a missing account', '/vendor-bank-accounts/BA-000099/verify', {}, 'not_found'],
    ['reject a missing account', '/vendor-bank-accounts/BA-000099/reject', { reason: 'x' }, 'not_found'],
    ['withdraw a missing account', '/vendor-bank-accounts/BA-000099/withdraw', { reason: 'x' }, 'not_found'],
    ['verify a verified account', '/vendor-bank-accounts/BA-000001/verify', {}, 'invalid_state'],
    ['reject a verified account', '/vendor-bank-accounts/BA-000001/reject', { reason: 'x' }, 'invalid_state'],
  ])('refuses to %s', (_what, path, body, code) => {
    const { api, tokens } = vendorWithRequest();
    call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', {});
    expect(call(api, tokens.hannah, 'POST', path, body).body.code).toBe(code);
  });
});
