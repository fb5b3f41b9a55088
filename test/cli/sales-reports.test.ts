import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../src/api/server';
import { testWallClock } from '../support/erp';
import { order, seedSales, shipAndBill, stock, type SalesTokens } from '../support/sales-fixture';

const run = promisify(execFile);
const bin = join(__dirname, '..', '..', 'bin', 'run.js');
let server: RunningServer;
let t: SalesTokens;

beforeAll(async () => {
  server = await startServer({ dbFile: join(mkdtempSync(join(tmpdir(), 'bb-erp-cli-sales-')), 'erp.db'), controlToken: 'c', wallClock: testWallClock });
  t = seedSales(server.api);
  stock(server.api, t, 'VALVE-1', 'WH1', 100, '40.00');
  shipAndBill(server.api, t, order(server.api, t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }));
});
afterAll(async () => { await server.close(); });

const erp = async (args: string[]) => JSON.parse((await run(process.execPath, [bin, ...args], { env: { ...process.env, ERP_URL: server.url, ERP_TOKEN: t.ruth } })).stdout);

describe('erp report for receivables and sales', () => {
  it('prints the AR aging by customer and invoice, to the AR subledger', async () => {
    expect(await erp(['report', 'ar-aging', 'as_of=2026-11-20'])).toMatchObject({
      report: 'ar-aging', as_of: '2026-11-20', customers: [{ customer: 'C-1', '1_30': 804.38, total: 804.38, invoices: [{ invoice: 'ARINV-000001', days_past_due: 16 }] }], totals: { total: 804.38 },
    });
  });

  it('prints the sales margin by item', async () => {
    expect(await erp(['report', 'sales-margin', 'by=item'])).toMatchObject({ report: 'sales-margin', by: 'item', rows: [{ item: 'VALVE-1', qty: 10, revenue: 750, cost: 400, margin: 350 }] });
  });
});
