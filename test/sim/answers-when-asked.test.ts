import { advanceTo } from '../../src/api/control-app';
import { registerPartyDirectory, type Party } from '../../src/domain/comms/parties';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld, type ScheduledAction } from '../../src/sim/world';
import { deliver, INVOICE_MAIL, seedMailOrg } from '../support/comms-fixture';
import { call, openTestErp } from '../support/erp';

const KEYSTONE: Party = { type: 'vendor', id: 'V-0142', name: 'Keystone Supply', phone: '312-555-0142', email: 'ar@keystone-supply.example' };
let restore: () => void;
beforeAll(() => { restore = registerPartyDirectory('vendor', () => (id) => (id === KEYSTONE.id ? KEYSTONE : undefined)); });
afterAll(() => restore());

/** Keystone's invoice in the AP box, and Keystone's written answer scheduled for 2026-10-07, made only when asked about it. */
function answerScheduled() {
  const { api } = openTestErp();
  const tokens = seedMailOrg(api);
  const invoice = deliver(api, tokens.sim);
  const answer: ScheduledAction = {
    date: '2026-10-07', actor: 'vendors', as: 'sim.vendors', method: 'POST', path: '/messages/inbound', note: 'Keystone answers in writing',
    body: { ...INVOICE_MAIL, subject: 'Re: Invoice KS-10422', body: 'Each invoice bills its own delivery.', attachments: [] },
    when_asked: { party_type: 'vendor', party_id: KEYSTONE.id, messages: [invoice] },
  };
  const world = emptyWorld('mail', 0);
  world.users = ['sim.vendors'];
  world.scheduled.push(answer);
  const answers = () => (api.erp.db.prepare(`SELECT COUNT(*) AS n FROM messages WHERE subject = 'Re: Invoice KS-10422'`).get() as { n: number }).n;
  return { api, tokens, invoice, answers, advance: () => advanceTo(api, '2026-10-08', createSimulator(world, { 'sim.vendors': tokens.sim })) };
}

describe('a counterparty answer scheduled for when it is asked', () => {
  it('never comes when nobody asked, whatever free text was sent', () => {
    const s = answerScheduled();
    call(s.api, s.tokens.hannah, 'POST', '/messages', { box: 'ap', to: ['ar@keystone-supply.example'], subject: 'Duplicate?', body: 'Please confirm each invoice bills its own delivery.', in_reply_to: s.invoice });
    s.advance();
    expect(s.answers()).toBe(0);
  });

  it('comes when the party was called at the number on file about the document before the day', () => {
    const s = answerScheduled();
    expect(call(s.api, s.tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', topic: { record_type: 'message', record_id: s.invoice } }).status).toBe(201);
    s.advance();
    expect(s.answers()).toBe(1);
  });

  it('does not come for a call about another document, or to a number the party does not have on file', () => {
    const s = answerScheduled();
    call(s.api, s.tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', topic: { record_type: 'message', record_id: 'MSG-000099' } });
    call(s.api, s.tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142', number: '(646) 555-0199', topic: { record_type: 'message', record_id: s.invoice } });
    s.advance();
    expect(s.answers()).toBe(0);
  });
});
