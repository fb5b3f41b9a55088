import { call, eventCount, openTestErp, systemCall } from '../support/erp';
import { deliver, INVOICE_MAIL, seedMailOrg } from '../support/comms-fixture';

function company() {
  const { erp, api } = openTestErp();
  const tokens = seedMailOrg(api);
  return { erp, api, tokens };
}

function lastRow(erp: ReturnType<typeof openTestErp>['erp']) {
  return erp.db.prepare('SELECT kind, actor, action, outcome, error_code, type FROM events ORDER BY seq DESC LIMIT 1').get();
}

describe('an AP box holding a vendor invoice email', () => {
  it('delivers it as MSG-000001, new, with its attachment listed and its links', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.sim, 'POST', '/messages/inbound', INVOICE_MAIL);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'MSG-000001', box: 'ap', direction: 'inbound', status: 'new', from_address: 'ar@keystone-supply.example', from_name: 'Keystone Supply AR',
      to: ['ap@northgate.example'], cc: [], sent_date: '2026-10-05', thread_id: 'MSG-000001', disposition: null,
      attachments: [{ n: 1, filename: 'invoice-KS-10422.txt', content_type: 'text/plain', encoding: 'utf8', size: 42 }],
      links: [{ rel: 'related', type: 'vendor', id: 'V-0142' }],
    });
  });

  it('shows it to the AP clerk in her inbox and in the ap box, unread', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim);
    for (const query of [{}, { box: 'ap' }]) {
      const res = call(api, tokens.hannah, 'GET', '/inbox', undefined, { query });
      expect(res.status).toBe(200);
      expect(res.body.items.map((m: any) => [m.id, m.subject, m.read])).toEqual([['MSG-000001', 'Invoice KS-10422', false]]);
      expect(res.body.items[0].body).toBeUndefined();
    }
  });

  it('hides it from a buyer who does not work the ap box: 404 for the message, as if it did not exist', () => {
    const { erp, api, tokens } = company();
    deliver(api, tokens.sim);
    expect(call(api, tokens.sam, 'GET', '/inbox').body.items).toEqual([]);
    const res = call(api, tokens.sam, 'GET', '/messages/MSG-000001');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(lastRow(erp)).toEqual({ kind: 'read', actor: 'sam.ortiz', action: 'get /messages/{id}', outcome: 'refused', error_code: 'not_found', type: null });
    expect(call(api, tokens.sam, 'GET', '/messages/MSG-000001/attachments/1').status).toBe(404);
  });

  it('refuses to list the ap box to a buyer with forbidden, and records the probe', () => {
    const { erp, api, tokens } = company();
    deliver(api, tokens.sim);
    const res = call(api, tokens.sam, 'GET', '/inbox', undefined, { query: { box: 'ap' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(res.body.detail).toContain('messages.read_ap');
    expect(lastRow(erp)).toEqual({ kind: 'read', actor: 'sam.ortiz', action: 'get /inbox', outcome: 'refused', error_code: 'forbidden', type: null });
  });

  it('keeps it out of the purchasing box', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim);
    expect(call(api, tokens.maya, 'GET', '/inbox', undefined, { query: { box: 'purchasing' } }).body.total).toBe(0);
  });

  it('lets only users with messages.deliver deliver mail', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.hannah, 'POST', '/messages/inbound', INVOICE_MAIL);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(api.read.messages.message('MSG-000001')).toBeUndefined();
  });
});

