import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerPartyDirectory } from '../../src/domain/comms/parties';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { appendGiven, call, openTestErp } from '../support/erp';
import { deliver, seedMailOrg } from '../support/comms-fixture';

const delivered = {
  type: 'MessageDelivered',
  data: {
    id: 'MSG-000001', box: 'ap', owner: null, from_address: 'ar@keystone-supply.example', from_name: 'Keystone Supply AR',
    to: ['ap@northgate.example'], cc: ['maya.chen@northgate.example'], subject: 'Invoice KS-10422', body: 'Attached.', sent_date: '2026-10-02',
    in_reply_to: null, thread_id: 'MSG-000001', related: [{ type: 'vendor', id: 'V-0142' }],
    attachments: [{ n: 1, filename: 'inv.txt', content_type: 'text/plain', encoding: 'utf8', content: 'INVOICE', size: 7 }],
  },
  allocated: { MSG: 1 },
};

function rows(erp: ReturnType<typeof openTestErp>['erp'], sql: string) {
  return erp.db.prepare(sql).all();
}

describe('a delivered message', () => {
  it('becomes a new inbound row with its recipients, attachment and link', () => {
    const { erp } = openTestErp();
    const [event] = appendGiven(erp, [{ ...delivered, businessDate: '2026-10-05' }]);
    expect(rows(erp, 'SELECT id, box, direction, status, sent_date, created_date, attachment_count, status_history FROM messages')).toEqual([{
      id: 'MSG-000001', box: 'ap', direction: 'inbound', status: 'new', sent_date: '2026-10-02', created_date: '2026-10-05', attachment_count: 1,
      status_history: JSON.stringify([{ status: 'new', date: '2026-10-05', by: 'system', reason: null, event_id: event!.seq }]),
    }]);
    expect(rows(erp, 'SELECT kind, address FROM message_recipients ORDER BY kind')).toEqual([
      { kind: 'cc', address: 'maya.chen@northgate.example' }, { kind: 'to', address: 'ap@northgate.example' },
    ]);
    expect(rows(erp, 'SELECT message_id, n, filename, size FROM message_attachments')).toEqual([{ message_id: 'MSG-000001', n: 1, filename: 'inv.txt', size: 7 }]);
    expect(rows(erp, 'SELECT * FROM message_links')).toEqual([{ message_id: 'MSG-000001', record_type: 'vendor', record_id: 'V-0142' }]);
  });

  it('keeps the first read date of a user and forgets it when marked unread', () => {
    const { erp } = openTestErp();
    appendGiven(erp, [delivered, { type: 'MessageRead', data: { message: 'MSG-000001', user: 'hannah.brooks' }, businessDate: '2026-10-05' }]);
    appendGiven(erp, [{ type: 'MessageRead', data: { message: 'MSG-000001', user: 'hannah.brooks' }, businessDate: '2026-10-06' }]);
    expect(rows(erp, 'SELECT user_id, read_date FROM message_reads')).toEqual([{ user_id: 'hannah.brooks', read_date: '2026-10-05' }]);
    appendGiven(erp, [{ type: 'MessageMarkedUnread', data: { message: 'MSG-000001', user: 'hannah.brooks' } }]);
    expect(rows(erp, 'SELECT * FROM message_reads')).toEqual([]);
  });

  it('takes each disposition as its status and keeps every one in dispositions', () => {
    const { erp } = openTestErp();
    const events = appendGiven(erp, [
      delivered,
      { type: 'MessageDispositioned', data: { message: 'MSG-000001', disposition: 'suspicious', ref: null, note: 'Look-alike domain.', by: 'hannah.brooks' } },
      { type: 'MessageDispositioned', data: { message: 'MSG-000001', disposition: 'rejected', ref: 'V-0142', note: '', by: 'hannah.brooks' } },
    ]);
    expect(rows(erp, 'SELECT status, disposition_ref, disposition_by FROM messages')).toEqual([{ status: 'rejected', disposition_ref: 'V-0142', disposition_by: 'hannah.brooks' }]);
    expect(rows(erp, 'SELECT event_id, disposition FROM dispositions ORDER BY event_id')).toEqual([
      { event_id: events[1]!.seq, disposition: 'suspicious' }, { event_id: events[2]!.seq, disposition: 'rejected' },
    ]);
  });
});

