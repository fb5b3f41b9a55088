import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/api/server';
import { ErpClient } from '../../src/client/http-client';
import { seedCloseBooks, type CloseTokens } from '../support/close-fixture';
import { testWallClock } from '../support/erp';
import { CONTROL_TOKEN } from '../support/http';

let server: RunningServer;
let t: CloseTokens;
const as = (token: string) => new ErpClient({ baseUrl: server.url, token, timeoutMs: 10_000 });
const control = () => new ErpClient({ baseUrl: server.controlUrl, token: CONTROL_TOKEN, timeoutMs: 10_000 });

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-close-'));
  server = await startServer({ dbFile: join(dir, 'erp.db'), controlToken: CONTROL_TOKEN, wallClock: testWallClock });
  t = seedCloseBooks(server.api, '2026-10-01');
});
afterAll(async () => { await server.close(); });

async function must(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

describe("October's close over HTTP", () => {
  it('books the month, is refused while AP is plugged, closes once it ties, then refuses October postings', async () => {
    const lena = as(t.lena);
    const grace = as(t.grace);
    await must(lena.post('/bank-accounts/BANK-OP/deposits', { date: '2026-10-01', amount: '20000.00', credit_account: '3000', reference: 'Opening' }), 'cash');
    await must(lena.post('/fixed-assets', { description: 'Press', cost_account: '1500', accumulated_account: '1510', expense_account: '6700', cost: '6000.00', life_months: 60, in_service_date: '2025-12-15', source: 'opening', opening_accumulated: '900.00' }), 'asset');
    const accrual = await must(lena.post('/journal-entries', {
      date: '2026-10-31', memo: 'Accrued maintenance', auto_reverse_on: '2026-11-01', lines: [{ account: '6500', debit: '700.00', department: 'OPS' }, { account: '2300', credit: '700.00' }],
      attachments: [{ kind: 'file', ref: 'work-order-88' }],
    }, 'accrual-oct'), 'draft');
    const plug = await must(lena.post('/journal-entries', { date: '2026-10-20', memo: 'AP to aging', lines: [{ account: '2000', debit: '12.00' }, { account: '6500', credit: '12.00' }], attachments: [{ kind: 'file', ref: 'aging' }] }), 'plug');
    const press = await must(lena.post('/journal-entries', {
      date: '2026-10-01', memo: 'Press at cost less depreciation', lines: [{ account: '1500', debit: '6000.00' }, { account: '1510', credit: '900.00' }, { account: '3000', credit: '5100.00' }],
      attachments: [{ kind: 'file', ref: 'asset-register' }],
    }), 'press');
    for (const id of [accrual.id, plug.id, press.id]) {
      await must(lena.post(`/journal-entries/${id}/submit`, {}), 'submit');
      await must(grace.post(`/journal-entries/${id}/approve`, {}), 'approve');
    }
    await must(control().post('/control/advance', { to: '2026-11-02' }), 'advance');
    for (const id of [accrual.id, plug.id, press.id]) await must(lena.post(`/journal-entries/${id}/post`, {}), 'post');
    expect((await must(lena.post('/depreciation-runs', { period: '2026-10' }), 'depreciation')).total).toBe(100);
    for (const account of ['BANK-OP', 'BANK-PR']) await must(lena.post('/bank-reconciliations', { bank_account: account, as_of: '2026-10-31' }), account);

    const refused = await grace.post('/periods/2026-10/close', {});
    expect(refused.status).toBe(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'close_blocked', status: 409 });
    expect(refused.body.detail).toContain('2000 Accounts payable is -12.00 in the ledger and 0.00 in the ap subledger');

    await must(lena.post(`/journal-entries/${plug.id}/reverse`, { date: '2026-10-31', reason: 'plug_to_control_account' }), 'reverse the plug');
    const checklist = await must(grace.get('/periods/2026-10/close-checklist'), 'checklist');
    expect([checklist.ready, checklist.checks.filter((c: any) => !c.ok).map((c: any) => c.id)]).toEqual([true, []]);
    expect((await must(grace.post('/periods/2026-10/close', {}), 'close')).status).toBe('closed');

    const tb = await must(grace.get('/reports/trial-balance', { period: '2026-10' }), 'tb');
    expect(tb).toMatchObject({ period_status: 'closed', balanced: true });
    expect(tb.rows.find((r: any) => r.account === '2300')).toMatchObject({ opening_balance: 0, period_credit: 700, balance: 700 });
    const nov = await must(grace.get('/reports/trial-balance', { period: '2026-11' }), 'tb nov');
    expect(nov.rows.find((r: any) => r.account === '2300')).toMatchObject({ opening_balance: 700, period_debit: 700, balance: 0 });

    const late = await must(lena.post('/journal-entries', { date: '2026-10-31', memo: 'Late', lines: [{ account: '6100', debit: 5 }, { account: '2300', credit: 5 }], attachments: [{ kind: 'file', ref: 'x' }] }), 'late');
    await must(lena.post(`/journal-entries/${late.id}/submit`, {}), 'submit');
    await must(grace.post(`/journal-entries/${late.id}/approve`, {}), 'approve');
    const closed = await lena.post(`/journal-entries/${late.id}/post`, {});
    expect([closed.status, closed.body.code]).toEqual([409, 'period_closed']);
  });
});