describe('read flags, kept per user', () => {
  function twoReaders() {
    const c = company();
    systemCall(c.api, 'POST', '/users/grace.lin/roles', { roles: ['controller', 'ap_clerk'] });
    deliver(c.api, c.tokens.sim);
    deliver(c.api, c.tokens.sim, { subject: 'Invoice KS-10423' });
    return c;
  }
  const unreadIds = (c: ReturnType<typeof twoReaders>, token: string) =>
    call(c.api, token, 'GET', '/inbox', undefined, { query: { box: 'ap', unread: 'true' } }).body.items.map((m: any) => m.id);

  it('does not mark a message read when it is fetched', () => {
    const c = twoReaders();
    expect(call(c.api, c.tokens.hannah, 'GET', '/messages/MSG-000001').body.read).toBe(false);
    expect(call(c.api, c.tokens.hannah, 'GET', '/messages/MSG-000001').body.read).toBe(false);
  });

  it('marks it read for the reader only', () => {
    const c = twoReaders();
    const res = call(c.api, c.tokens.hannah, 'POST', '/messages/MSG-000001/read', {});
    expect(res.status).toBe(200);
    expect(res.body.read).toBe(true);
    expect(unreadIds(c, c.tokens.hannah)).toEqual(['MSG-000002']);
    expect(unreadIds(c, c.tokens.grace)).toEqual(['MSG-000002', 'MSG-000001']);
    const read = call(c.api, c.tokens.hannah, 'GET', '/inbox', undefined, { query: { box: 'ap', unread: 'false' } }).body.items.map((m: any) => m.id);
    expect(read).toEqual(['MSG-000001']);
  });

  it('marks it unread again, and refuses to mark an unread message unread', () => {
    const c = twoReaders();
    call(c.api, c.tokens.hannah, 'POST', '/messages/MSG-000001/read', {});
    expect(call(c.api, c.tokens.hannah, 'POST', '/messages/MSG-000001/unread', {}).body.read).toBe(false);
    const again = call(c.api, c.tokens.hannah, 'POST', '/messages/MSG-000001/unread', {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
  });

  it('refuses to mark read a message the user cannot see', () => {
    const c = twoReaders();
    const res = call(c.api, c.tokens.sam, 'POST', '/messages/MSG-000001/read', {});
    expect(res.status).toBe(404);
    expect(c.api.read.messages.isRead('MSG-000001', 'sam.ortiz')).toBe(false);
  });
});

describe('personal mail', () => {
  it('is visible to its owner only', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim, { box: 'personal', owner: 'maya.chen', to: ['maya.chen@northgate.example'], subject: 'Lunch?' });
    expect(call(api, tokens.maya, 'GET', '/inbox', undefined, { query: { box: 'personal' } }).body.items.map((m: any) => m.subject)).toEqual(['Lunch?']);
    expect(call(api, tokens.hannah, 'GET', '/messages/MSG-000001').status).toBe(404);
    expect(call(api, tokens.hannah, 'GET', '/inbox').body.total).toBe(0);
  });

  it('reaches a user copied on a shared-box message, in her personal inbox', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim, { cc: ['Maya.Chen@northgate.example'] });
    const res = call(api, tokens.maya, 'GET', '/inbox', undefined, { query: { box: 'personal' } });
    expect(res.body.items.map((m: any) => [m.id, m.box, m.cc])).toEqual([['MSG-000001', 'ap', ['maya.chen@northgate.example']]]);
    expect(call(api, tokens.maya, 'GET', '/messages/MSG-000001').status).toBe(200);
  });

  it.each([
    [{ box: 'personal' }, 422, 'invalid_request'],
    [{ box: 'ap', owner: 'maya.chen' }, 422, 'invalid_request'],
    [{ box: 'personal', owner: 'nobody' }, 404, 'not_found'],
    [{ sent_date: '2026-10-06' }, 422, 'invalid_request'],
    [{ to: ['not-an-address@'] }, 422, 'invalid_request'],
    [{ in_reply_to: 'MSG-000099' }, 404, 'not_found'],
    [{ attachments: [{ filename: 'x.pdf', encoding: 'base64', content: 'not base64!' }] }, 422, 'invalid_request'],
  ])('refuses a delivery with %j', (overrides, status, code) => {
    const { erp, api, tokens } = company();
    const before = eventCount(erp);
    const res = call(api, tokens.sim, 'POST', '/messages/inbound', { ...INVOICE_MAIL, ...overrides });
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(eventCount(erp)).toBe(before + 1);
    expect(api.read.messages.message('MSG-000001')).toBeUndefined();
  });
});

