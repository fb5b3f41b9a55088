import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { allRoutes } from '../../src/api/routes';
import { liveServer } from '../support/http';

const run = promisify(execFile);
const bin = join(__dirname, '..', '..', 'bin', 'run.js');

type Live = Awaited<ReturnType<typeof liveServer>>;
let live: Live;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

async function erp(token: string, args: string[], options: { oclifOnly?: boolean; cwd?: string } = {}) {
  const env = { ...process.env, ERP_URL: live.server.url, ERP_TOKEN: token, ...(options.oclifOnly ? { ERP_CLI_OCLIF_ONLY: '1' } : {}) };
  try {
    const { stdout } = await run(process.execPath, [bin, ...args], { env, cwd: options.cwd });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('erp whoami', () => {
  it('prints the user, roles, limits, boxes and business date as JSON', async () => {
    const out = await erp(live.tokens.maya, ['whoami']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      user: { id: 'maya.chen', name: 'Maya Chen', title: '', email: 'maya.chen@northgate.example', department: 'PUR', manager: 'grace.lin' },
      roles: ['purchasing_manager'],
      permissions: ['requisition.approve', 'requisition.read'],
      approval_limits: [{ subject_type: 'role', subject: 'purchasing_manager', document_type: 'requisition', department: '*', amount: 10000 }],
      boxes: ['personal'],
      business_date: '2026-10-05',
    });
  });

  it('prints the same through oclif as through the lean path', async () => {
    expect((await erp(live.tokens.maya, ['whoami'], { oclifOnly: true })).stdout).toBe((await erp(live.tokens.maya, ['whoami'])).stdout);
  });
});

describe('erp post', () => {
  it('sends k=v pairs parsed as JSON where they parse and prints the document', async () => {
    const out = await erp(live.tokens.grace, ['post', '/leaves', 'user=sam.ortiz', 'start_date=2026-10-12', 'end_date=2026-10-16', 'delegate=maya.chen', '--key', 'lv-1']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ id: 'LV-000001', business_date: '2026-10-05' });
  });

  it('returns the first response on a retry with the same --key, on either path', async () => {
    const args = ['post', '/leaves', 'user=sam.ortiz', 'start_date=2026-10-12', 'end_date=2026-10-16', 'delegate=maya.chen', '--key', 'lv-1'];
    const again = await erp(live.tokens.grace, args, { oclifOnly: true });
    expect(JSON.parse(again.stdout)).toMatchObject({ id: 'LV-000001' });
    expect(live.server.api.read.org.leaves('sam.ortiz')).toHaveLength(1);
  });

  it('reads the body from --data @file and lets pairs override it', async () => {
    const file = join(live.dir, 'dept.json');
    writeFileSync(file, JSON.stringify({ id: 'QA', name: 'Quality' }));
    const out = await erp(live.tokens.grace, ['post', '/departments', '--data', `@${file}`, 'name=Quality assurance']);
    expect(JSON.parse(out.stdout)).toMatchObject({ id: 'QA', name: 'Quality assurance' });
  });

  it('exits 1 and prints the problem when the request is refused', async () => {
    const out = await erp(live.tokens.maya, ['post', '/departments', 'id=X', 'name=X']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('erp get', () => {
  it('passes k=v pairs as the query string', async () => {
    const out = await erp(live.tokens.maya, ['get', '/users', 'department=PUR']);
    expect(JSON.parse(out.stdout).items.map((u: { id: string }) => u.id)).toEqual(['maya.chen', 'sam.ortiz']);
  });

  it('exits 2 with connection_failed when the server cannot be reached', async () => {
    const { stdout, code } = await run(process.execPath, [bin, 'get', '/users'], { env: { ...process.env, ERP_URL: 'http://127.0.0.1:9', ERP_TOKEN: 'x' } }).then((r) => ({ ...r, code: 0 }), (e) => e);
    expect(code).toBe(2);
    expect(JSON.parse(stdout).code).toBe('connection_failed');
  });
});

describe('erp docs', () => {
  it('lists every registered route', async () => {
    const out = await erp(live.tokens.maya, ['docs']);
    for (const r of allRoutes()) expect(out.stdout).toContain(`${r.method.padEnd(6)} ${r.path}`);
  });

  it('details the matching endpoints and quotes the handbook when handbook/ is here', async () => {
    const ws = join(live.dir, 'ws');
    mkdirSync(join(ws, 'handbook'), { recursive: true });
    writeFileSync(join(ws, 'handbook', 'leave.md'), '# Leave\n\nLEAVE-1 A leave names a delegate.\n\nOther text.\n');
    const out = await erp(live.tokens.maya, ['docs', 'leave'], { cwd: ws });
    expect(out.stdout).toContain('POST /leaves');
    expect(out.stdout).toContain('delegate?: string');
    expect(out.stdout).toContain('[leave.md]\nLEAVE-1 A leave names a delegate.');
    expect(out.stdout).not.toContain('Other text.');
  });
});

describe('erp --help', () => {
  it('shows the agent commands before the operator topics', async () => {
    const out = await erp(live.tokens.maya, ['--help']);
    expect(out.stdout.indexOf('AGENT COMMANDS')).toBeGreaterThan(0);
    expect(out.stdout.indexOf('AGENT COMMANDS')).toBeLessThan(out.stdout.indexOf('OPERATOR TOPICS'));
    expect(readFileSync(bin, 'utf8')).toContain('ERP_CLI_OCLIF_ONLY');
  });
});
