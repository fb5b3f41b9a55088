import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../src/api/server';
import { call, systemCall, testWallClock } from '../support/erp';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

const run = promisify(execFile);
const bin = join(__dirname, '..', '..', 'bin', 'run.js');

let server: RunningServer;
let tokens: ReturnType<typeof seedPayables>;

beforeAll(async () => {
  server = await startServer({ dbFile: join(mkdtempSync(join(tmpdir(), 'bb-erp-call-')), 'erp.db'), controlToken: 'control', wallClock: testWallClock });
  tokens = seedPayables(server.api);
  // Halvorsen's code: the AP-exceptions environment, whose tools are its own seventeen.
  ok(systemCall(server.api, 'POST', '/company', { code: 'HDC', name: 'Halvorsen Distribution Co.', currency: 'USD', fiscal_year_start: '2026-01-01', workdays: [1, 2, 3, 4, 5] }), 'company');
  givenReceivedSeals(server.erp);
  ok(call(server.api, tokens.omar, 'POST', '/ap-invoices', sealsInvoice({ vendor_invoice_number: 'INV-007640' })), 'invoice');
  ok(systemCall(server.api, 'POST', '/work-items', { assigned_to: 'omar.haddad', record_type: 'ap_invoice', record_id: 'APINV-000001' }), 'queue');
});
afterAll(async () => { await server.close(); });

async function erp(token: string, args: string[], oclifOnly = false) {
  const env = { ...process.env, ERP_URL: server.url, ERP_TOKEN: token, ...(oclifOnly ? { ERP_CLI_OCLIF_ONLY: '1' } : {}) };
  try {
    const { stdout } = await run(process.execPath, [bin, 'call', ...args], { env });
    return { code: 0, body: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, body: JSON.parse(e.stdout) };
  }
}

describe('erp call against a live server', () => {
  it('lists the tools of /tools.json when no tool is named', async () => {
    const out = await erp(tokens.omar, []);
    expect(out.code).toBe(0);
    expect(out.body.toolset).toBe('ap-exceptions');
    expect(out.body.tools).toHaveLength(17);
    expect(out.body.tools.find((t: { name: string }) => t.name === 'place_hold').arguments).toEqual(['invoice_id', 'reason', 'note', 'idempotency_key']);
  });

  it('reads the caller\'s queue through list_queue', async () => {
    const out = await erp(tokens.omar, ['list_queue']);
    expect(out.body).toMatchObject({ user: 'omar.haddad', total: 1, items: [{ position: 1, record_id: 'APINV-000001', record: { vendor_invoice_number: 'INV-007640' } }] });
  });

  it('places a hold through place_hold, with the idempotency key it is given', async () => {
    const args = ['place_hold', 'invoice_id=APINV-000001', 'reason=duplicate', 'note=Repeats an earlier invoice', '--key', 'hold-1'];
    const out = await erp(tokens.omar, args);
    expect(out.code).toBe(0);
    expect(out.body).toMatchObject({ id: 'APINV-000001', status: 'on_hold', hold_reasons: ['duplicate'] });
    expect((await erp(tokens.omar, args, true)).body).toEqual(out.body);
    expect(server.api.read.payables.openHolds('APINV-000001')).toHaveLength(1);
  });

  it('sends text arguments as text, so a routing number keeps its leading zero, and exits 1 on a refusal', async () => {
    const out = await erp(tokens.maya, ['update_vendor_bank', 'vendor_id=V-0142', 'bank_name=Harbor Trust', 'routing=041000124', 'account=0099887766']);
    expect(out.code).toBe(1);
    expect(out.body).toMatchObject({ status: 403, code: 'forbidden' });
    const probe = server.erp.db.prepare("SELECT path, outcome, data FROM events WHERE action = 'vendor_bank_account.request' ORDER BY seq DESC LIMIT 1").get() as { path: string; outcome: string; data: string };
    expect(probe).toMatchObject({ path: '/vendors/V-0142/bank-accounts', outcome: 'refused' });
    expect(JSON.parse(probe.data)).toMatchObject({ routing_number: '041000124', account_number: '0099887766' });
  });

  it('exits 2 naming the tools when the tool does not exist, and the arguments when one is unknown', async () => {
    const unknown = await erp(tokens.omar, ['hold_invoice', 'invoice_id=APINV-000001']);
    expect(unknown).toMatchObject({ code: 2, body: { code: 'usage' } });
    expect(unknown.body.detail).toContain('place_hold');
    const badArg = await erp(tokens.omar, ['add_note', 'invoice=APINV-000001', 'text=x']);
    expect(badArg.code).toBe(2);
    expect(badArg.body.detail).toBe('add_note takes no argument invoice (it takes invoice_id, text, idempotency_key).');
  });

  it('prints the same through oclif as through the lean path', async () => {
    expect(await erp(tokens.omar, ['get_invoice', 'invoice_id=APINV-000001'], true)).toEqual(await erp(tokens.omar, ['get_invoice', 'invoice_id=APINV-000001']));
  });
});