describe('call scripts planted twice for the same number, party and topic', () => {
  it('leave only the later one active', () => {
    const { erp } = openTestErp();
    const script = (id: string, outcome: string) => ({
      type: 'CallScriptPlanted',
      data: { id, number: '312-555-0142', number_digits: '3125550142', party_type: 'vendor', party_id: 'V-0142', topic: null, answered_by: '', outcome, facts: '' },
    });
    appendGiven(erp, [script('SCR-000001', 'refuted'), script('SCR-000002', 'confirmed')]);
    expect(rows(erp, 'SELECT id, status, replaced_by FROM call_scripts ORDER BY id')).toEqual([
      { id: 'SCR-000001', status: 'replaced', replaced_by: 'SCR-000002' }, { id: 'SCR-000002', status: 'active', replaced_by: null },
    ]);
  });
});

describe('an escalation raised and answered', () => {
  it('is one row with its decision and both statuses in its history', () => {
    const { erp } = openTestErp();
    appendGiven(erp, [
      { type: 'EscalationRaised', data: { id: 'ESC-000001', record_type: 'ap_invoice', record_id: 'APINV-1', raised_by: 'hannah.brooks', assignee: 'grace.lin', reason: 'price_variance', note: '' } },
      { type: 'EscalationAnswered', data: { id: 'ESC-000001', decision: 'keep_hold', note: 'Wait for the credit.', by: 'grace.lin' }, businessDate: '2026-10-06' },
    ]);
    expect(rows(erp, 'SELECT status, decision, answered_by, answered_date FROM escalations')).toEqual([
      { status: 'answered', decision: 'keep_hold', answered_by: 'grace.lin', answered_date: '2026-10-06' },
    ]);
  });
});

describe('a file with mail, dispositions, escalations and calls', () => {
  it('replays to communication tables equal to the live ones', () => {
    const restore = registerPartyDirectory('vendor', () => (id) => (id === 'V-0142' ? { type: 'vendor', id, name: 'Keystone Supply', phone: '312-555-0142', email: null } : undefined));
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-comms-')), 'live.db');
      const { erp, api } = openTestErp(file);
      const tokens = seedMailOrg(api);
      deliver(api, tokens.sim);
      call(api, tokens.hannah, 'POST', '/messages/MSG-000001/read', {});
      call(api, tokens.hannah, 'POST', '/messages/MSG-000001/forward', { to: ['maya.chen'], note: 'Price?' });
      call(api, tokens.hannah, 'POST', '/inbox/MSG-000001/disposition', { disposition: 'processed', ref: 'APINV-1' });
      call(api, tokens.hannah, 'POST', '/escalations', { record_type: 'ap_invoice', record_id: 'APINV-1', to: 'grace.lin', reason: 'price_variance' });
      call(api, tokens.grace, 'POST', '/escalations/ESC-000001/respond', { decision: 'accept_variance' });
      call(api, tokens.sim, 'POST', '/call-scripts', { number: '312-555-0142', outcome: 'refuted', facts: 'No change.' });
      call(api, tokens.hannah, 'POST', '/calls', { party_type: 'vendor', party_id: 'V-0142' });
      expect(erp.db.prepare('SELECT COUNT(*) AS n FROM calls').get()).toEqual({ n: 1 });
      const check = checkReplay(file, erp.db, createAppRegistry());
      expect(check.differingTables).toEqual([]);
      expect(check.equal).toBe(true);
    } finally {
      restore();
    }
  });
});
