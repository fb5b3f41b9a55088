import { registerPartyDirectory, type Party } from '../../src/domain/comms/parties';
import { call, openTestErp } from '../support/erp';
import { seedMailOrg } from '../support/comms-fixture';

const VENDORS: Record<string, Party> = {
  'V-0142': { type: 'vendor', id: 'V-0142', name: 'Keystone Supply', phone: '312-555-0142', email: 'ar@keystone-supply.example' },
  'V-0200': { type: 'vendor', id: 'V-0200', name: 'Allied Freight', phone: null, email: null },
};
// Master data registers the real vendor directory; these tests stand in a fixed one.
let restore: () => void;
beforeAll(() => { restore = registerPartyDirectory('vendor', () => (id) => VENDORS[id]); });
afterAll(() => restore());

const ON_FILE_SCRIPT = { number: '312-555-0142', party_type: 'vendor', party_id: 'V-0142', answered_by: 'Dana Moss, Keystone AR', outcome: 'refuted', facts: 'We have not changed our bank details.' };
const SPOOF_SCRIPT = { number: '(646) 555-0199', answered_by: 'Keystone Supply', outcome: 'confirmed', facts: 'Yes, please pay the new account from now on.' };

function withScripts() {
  const { erp, api } = openTestErp();
  const tokens = seedMailOrg(api);
  for (const script of [ON_FILE_SCRIPT, SPOOF_SCRIPT]) {
    const res = call(api, tokens.sim, 'POST', '/call-scripts', script);
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  const callEvent = (id: string) => erp.db.prepare(`SELECT data FROM events WHERE type = 'CallPlaced' AND object_id = ?`).get(id) as { data: string };
  return { erp, api, tokens, callData: (id: string) => JSON.parse(callEvent(id).data) };
}

describe('a vendor whose number on file answers that the bank details did not change', () => {
  it('is dialled on the number on file when the caller gives no number, and answers with its script', () => {
    const { api, tokens, callData } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', topic: { record_type: 'message', record_id: 'MSG-000007' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'CALL-000001', caller: 'hannah.brooks', party_type: 'vendor', party_id: 'V-0142', party_name: 'Keystone Supply', number_dialled: '312-555-0142',
      topic: { record_type: 'message', record_id: 'MSG-000007' }, answered_by: 'Dana Moss, Keystone AR', outcome: 'refuted', facts: 'We have not changed our bank details.',
    });
    expect(res.body.on_file).toBeUndefined();
    expect(callData('CALL-000001')).toMatchObject({ number_on_file: '312-555-0142', on_file: true, script: 'SCR-000001', number_digits: '3125550142' });
  });

  it('reaches whoever answers the number printed in a spoofed email when the caller dials that instead', () => {
    const { api, tokens, callData } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', number: '646.555.0199' });
    expect(res.body).toMatchObject({ number_dialled: '646.555.0199', outcome: 'confirmed', facts: 'Yes, please pay the new account from now on.' });
    expect(callData('CALL-000001')).toMatchObject({ on_file: false, number_on_file: '312-555-0142', script: 'SCR-000002' });
  });

  it('counts the number on file written another way as the number on file', () => {
    const { api, tokens, callData } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', number: '+1 (312) 555 0142' });
    expect(res.body.outcome).toBe('refuted');
    expect(callData('CALL-000001').on_file).toBe(true);
  });

  it('answers no_answer, with no facts, at a number no script covers', () => {
    const { api, tokens } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', number: '212-555-0000' });
    expect(res.body).toMatchObject({ outcome: 'no_answer', facts: '', answered_by: '' });
  });

  it('lets a script for one topic win over the number\'s general script, and only for that topic', () => {
    const { api, tokens } = withScripts();
    call(api, tokens.sim, 'POST', '/call-scripts', { ...ON_FILE_SCRIPT, topic: { record_type: 'ap_invoice', record_id: 'APINV-5519' }, outcome: 'confirmed', facts: 'Two deliveries, two invoices.' });
    const about = (record_id: string) => call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', topic: { record_type: 'ap_invoice', record_id } }).body.outcome;
    expect(about('APINV-5519')).toBe('confirmed');
    expect(about('APINV-5520')).toBe('refuted');
  });

  it('keeps a script planted for one party from answering calls about another party at that number', () => {
    const { api, tokens } = withScripts();
    VENDORS['V-0143'] = { type: 'vendor', id: 'V-0143', name: 'Keystone West', phone: '312-555-0142', email: null };
    try {
      expect(call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0143' }).body.outcome).toBe('no_answer');
    } finally {
      delete VENDORS['V-0143'];
    }
  });

  it('answers with the later script once a generator plants a new one for the same number and party', () => {
    const { api, tokens } = withScripts();
    call(api, tokens.sim, 'POST', '/call-scripts', { ...ON_FILE_SCRIPT, outcome: 'confirmed', facts: 'We did change banks; a letter follows.' });
    expect(call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142' }).body.facts).toBe('We did change banks; a letter follows.');
  });
});

describe('placing a call', () => {
  it.each([
    ['an unknown vendor', { party_type: 'vendor', party_id: 'V-9999' }, 404, 'not_found'],
    ['a customer, while no customer directory is registered', { party_type: 'customer', party_id: 'C-0001' }, 404, 'not_found'],
    ['a vendor with no number on file, without a number', { party_type: 'vendor', party_id: 'V-0200' }, 422, 'invalid_request'],
    ['a number with letters', { party_type: 'vendor', party_id: 'V-0142', number: 'call me' }, 400, 'invalid_request'],
  ])('is refused for %s', (_what, body, status, code) => {
    const { api, tokens } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/calls', body);
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(api.read.calls.call('CALL-000001')).toBeUndefined();
  });

  it('is refused to a user whose roles lack call.place', () => {
    const { api, tokens } = withScripts();
    expect(call(api, tokens.sam, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142' }).status).toBe(403);
  });

  it('reaches a colleague at the phone number on their user record', () => {
    const { api, tokens } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/calls', { party_type: 'user', party_id: 'hannah.brooks' });
    expect(res.body).toMatchObject({ party_name: 'Hannah Brooks', number_dialled: '(312) 555-0101', outcome: 'no_answer' });
  });

  it('lists the caller\'s own calls and hides them from others', () => {
    const { api, tokens } = withScripts();
    call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142' });
    expect(call(api, tokens.hannah, 'GET', '/calls').body.items.map((c: any) => [c.id, c.outcome])).toEqual([['CALL-000001', 'refuted']]);
    expect(call(api, tokens.hannah, 'GET', '/calls/CALL-000001').body.facts).toBe('We have not changed our bank details.');
    expect(call(api, tokens.grace, 'GET', '/calls/CALL-000001').status).toBe(404);
    expect(call(api, tokens.grace, 'GET', '/calls').body.total).toBe(0);
  });
});

describe('call scripts', () => {
  it('cannot be planted by an agent: forbidden, recorded as a probe, nothing stored', () => {
    const { erp, api, tokens } = withScripts();
    const res = call(api, tokens.hannah, 'POST', '/call-scripts', { number: '212-555-0000', outcome: 'confirmed', facts: 'All good.' });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    expect(erp.db.prepare('SELECT actor, action, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get())
      .toEqual({ actor: 'hannah.brooks', action: 'call_script.plant', outcome: 'refused', error_code: 'forbidden' });
    expect(erp.db.prepare('SELECT COUNT(*) AS n FROM call_scripts').get()).toEqual({ n: 2 });
  });

  it('have no route to read them', () => {
    const { api, tokens } = withScripts();
    expect(call(api, tokens.grace, 'GET', '/call-scripts').status).toBe(405);
    expect(call(api, tokens.grace, 'GET', '/call-scripts/SCR-000001').status).toBe(404);
  });

  it('show in the audit trail of an audit.read user without their facts', () => {
    const { api, tokens } = withScripts();
    const items = call(api, tokens.grace, 'GET', '/audit', undefined, { query: { action: 'call_script.plant' } }).body.items;
    expect(items.map((i: any) => [i.object_id, i.type, i.data])).toEqual([
      ['SCR-000001', 'CallScriptPlanted', { confidential: true }],
      ['SCR-000002', 'CallScriptPlanted', { confidential: true }],
    ]);
  });

  it('name both party_type and party_id, or neither', () => {
    const { api, tokens } = withScripts();
    const res = call(api, tokens.sim, 'POST', '/call-scripts', { number: '212-555-0000', party_type: 'vendor', outcome: 'confirmed', facts: '' });
    expect([res.status, res.body.code]).toEqual([422, 'invalid_request']);
  });
});
