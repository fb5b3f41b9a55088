import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../src/api/server';
import { call, testWallClock } from '../support/erp';
import { seedManufacturing } from '../support/manufacturing-fixture';

const run = promisify(execFile);
const bin = join(__dirname, '..', '..', 'bin', 'run.js');

let server: RunningServer;
let owen: string;
beforeAll(async () => {
  server = await startServer({ dbFile: join(mkdtempSync(join(tmpdir(), 'bb-erp-mrp-cli-')), 'erp.db'), controlToken: 'control-secret', wallClock: testWallClock });
  owen = seedManufacturing(server.api).owen;
  call(server.api, owen, 'POST', '/forecasts', { item: 'VALVE-A', weeks: [{ week_start: '2026-10-12', qty: 25 }] });
});
afterAll(async () => { await server.close(); });

async function erp(args: string[]) {
  const { stdout } = await run(process.execPath, [bin, ...args], { env: { ...process.env, ERP_URL: server.url, ERP_TOKEN: owen } });
  return JSON.parse(stdout);
}

describe('the planner at the erp command', () => {
  it('runs MRP as seed 000 §7 writes it, lists the planned orders and releases one', async () => {
    const runOut = await erp(['post', '/mrp/runs', 'horizon_weeks=3']);
    expect(runOut).toMatchObject({ id: 'MRP-000001', horizon_weeks: 3, horizon_end: '2026-10-25', business_date: '2026-10-05' });
    const planned = await erp(['get', '/mrp/suggestions', 'kind=planned_wo', 'item=VALVE-A']);
    expect(planned.items.map((s: any) => [s.id, s.qty, s.need_date, s.firm])).toEqual([['MRP-000001-0001', 25, '2026-10-12', true]]);
    const released = await erp(['post', '/mrp/suggestions/MRP-000001-0001/release', '--key', 'rel-1']);
    expect(released).toMatchObject({ id: 'WO-000001', planned_order: 'MRP-000001-0001', qty: 25 });
    const report = await erp(['report', 'mrp-exceptions']);
    // With nothing on hand, the components of a valve needed on the 12th should have been ordered already, but for SUB-B's two days.
    expect(report.firm_planned_orders.map((s: any) => s.item)).toEqual(['SUB-B']);
    expect(report.late_planned_orders.map((s: any) => s.item)).toEqual(['BODY-1', 'BOLT-1', 'SEAL-1']);
  });
});