describe('mail the AP clerk sends', () => {
  it('goes out from the ap box in reply to the vendor, threaded, and lands in a colleague\'s inbox', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim);
    const res = call(api, tokens.hannah, 'POST', '/messages', {
      box: 'ap', to: ['ar@keystone-supply.example'], cc: ['maya.chen'], subject: 'Re: Invoice KS-10422', body: 'Received, thank you.', in_reply_to: 'MSG-000001',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'MSG-000002', direction: 'outbound', box: 'ap', sender: 'hannah.brooks', from_address: 'ap@northgate.example', from_name: 'Accounts Payable',
      cc: ['maya.chen@northgate.example'], in_reply_to: 'MSG-000001', thread_id: 'MSG-000001', status: 'sent',
    });
    expect(call(api, tokens.hannah, 'GET', '/outbox').body.items.map((m: any) => m.id)).toEqual(['MSG-000002']);
    expect(call(api, tokens.hannah, 'GET', '/inbox').body.items.map((m: any) => m.id)).toEqual(['MSG-000001']);
    expect(call(api, tokens.maya, 'GET', '/inbox', undefined, { query: { box: 'personal' } }).body.items.map((m: any) => m.id)).toEqual(['MSG-000002']);
    expect(call(api, tokens.hannah, 'GET', '/messages/MSG-000001').body.links).toContainEqual({ rel: 'reply', type: 'message', id: 'MSG-000002' });
  });

  it('goes out from her own address by default', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.hannah, 'POST', '/messages', { to: ['grace.lin@northgate.example'], subject: 'Hold report', body: 'Three invoices on hold.' });
    expect(res.body).toMatchObject({ box: 'personal', from_address: 'hannah.brooks@northgate.example', from_name: 'Hannah Brooks', thread_id: 'MSG-000001' });
  });

  it.each([
    ['from a box she does not work', { box: 'purchasing' }, 403, 'forbidden'],
    ['to a user who does not exist', { to: ['nobody'] }, 404, 'not_found'],
    ['in reply to a message she cannot see', { in_reply_to: 'MSG-000009' }, 404, 'not_found'],
  ])('refuses a message %s', (_what, overrides, status, code) => {
    const { api, tokens } = company();
    const res = call(api, tokens.hannah, 'POST', '/messages', { to: ['ar@keystone-supply.example'], subject: 'x', body: 'y', ...overrides });
    expect([res.status, res.body.code]).toEqual([status, code]);
  });

  it('refuses sending to a user whose roles lack messages.send', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.sam, 'POST', '/messages', { to: ['ar@keystone-supply.example'], subject: 'x', body: 'y' });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('a forwarded invoice email', () => {
  it('carries the note, the original text and its attachments, from the ap box', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim);
    const res = call(api, tokens.hannah, 'POST', '/messages/MSG-000001/forward', { to: ['maya.chen'], note: 'Is this price right?' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'MSG-000002', box: 'ap', subject: 'Fwd: Invoice KS-10422', forward_of: 'MSG-000001', to: ['maya.chen@northgate.example'] });
    expect(res.body.body).toMatch(/^Is this price right\?\n\n---------- Forwarded message ----------\nFrom: Keystone Supply AR <ar@keystone-supply.example>\n/);
    expect(res.body.body.endsWith('Please find our invoice attached.')).toBe(true);
    expect(res.body.links).toEqual([{ rel: 'related', type: 'vendor', id: 'V-0142' }, { rel: 'forward_of', type: 'message', id: 'MSG-000001' }]);
    const file = call(api, tokens.maya, 'GET', '/messages/MSG-000002/attachments/1');
    expect(file.body.content).toBe(INVOICE_MAIL.attachments[0]!.content);
  });

  it('cannot be made from a message the sender cannot see', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim);
    const res = call(api, tokens.maya, 'POST', '/messages/MSG-000001/forward', { to: ['sam.ortiz'] });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
  });
});

describe('attachments', () => {
  it('are returned as JSON with filename, content type, encoding and content', () => {
    const { api, tokens } = company();
    const pdf = Buffer.from('%PDF-1.4 fake').toString('base64');
    deliver(api, tokens.sim, { attachments: [INVOICE_MAIL.attachments[0], { filename: 'scan.pdf', content_type: 'application/pdf', encoding: 'base64', content: pdf }] });
    const res = call(api, tokens.hannah, 'GET', '/messages/MSG-000001/attachments/2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'MSG-000001', n: 2, filename: 'scan.pdf', content_type: 'application/pdf', encoding: 'base64', size: 13, content: pdf });
    expect(Buffer.from(res.body.content, 'base64').toString()).toBe('%PDF-1.4 fake');
  });

  it('answer 404 for a number the message does not have', () => {
    const { api, tokens } = company();
    deliver(api, tokens.sim);
    expect(call(api, tokens.hannah, 'GET', '/messages/MSG-000001/attachments/2').status).toBe(404);
    expect(call(api, tokens.hannah, 'GET', '/messages/MSG-000001/attachments/one').status).toBe(404);
  });
});

describe('a box with this week\'s mail after older mail', () => {
  function threeWeeks() {
    const c = company();
    for (const [subject, date] of [['Invoice 1', '2026-09-21'], ['Invoice 3', '2026-10-05'], ['Invoice 2', '2026-09-28']] as const) deliver(c.api, c.tokens.sim, { subject, sent_date: date });
    return c;
  }
  const subjects = (c: ReturnType<typeof threeWeeks>, query: Record<string, string>) => {
    const res = call(c.api, c.tokens.hannah, 'GET', '/inbox', undefined, { query: { box: 'ap', ...query } });
    return res.status === 200 ? res.body.items.map((m: any) => m.subject) : res.body;
  };

  it('lists the newest first by default, and the oldest first with sort=sent_date', () => {
    const c = threeWeeks();
    expect(subjects(c, {})).toEqual(['Invoice 3', 'Invoice 2', 'Invoice 1']);
    expect(subjects(c, { sort: 'sent_date' })).toEqual(['Invoice 1', 'Invoice 2', 'Invoice 3']);
  });

  it('keeps the mail sent on or after since=', () => {
    expect(subjects(threeWeeks(), { since: '2026-09-28' })).toEqual(['Invoice 3', 'Invoice 2']);
  });

  it('refuses a sort on a field the messages do not have, naming the fields they do', () => {
    const problem = subjects(threeWeeks(), { sort: '-colour' });
    expect(problem.code).toBe('invalid_request');
    expect(problem.detail).toMatch(/^sort: the rows cannot be ordered by colour; fields: id, .*sent_date/);
  });
});
