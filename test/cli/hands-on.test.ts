import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { seedSmallOrg } from '../../src/sim/small-company';
import { openTestErp } from '../support/erp';

/** A person plays a scenario by hand: a server started with tokens for them, the erp client, and the reference offline. */
const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const dir = mkdtempSync(join(tmpdir(), 'bb-erp-hands-on-'));
const clean = join(dir, 'clean.db');
{
  const { erp, api } = openTestErp(clean);
  seedSmallOrg(api);
  erp.db.pragma('journal_mode = DELETE');
  erp.close();
}

/** `erp ARGS` as a person types it, with only the variables given (no ERP_URL unless given). */
async function erp(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: any }> {
  const base = { PATH: process.env.PATH ?? '', HOME: dir };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: dir, env: { ...base, ...env } });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout ? JSON.parse(e.stdout) : undefined };
  }
}

describe('erp server start --issue-token', () => {
  let server: ChildProcess;
  let line: { agent_url: string; control_url: string; control_token: string; tokens: Record<string, string> };

  beforeAll(async () => {
    server = spawn(process.execPath, [bin, 'server', 'start', '--db', join(dir, 'play.db'), '--reset-from', clean, '--issue-token', 'maya.chen', '--issue-token', 'grace.lin'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const first = await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve));
    line = JSON.parse(first);
  }, 60_000);

  afterAll(() => server?.kill('SIGTERM'));

  it('given two users, then the JSON line holds a token for each, and each signs in as its user', async () => {
    expect(Object.keys(line.tokens).sort()).toEqual(['grace.lin', 'maya.chen']);
    const me = await erp(['whoami'], { ERP_URL: line.agent_url, ERP_TOKEN: line.tokens['maya.chen']! });
    expect(me).toMatchObject({ code: 0, out: { user: { id: 'maya.chen' } } });
    expect((await erp(['whoami'], { ERP_URL: line.agent_url, ERP_TOKEN: line.tokens['grace.lin']! })).out.user.id).toBe('grace.lin');
  });

  it('given a turn played by hand, then its writes are in the log under the person\'s user', async () => {
    const env = { ERP_URL: line.agent_url, ERP_TOKEN: line.tokens['grace.lin']! };
    const made = await erp(['post', '/leaves', 'user=sam.ortiz', 'start_date=2026-11-02', 'end_date=2026-11-03', 'delegate=maya.chen', '--key', 'by-hand-1'], env);
    expect(made.code).toBe(0);
    const log = new Database(join(dir, 'play.db'), { readonly: true });
    try {
      expect(log.prepare("SELECT actor, outcome, idempotency_key FROM events WHERE action = 'leave.schedule'").all()).toEqual([{ actor: 'grace.lin', outcome: 'ok', idempotency_key: 'by-hand-1' }]);
    } finally {
      log.close();
    }
  });

  it('when the control port resets the file, then the same tokens still sign in', async () => {
    const res = await fetch(`${line.control_url}/control/reset`, { method: 'POST', headers: { authorization: `Bearer ${line.control_token}` } });
    expect(res.status).toBeLessThan(300);
    const me = await erp(['whoami'], { ERP_URL: line.agent_url, ERP_TOKEN: line.tokens['maya.chen']! });
    expect(me).toMatchObject({ code: 0, out: { user: { id: 'maya.chen' } } });
  });

  it('given a user the file does not have, then it refuses in one sentence and serves nothing', () => {
    const r = spawnSync(process.execPath, [bin, 'server', 'start', '--db', join(dir, 'other.db'), '--reset-from', clean, '--issue-token', 'nobody.here'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: Could not issue a token for nobody\.here/);
  });
});

describe('erp docs without a server', () => {
  it('given no ERP_URL, then the reference comes from the route registry, as a server would answer', async () => {
    const offline = await erp(['docs', 'requisitions', '--json']);
    expect(offline.code).toBe(0);
    expect(JSON.stringify(offline.out)).toContain('/requisitions');
  });
});
