import { call, openTestErp } from '../support/erp';
import { seedBooks, seedVendor } from '../support/books-fixture';

function books() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}

const VENDOR = { id: 'V-0200', name: 'Tri-County Castings', terms: '2/10NET30', tin: '38-7654321', phone: '+1 555 0200', address: '9 Mill St', kind: 'both', default_expense_account: '6500' };

describe('a company with its books and no vendors yet', () => {
  it('creates a vendor under the id given, active, with its remit-to address defaulting to its address', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.hannah, 'POST', '/vendors', VENDOR);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'V-0200', status: 'active', quality_hold: false, remit_to: '9 Mill St', kind: 'both', created_by: 'hannah.brooks', remit_to_bank_account: null });
    expect(res.body.status_history).toEqual([{ status: 'active', date: '2026-10-05', by: 'hannah.brooks', reason: null, event_id: res.body.event_id }]);
  });

  it('creates a vendor inactive when asked, as onboarding does while papers are missing', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.hannah, 'POST', '/vendors', { ...VENDOR, status: 'inactive' }).body.status).toBe('inactive');
  });

  it('refuses a second vendor under an existing id', () => {
    const { api, tokens } = books();
    call(api, tokens.hannah, 'POST', '/vendors', VENDOR);
    expect(call(api, tokens.hannah, 'POST', '/vendors', VENDOR).body.code).toBe('already_exists');
  });

  it('refuses payment terms that are not defined', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.hannah, 'POST', '/vendors', { ...VENDOR, terms: 'NET45' });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
  });

  it('refuses a default expense account missing from the chart', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.hannah, 'POST', '/vendors', { ...VENDOR, default_expense_account: '6999' }).body.code).toBe('not_found');
  });

  it('refuses an id that is not a vendor id', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.hannah, 'POST', '/vendors', { ...VENDOR, id: 'ACME' }).status).toBe(400);
  });

  it('refuses vendor creation to a user without master_data.manage', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.lena, 'POST', '/vendors', VENDOR).body.code).toBe('forbidden');
  });
});

describe('an active vendor with a phone number on file', () => {
  function withVendor() {
    const b = books();
    seedVendor(b.api);
    return b;
  }

  it('updates the contact details, keeping the previous ones in the event', () => {
    const { erp, api, tokens } = withVendor();
    const res = call(api, tokens.hannah, 'POST', '/vendors/V-0142/contact', { phone: '+1 555 9999', source: 'MSG-3001' });
    expect(res.body).toMatchObject({ phone: '+1 555 9999', email: 'ar@midstate.example' });
    const row = erp.db.prepare(`SELECT data FROM events WHERE type = 'VendorContactUpdated'`).get() as { data: string };
    expect(JSON.parse(row.data)).toMatchObject({ vendor: 'V-0142', phone: '+1 555 9999', previous: { phone: '+1 555 0142' }, source: 'MSG-3001' });
  });

  it('refuses a contact update that changes nothing', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/contact', { note: 'just looking' }).body.code).toBe('invalid_request');
  });

  it('refuses a contact update of a vendor that does not exist', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0999/contact', { phone: '1' }).body.code).toBe('not_found');
  });

  it('deactivates and reactivates with reasons, recording each in the status history', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'sanctions_match' }).body.status).toBe('inactive');
    const res = call(api, tokens.hannah, 'POST', '/vendors/V-0142/activate', { reason: 'cleared_by_compliance' });
    expect(res.body.status).toBe('active');
    expect(res.body.status_history.map((h: any) => [h.status, h.reason])).toEqual([['active', null], ['inactive', 'sanctions_match'], ['active', 'cleared_by_compliance']]);
  });

  it('refuses to deactivate a vendor that is already inactive, or to activate an active one', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/activate', { reason: 'x' }).body.code).toBe('invalid_state');
    call(api, tokens.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'dormant' });
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'dormant' }).body.code).toBe('invalid_state');
  });

  it('refuses a status change to a user without vendor.manage', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.omar, 'POST', '/vendors/V-0142/deactivate', { reason: 'dormant' }).body.code).toBe('forbidden');
    expect(api.read.vendors.vendor('V-0142')!.status).toBe('active');
  });

  it('refuses a reason that is not a reason code', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'Because I said so' }).status).toBe(400);
  });

  it('sets and clears the quality hold with reasons, and lists vendors on hold', () => {
    const { api, tokens } = withVendor();
    seedVendor(api, 'V-0143', 'Allied Fittings');
    const set = call(api, tokens.hannah, 'POST', '/vendors/V-0142/quality-hold', { reason: 'failed_inspection' });
    expect(set.body).toMatchObject({ quality_hold: true, quality_hold_reason: 'failed_inspection' });
    const held = call(api, tokens.sam, 'GET', '/vendors', undefined, { query: { quality_hold: 'true' } });
    expect(held.body.items.map((v: any) => v.id)).toEqual(['V-0142']);
    const cleared = call(api, tokens.hannah, 'POST', '/vendors/V-0142/quality-hold/clear', { reason: 'corrective_action_accepted' });
    expect(cleared.body).toMatchObject({ quality_hold: false, quality_hold_reason: null });
    expect(cleared.body.quality_hold_history.map((h: any) => h.status)).toEqual(['hold_set', 'hold_cleared']);
  });

  it('refuses to set a hold twice or to clear a hold that is not set', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/quality-hold/clear', { reason: 'x' }).body.code).toBe('invalid_state');
    call(api, tokens.hannah, 'POST', '/vendors/V-0142/quality-hold', { reason: 'late_certs' });
    expect(call(api, tokens.hannah, 'POST', '/vendors/V-0142/quality-hold', { reason: 'late_certs' }).body.code).toBe('invalid_state');
  });

  it('finds vendors by TIN, for duplicate checks', () => {
    const { api, tokens } = withVendor();
    const res = call(api, tokens.sam, 'GET', '/vendors', undefined, { query: { tin: '41-1234567' } });
    expect(res.body).toMatchObject({ total: 1, items: [{ id: 'V-0142' }] });
  });

  it('answers 404 for a vendor that does not exist', () => {
    const { api, tokens } = withVendor();
    expect(call(api, tokens.sam, 'GET', '/vendors/V-0999').status).toBe(404);
  });
});

describe('status actions on a vendor that does not exist', () => {
  it.each(['deactivate', 'activate', 'quality-hold', 'quality-hold/clear'])('refuses %s with not_found', (action) => {
    const { api, tokens } = books();
    const res = call(api, tokens.hannah, 'POST', `/vendors/V-0999/${action}`, { reason: 'x' });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
  });
});
