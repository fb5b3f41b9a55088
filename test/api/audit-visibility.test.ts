import { call, issueToken, openTestErp, systemCall } from '../support/erp';
import { ok, seedBooks, seedVendor } from '../support/books-fixture';

/**
 * Seed 000 §7.2 and §9: the audit trail leaks nothing its reader could not read at the source.
 * Mid-State's bank account BA-000001 (routing 041000124, account 1234569170) is on file; a vendor
 * mails the AP box about it. Omar Haddad holds audit.read but not the AP box; Ava Reed holds
 * audit.read and the AP box but not vendor_bank.read_full; Hannah Brooks holds all three.
 */
function world() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  seedVendor(api);
  ok(call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', { bank_name: 'Dayton Savings', routing_number: '041000124', account_number: '1234569170', source: 'onboarding' }), 'bank account');
  ok(systemCall(api, 'POST', '/message-boxes', { box: 'ap', address: 'ap@northgate.example', name: 'Accounts payable' }), 'box');
  ok(systemCall(api, 'POST', '/roles', { id: 'ap_reader', name: 'AP mail reader', permissions: ['messages.read_ap', 'audit.read'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'mail_desk', name: 'Vendor mail', permissions: ['messages.deliver'] }), 'role');
  ok(systemCall(api, 'POST', '/users/ava.reed/roles', { roles: ['auditor', 'ap_reader'] }), 'ava');
  ok(systemCall(api, 'POST', '/users/hannah.brooks/roles', { roles: ['ap_supervisor', 'ap_reader'] }), 'hannah');
  ok(systemCall(api, 'POST', '/users', { id: 'sim.vendors', name: 'Vendor desk', email: 'vendors@sim.example', kind: 'counterparty', roles: ['mail_desk'] }), 'desk');
  const desk = issueToken(api, 'sim.vendors');
  const letter = 'Please pay us at routing 0410-00124, account 1234 569 170.\nThanks, Mid-State AR';
  const message = ok(call(api, desk, 'POST', '/messages/inbound', {
    box: 'ap', from: 'ar@midstate.example', to: ['ap@northgate.example'], subject: 'Our bank details', body: letter,
    attachments: [
      { filename: 'remit.txt', content: 'Routing: 041000124\nAccount: 1234569170\n' },
      { filename: 'remit.csv', encoding: 'base64', content: Buffer.from('routing,account\n041000124,1234569170\n').toString('base64') },
    ],
  }), 'deliver').id as string;
  return { erp, api, tokens, message };
}

const deliveryRow = (items: { action: string; data: any }[]) => items.find((e) => e.action === 'message.deliver')!;

describe('the audit trail read by a user who cannot open the AP box', () => {
  it('shows that the vendor delivered a message, but not what it said', () => {
    const { api, tokens, message } = world();
    const res = call(api, tokens.omar, 'GET', '/audit', undefined, { query: { actor: 'sim.vendors' } });
    expect(res.status).toBe(200);
    const row = deliveryRow(res.body.items);
    expect(row).toMatchObject({ object_type: 'message', object_id: message, data: { withheld: true, reason: `You may not read message ${message}.` } });
    expect(res.text).not.toContain('Mid-State AR');
    expect(res.text).not.toMatch(/1234.?569.?170|0410.?00124/);
  });
});

describe('the audit trail read by a user who can open the box but holds no bank grant', () => {
  it('shows the message with every bank number masked, in the body and in both attachments', () => {
    const { api, tokens } = world();
    const res = call(api, tokens.ava, 'GET', '/audit', undefined, { query: { actor: 'sim.vendors' } });
    const data = deliveryRow(res.body.items).data;
    expect(JSON.stringify(data)).toContain('Thanks, Mid-State AR');
    expect(res.text).not.toMatch(/1234.?569.?170|0410.?00124/);
    expect(data.body).toBe('Please pay us at routing •••••0124, account ••••••9170.\nThanks, Mid-State AR');
    const [text, csv] = data.attachments as { content: string }[];
    expect(text!.content).toBe('Routing: •••••0124\nAccount: ••••••9170\n');
    expect(Buffer.from(csv!.content, 'base64').toString('utf8')).toBe('routing,account\n•••••0124,••••••9170\n');
  });

  it('masks the same numbers in the message itself and in the bank-account request row', () => {
    const { api, tokens, message } = world();
    expect(call(api, tokens.ava, 'GET', `/messages/${message}`).text).not.toMatch(/1234.?569.?170|0410.?00124/);
    const requests = call(api, tokens.ava, 'GET', '/audit', undefined, { query: { actor: 'omar.haddad', action: 'vendor_bank_account.request' } });
    expect(requests.body.items).toHaveLength(1);
    expect(requests.text).not.toMatch(/1234569170|041000124/);
  });
});

describe('the audit trail read by a user with the box and the bank grant', () => {
  it('shows the message whole', () => {
    const { api, tokens } = world();
    const data = deliveryRow(call(api, tokens.hannah, 'GET', '/audit', undefined, { query: { actor: 'sim.vendors' } }).body.items).data;
    expect(data.body).toBe('Please pay us at routing 0410-00124, account 1234 569 170.\nThanks, Mid-State AR');
  });
});
