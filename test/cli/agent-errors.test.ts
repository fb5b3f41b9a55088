import { execFile, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clientBundlePath } from '../../src/runner/client-bundle';
import { systemCall } from '../support/erp';
import { liveServer } from '../support/http';

const run = promisify(execFile);
const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const cwd = mkdtempSync(join(tmpdir(), 'bb-erp-cli-errors-'));

let live: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

async function erp(args: string[], env: Record<string, string | undefined>, oclifOnly = false) {
  const base: NodeJS.ProcessEnv = { ...process.env, ERP_URL: live.server.url, ERP_TOKEN: live.tokens.grace, ...env, ...(oclifOnly ? { ERP_CLI_OCLIF_ONLY: '1' } : {}) };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete base[k];
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: base, cwd });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const AGENT_COMMANDS = [
  ['whoami'], ['get', '/users'], ['report', 'trial-balance'], ['post', '/departments', 'id=X'], ['patch', '/x'], ['put', '/x'], ['delete', '/x'],
  ['inbox'], ['read', 'MSG-000001'], ['attachment', 'MSG-000001', '1'], ['call'], ['call', 'list_queue'],
];

describe('an agent command with ERP_URL unset', () => {
  it.each(AGENT_COMMANDS.flatMap((args) => [[args.join(' '), args, false], [`${args.join(' ')} (through oclif)`, args, true]] as const))(
    '%s prints one sentence and exits 2', async (_name, args, oclifOnly) => {
      const out = await erp([...args], { ERP_URL: undefined }, oclifOnly);
      expect({ code: out.code, stderr: out.stderr }).toEqual({ code: 2, stderr: '' });
      expect(JSON.parse(out.stdout)).toEqual({ code: 'usage', detail: 'ERP_URL is not set: it should hold the address of the bb-erp server, e.g. http://127.0.0.1:8080.' });
    },
  );
});

describe('erp docs with ERP_URL unset', () => {
  it.each([['the lean path', false], ['oclif', true]] as const)('through %s, given the operator\'s erp, then it answers from the route registry', async (_name, oclifOnly) => {
    const out = await erp(['docs', 'leave', '--json'], { ERP_URL: undefined }, oclifOnly);
    expect(out.code).toBe(0);
    expect(JSON.stringify(JSON.parse(out.stdout))).toContain('/leaves');
  });

  it('given the agent\'s bundled client, which has no registry, then it prints one sentence and exits 2', async () => {
    const r = spawnSync(process.execPath, [clientBundlePath(), 'docs'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ code: 'usage', detail: expect.stringMatching(/^ERP_URL is not set/) });
  });
});

describe('an agent command that fails on this machine', () => {
  it('names a --data file that is not there', async () => {
    const out = await erp(['post', '/departments', '--data', '@/no/such/body.json'], {});
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toEqual({ code: 'local_error', detail: 'Cannot read --data @/no/such/body.json: no such file or folder.' });
  });

  it('names an -o file it cannot write, after fetching the attachment', async () => {
    const api = live.server.api;
    systemCall(api, 'POST', '/message-boxes', { box: 'ap', address: 'ap@northgate.example', name: 'Accounts payable' });
    systemCall(api, 'POST', '/roles', { id: 'ap_mail', name: 'AP mail', permissions: ['messages.read_ap'] });
    systemCall(api, 'POST', '/users/grace.lin/roles', { roles: ['controller', 'ap_mail'] });
    const id = systemCall(api, 'POST', '/messages/inbound', { box: 'ap', from: 'ar@vendor.example', to: ['ap@northgate.example'], subject: 'Invoice', body: 'Attached.', attachments: [{ filename: 'inv.txt', content: 'INVOICE 1' }] }).body.id;
    const out = await erp(['attachment', id, '1', '-o', '/no/such/folder/inv.txt'], {});
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toEqual({ code: 'local_error', detail: 'Cannot write /no/such/folder/inv.txt: no such file or folder.' });
  });

  it.each([[['get', '/users', 'department']], [['post', '/departments', '=X']], [['report', 'ap-aging', 'as_of']]])('refuses a pair that is not k=v (%j)', async (args) => {
    const out = await erp(args, {});
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toMatchObject({ code: 'usage', detail: expect.stringMatching(/^Expected key=value, got '/) });
  });

  it.each(['abc', '0', '-5', 'Infinity'])('refuses ERP_TIMEOUT_SECONDS=%s', async (value) => {
    const out = await erp(['whoami'], { ERP_TIMEOUT_SECONDS: value });
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toEqual({ code: 'usage', detail: `ERP_TIMEOUT_SECONDS must be a positive number of seconds, not "${value}".` });
  });

  it('accepts a fractional ERP_TIMEOUT_SECONDS', async () => {
    expect((await erp(['whoami'], { ERP_TIMEOUT_SECONDS: '2.5' })).code).toBe(0);
  });
});

describe('a path that names another host', () => {
  let other: Server;
  const seen: string[] = [];
  beforeAll(async () => {
    other = createServer((req, res) => { seen.push(String(req.headers.authorization)); res.end('{}'); });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => other.close(() => r())));

  it.each(['//127.0.0.1:PORT/x', '/\\127.0.0.1:PORT/x'])('is refused before anything, the token included, is sent (%s)', async (template) => {
    const path = template.replace('PORT', String((other.address() as AddressInfo).port));
    const out = await erp(['get', path], {});
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toMatchObject({ code: 'usage', detail: expect.stringContaining('is not a path on http://127.0.0.1:') });
    expect(seen).toEqual([]);
  });

  it('is a path on ERP_URL when written as a full URL', async () => {
    const out = await erp(['get', `http://127.0.0.1:${(other.address() as AddressInfo).port}/x`], {});
    expect([out.code, JSON.parse(out.stdout).code]).toEqual([1, 'not_found']);
    expect(seen).toEqual([]);
  });
});
