import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../src/api/server';
import { advanceTo, ok } from '../support/books-fixture';
import { postedEntry, seedCloseBooks, type CloseTokens } from '../support/close-fixture';
import { call, testWallClock } from '../support/erp';
import { CONTROL_TOKEN } from '../support/http';

const run = promisify(execFile);
const bin = join(__dirname, '..', '..', 'bin', 'run.js');
let server: RunningServer;
let t: CloseTokens;

beforeAll(async () => {
  server = await startServer({ dbFile: join(mkdtempSync(join(tmpdir(), 'bb-erp-cli-close-')), 'erp.db'), controlToken: CONTROL_TOKEN, wallClock: testWallClock });
  t = seedCloseBooks(server.api, '2026-10-01');
  postedEntry(server.api, t, { date: '2026-10-15', memo: 'AP to aging', lines: [{ account: '2000', debit: '8.00' }, { account: '6500', credit: '8.00' }], attachments: [{ kind: 'file', ref: 'aging' }] });
  advanceTo(server.api, '2026-11-02');
  ok(call(server.api, t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-11-02', amount: '100.00', credit_account: '3000', reference: 'x' }), 'cash');
});
afterAll(async () => { await server.close(); });

async function erp(token: string, args: string[]) {
  const env = { ...process.env, ERP_URL: server.url, ERP_TOKEN: token };
  try {
    return { code: 0, out: JSON.parse((await run(process.execPath, [bin, ...args], { env })).stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: JSON.parse(e.stdout) };
  }
}

describe('the close through the erp command', () => {
  it("prints a month's trial balance as JSON", async () => {
    const res = await erp(t.grace, ['report', 'trial-balance', 'period=2026-10']);
    expect(res.code).toBe(0);
    expect(res.out).toMatchObject({ report: 'trial-balance', period: '2026-10', balanced: true, totals: { period_debit: 8, period_credit: 8 } });
  });

  it('prints the checklist, then exits 1 with the close_blocked problem when closing a month that does not tie', async () => {
    expect((await erp(t.grace, ['get', '/periods/2026-10/close-checklist'])).out).toMatchObject({ period: '2026-10', ready: false });
    const res = await erp(t.grace, ['post', '/periods/2026-10/close']);
    expect(res.code).toBe(1);
    expect(res.out).toMatchObject({ status: 409, code: 'close_blocked' });
  });

  it('prints the bank reconciliation report', async () => {
    const res = await erp(t.grace, ['report', 'bank-reconciliation', 'bank_account=BANK-OP']);
    expect(res.out.accounts[0]).toMatchObject({ bank_account: 'BANK-OP', book_balance: 100, deposits_in_transit: { total: 100 }, difference: 0 });
  });
});
