import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/events/database';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { ErpClient } from '../../src/client/http-client';
import { seedSmallOrg } from '../../src/sim/small-company';
import { openTestErp } from '../support/erp';

const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const WRITES = 1000;
const CLIENTS = 8;

function startServer(db: string): Promise<{ child: ChildProcess; url: string; controlUrl: string }> {
  const child = spawn(process.execPath, [bin, 'server', 'start', '--db', db, '--control-token', 'crash'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const line = buf.split('\n')[0];
      if (buf.includes('\n')) {
        const info = JSON.parse(line!) as { agent_url: string; control_url: string };
        resolve({ child, url: info.agent_url, controlUrl: info.control_url });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

describe('a server killed with SIGKILL in the middle of concurrent writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-crash-'));
  const db = join(dir, 'erp.db');
  let acknowledged: string[] = [];
  let restarted: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    const { erp, api } = openTestErp(db);
    const tokens = seedSmallOrg(api);
    erp.close();
    const first = await startServer(db);
    let sent = 0;
    let killed = false;
    const client = () => new ErpClient({ baseUrl: first.url, token: tokens.grace, keepAlive: true, timeoutMs: 5000 });
    const worker = async (c: ErpClient) => {
      while (sent < WRITES && !killed) {
        const n = sent++;
        try {
          const res = await c.post('/leaves', { user: 'sam.ortiz', start_date: '2027-01-04', end_date: '2027-01-08', delegate: 'maya.chen' }, `crash-${n}`);
          if (res.status === 201) acknowledged.push((res.body as { id: string }).id);
        } catch {
          /* the server died under this request: it was never acknowledged */
        }
        if (!killed && acknowledged.length >= WRITES / 3) {
          killed = true;
          process.kill(-first.child.pid!, 'SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, () => worker(client())));
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode !== null ? r(null) : first.child.once('exit', r)));
    acknowledged = [...new Set(acknowledged)];
    restarted = await startServer(db);
  }, 60_000);

  afterAll(async () => {
    await new ErpClient({ baseUrl: restarted.controlUrl, token: 'crash' }).post('/control/shutdown', {}).catch(() => undefined);
  });

  it('was killed before all writes were sent', () => {
    expect(acknowledged.length).toBeGreaterThanOrEqual(WRITES / 3);
    expect(acknowledged.length).toBeLessThan(WRITES);
  });

  it('restarts cleanly on the same file', async () => {
    const health = await new ErpClient({ baseUrl: restarted.controlUrl, token: 'crash' }).get('/control/health');
    expect(health.status).toBe(200);
  });

  it('kept every write a client was told had succeeded', () => {
    const conn = openDatabase(db, { readonly: true });
    const ids = new Set((conn.prepare(`SELECT object_id FROM events WHERE type = 'LeaveScheduled'`).all() as { object_id: string }[]).map((r) => r.object_id));
    conn.close();
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('has no event without all of its read-model effects: replay equals live', () => {
    const conn = openDatabase(db, { readonly: true });
    const check = checkReplay(db, conn, createAppRegistry());
    conn.close();
    expect(check.differingTables).toEqual([]);
  });
});
