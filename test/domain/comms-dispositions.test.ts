import { call, eventCount, openTestErp } from '../support/erp';
import { deliver, seedMailOrg } from '../support/comms-fixture';

function inboxWithMail() {
  const { erp, api } = openTestErp();
  const tokens = seedMailOrg(api);
  deliver(api, tokens.sim, { cc: ['maya.chen@northgate.example'] });
  return { erp, api, tokens };
}

describe('a new vendor email in the AP box', () => {
  it('is marked duplicate by the AP clerk, with the reference and note kept', () => {
    const { api, tokens } = inboxWithMail();
    const res = call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'duplicate', ref: 'APINV-5512', note: 'Same as KS-10422 entered on 10-01.' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('duplicate');
    expect(res.body.disposition).toEqual({ disposition: 'duplicate', ref: 'APINV-5512', note: 'Same as KS-10422 entered on 10-01.', by: 'hannah.brooks', date: '2026-10-05' });
    expect(res.body.status_history.map((h: any) => h.status)).toEqual(['new', 'duplicate']);
  });

  it('drops out of the new filter and shows under its disposition', () => {
    const { api, tokens } = inboxWithMail();
    deliver(api, tokens.sim, { subject: 'Invoice KS-10423' });
    call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'suspicious', note: 'Bank change from a look-alike domain.' });
    const list = (status: string) => call(api, tokens.hannah, 'GET', '/inbox', undefined, { query: { box: 'ap', status } }).body.items.map((m: any) => m.id);
    expect(list('new')).toEqual(['MSG-000002']);
    expect(list('suspicious')).toEqual(['MSG-000001']);
  });

  it('can be disposed again differently, and the history keeps both', () => {
    const { api, tokens } = inboxWithMail();
    call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'suspicious' });
    const res = call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'processed', ref: 'APINV-5513' });
    expect(res.body.status).toBe('processed');
    expect(api.read.messages.dispositions('MSG-000001').map((d) => [d.disposition, d.ref])).toEqual([['suspicious', null], ['processed', 'APINV-5513']]);
  });

  it('refuses the disposition it already has', () => {
    const { api, tokens } = inboxWithMail();
    call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'rejected' });
    const res = call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'rejected' });
    expect([res.status, res.body.code]).toEqual([409, 'invalid_state']);
  });

  it('refuses a disposition from a user who was only copied, and records the probe', () => {
    const { erp, api, tokens } = inboxWithMail();
    const res = call(api, tokens.maya, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'processed' });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    expect(erp.db.prepare('SELECT outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get()).toEqual({ outcome: 'refused', error_code: 'forbidden' });
    expect(api.read.messages.message('MSG-000001')!.status).toBe('new');
  });

  it('refuses a disposition from a user who cannot see it with not_found', () => {
    const { api, tokens } = inboxWithMail();
    const res = call(api, tokens.sam, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'processed' });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
  });

  it('refuses a disposition code outside the list', () => {
    const { erp, api, tokens } = inboxWithMail();
    const before = eventCount(erp);
    const res = call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'approved' });
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    expect(eventCount(erp)).toBe(before + 1);
  });
});

describe('a message the AP clerk sent', () => {
  it('takes no disposition', () => {
    const { api, tokens } = inboxWithMail();
    call(api, tokens.hannah, 'POST', '/messages', { box: 'ap', to: ['ar@keystone-supply.example'], subject: 'Copy please', body: 'Send a copy.' });
    const res = call(api, tokens.hannah, 'POST', '/inbox/MSG-000002/disposition', { disposition: 'processed' });
    expect([res.status, res.body.code]).toEqual([422, 'invalid_request']);
  });
});

describe('personal mail', () => {
  it('is disposed of by its owner', () => {
    const { api, tokens } = inboxWithMail();
    deliver(api, tokens.sim, { box: 'personal', owner: 'hannah.brooks', to: ['hannah.brooks@northgate.example'] });
    const res = call(api, tokens.hannah, 'POST', '/inbox/MSG-000002/disposition', { disposition: 'rejected', note: 'Not ours.' });
    expect(res.body.status).toBe('rejected');
  });
});
