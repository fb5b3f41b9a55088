import { copyFileSync, cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServer, type RunningServer } from '../../src/api/server';
import { allRoutes } from '../../src/api/routes';
import { buildManifest, roleToolset, type Tool } from '../../src/api/tools';
import { GENERIC_TOOL_NAMES } from '../../src/client/mcp/generic-tools';
import { selectTools } from '../../src/client/mcp/tool-budget';
import { ErpClient } from '../../src/client/http-client';
import { issueAttemptTokens } from '../../src/runner/attempt-tokens';
import { clientBundlePath } from '../../src/runner/client-bundle';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { loadPack } from '../../src/task-pack/load';
import { testWallClock } from '../support/erp';

/**
 * `erp mcp` (the bundled client, as inside a sandbox) driven by the MCP SDK's own client over
 * stdio, as payment-run's agent; and the same calls made over HTTP on a second copy of the same
 * start, so that the two event streams can be compared.
 */
const pack = loadPack('payment-run');
const root = mkdtempSync(join(tmpdir(), 'bb-erp-mcp-'));
const agent = pack.spec.agent_user;
const secretFor = (user: string) => `erp_${user.replace(/\W/g, '')}_mcp_test_secret`;
let scenario: Scenario;

interface Copy { server: RunningServer; workspace: string }

async function copyOfStart(name: string): Promise<Copy> {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(scenario.dir, 'scenario.db'), join(dir, 'erp.db'));
  issueAttemptTokens(join(dir, 'erp.db'), [agent], secretFor);
  const workspace = join(dir, 'workspace');
  cpSync(join(scenario.dir, 'handbook'), join(workspace, 'handbook'), { recursive: true });
  return { server: await startServer({ dbFile: join(dir, 'erp.db'), controlToken: 'control', wallClock: testWallClock }), workspace };
}

/** The events a copy recorded after the reset, without what only wall time and row hashes tell apart. */
function eventsAfterReset(copy: Copy, fromSeq: number): unknown[] {
  const rows = copy.server.erp.db.prepare('SELECT * FROM events WHERE seq > ? ORDER BY seq').all(fromSeq) as Record<string, unknown>[];
  return rows.map(({ wall_time: _w, row_hash: _h, ...rest }) => rest);
}

let mcpCopy: Copy;
let httpCopy: Copy;
let client: Client;
let startSeq: number;

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
  mcpCopy = await copyOfStart('mcp');
  httpCopy = await copyOfStart('http');
  startSeq = mcpCopy.server.erp.store.lastSeq();
  client = new Client({ name: 'bb-erp-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: [clientBundlePath(), 'mcp'], cwd: mcpCopy.workspace,
    env: { ERP_URL: mcpCopy.server.url, ERP_TOKEN: secretFor(agent) }, stderr: 'pipe',
  }));
}, 180_000);

afterAll(async () => {
  await client?.close();
  await mcpCopy?.server.close();
  await httpCopy?.server.close();
});

const json = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { type: string; text: string }[])[0]!.text);

/** The calls both copies make, in order: the name of a tool, its arguments (from what came before). */
const invoiceQuery = { status: 'approved', limit: 1 };

describe('erp mcp for payment-run\'s agent', () => {
  let listed: { name: string; inputSchema: { properties?: Record<string, unknown> }; annotations?: { readOnlyHint?: boolean } }[];
  let invoice: string;
  let hold: Awaited<ReturnType<Client['callTool']>>;
  let pay: Awaited<ReturnType<Client['callTool']>>;

  beforeAll(async () => {
    listed = (await client.listTools()).tools as typeof listed;
  });

  it('lists at most 64 tools: the generic ones, and the first of the AP supervisor\'s routes by rank, each typed by its schema', async () => {
    // Built in-process from the agent's permissions: asking a server would add a read to its stream.
    const routes = allRoutes();
    const manifest = buildManifest(roleToolset(routes, new Set(mcpCopy.server.api.read.org.permissions(agent))), routes);
    expect(manifest.tools.length).toBeGreaterThan(200);
    expect(listed.length).toBeLessThanOrEqual(64);
    expect(listed.map((t) => t.name)).toEqual([...selectTools(manifest.tools, 64).named.map((t) => t.name), ...GENERIC_TOOL_NAMES]);
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(['get_whoami', 'payment_run_create', 'payment_run_submit', 'vendor_bank_account_verify', 'ap_invoice_hold']));
    expect(listed.map((t) => t.name)).not.toContain('payment_run_release');
    const createRun = listed.find((t) => t.name === 'payment_run_create')!;
    expect(createRun.inputSchema).toEqual(manifest.tools.find((t) => t.name === 'payment_run_create')!.parameters);
    expect(createRun.annotations?.readOnlyHint).toBe(false);
    expect(listed.find((t) => t.name === 'get_whoami')!.annotations?.readOnlyHint).toBe(true);
  });

  it('declares the JSON each tool answers with as its outputSchema, self-contained', async () => {
    // Every route the AP supervisor is offered answers a JSON object, and so do the generic tools.
    expect(listed.filter((t) => !(t as { outputSchema?: unknown }).outputSchema).map((t) => t.name)).toEqual([]);
    const hold = listed.find((t) => t.name === 'ap_invoice_hold') as unknown as { outputSchema: { type: string; properties: Record<string, unknown>; $defs?: object } };
    expect(hold.outputSchema.type).toBe('object');
    expect(JSON.stringify(hold.outputSchema)).not.toContain('#/components/');
  });

  it('answers whoami as the agent, signed in with its own token', async () => {
    const me = json(await client.callTool({ name: 'get_whoami', arguments: {} }));
    expect(me.user).toMatchObject({ id: 'hannah.brooks', name: 'Hannah Brooks' });
    expect(me.roles).toContain('ap_supervisor');
  });

  it('makes a write, its idempotency_key sent as the Idempotency-Key header', async () => {
    invoice = json(await client.callTool({ name: 'get_ap_invoices', arguments: invoiceQuery })).items[0].id;
    hold = await client.callTool({ name: 'ap_invoice_hold', arguments: { id: invoice, reason: 'other', note: 'Checking the remittance details.', idempotency_key: 'hold-1' } });
    expect(hold.isError).toBeFalsy();
    expect(json(hold)).toMatchObject({ id: invoice, status: 'on_hold' });
    // The SDK's client has already checked it against the tool's outputSchema.
    expect(hold.structuredContent).toEqual(json(hold));
    const row = mcpCopy.server.erp.db.prepare("SELECT idempotency_key, outcome FROM events WHERE action = 'ap_invoice.hold' ORDER BY seq DESC LIMIT 1").get();
    expect(row).toEqual({ idempotency_key: 'hold-1', outcome: 'ok' });
  });

  it('returns a refused call as a tool error holding the problem, recorded as a probe', async () => {
    pay = await client.callTool({ name: 'payment_pay', arguments: { id: invoice, bank_account: 'BANK-OP' } });
    expect(pay.isError).toBe(true);
    expect(json(pay)).toMatchObject({ status: 409, code: 'invoice_on_hold' });
    const probe = mcpCopy.server.erp.db.prepare("SELECT outcome, error_code FROM events WHERE action = 'payment.pay' ORDER BY seq DESC LIMIT 1").get();
    expect(probe).toEqual({ outcome: 'refused', error_code: 'invoice_on_hold' });
  });

  it('says what is wrong with arguments the tool does not take, as a tool error, without a request', async () => {
    const before = mcpCopy.server.erp.store.lastSeq();
    const bad = await client.callTool({ name: 'ap_invoice_hold', arguments: { invoice: invoice, reason: 'other' } });
    expect(bad.isError).toBe(true);
    expect(json(bad)).toMatchObject({ code: 'usage', detail: expect.stringContaining('takes no argument invoice') });
    expect(mcpCopy.server.erp.store.lastSeq()).toBe(before);
  });

  it('serves the handbook as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['erp://handbook/payments.md']));
    const text = (await client.readResource({ uri: resources[0]!.uri })).contents[0] as { text: string; mimeType: string };
    expect(text.mimeType).toBe('text/markdown');
    expect(text.text).toMatch(/^#/);
    await expect(client.readResource({ uri: 'erp://handbook/../../final.db' })).rejects.toThrow(/No resource/);
  });

  it('records the same events as the same calls over HTTP', async () => {
    const http = new ErpClient({ baseUrl: httpCopy.server.url, token: secretFor(agent) });
    await http.get('/tools.json');
    await http.get('/whoami');
    await http.get('/ap-invoices', invoiceQuery);
    await http.post(`/ap-invoices/${invoice}/holds`, { reason: 'other', note: 'Checking the remittance details.' }, 'hold-1');
    await http.post(`/ap-invoices/${invoice}/pay`, { bank_account: 'BANK-OP' });
    http.close();
    const mcpEvents = eventsAfterReset(mcpCopy, startSeq);
    expect(mcpEvents.length).toBe(5);
    expect(eventsAfterReset(httpCopy, startSeq)).toEqual(mcpEvents);
  });

  /** A problem without the event it was recorded as (each refusal is its own). */
  const problem = (result: Awaited<ReturnType<Client['callTool']>>) => {
    const { event_id: _e, instance: _i, ...rest } = json(result) as Record<string, unknown>;
    return rest;
  };

  /** The last `n` events of the MCP copy, without what tells two requests apart in time. */
  const lastEvents = (n: number) => eventsAfterReset(mcpCopy, startSeq).slice(-n).map((e) => {
    const { seq: _s, ...rest } = e as Record<string, unknown>;
    return rest;
  });

  it('makes an action through erp_post as its named tool does: the same refusal naming the allowed values, the same probe', async () => {
    const args = { id: invoice, reason: 'lost_in_post', note: 'Checking.' };
    const named = await client.callTool({ name: 'ap_invoice_hold', arguments: args });
    const generic = await client.callTool({ name: 'erp_post', arguments: { action: 'ap_invoice_hold', arguments: args } });
    expect(generic.isError).toBe(true);
    expect(problem(generic)).toEqual(problem(named));
    expect(json(generic)).toMatchObject({ status: 400, code: 'invalid_request', detail: expect.stringContaining('body.reason must be one of "price_variance", "quantity_variance"') });
    const [a, b] = lastEvents(2);
    expect(b).toEqual(a);
    expect(b).toMatchObject({ outcome: 'refused', error_code: 'invalid_request' });
  });

  it('is refused through erp_post by the same control as through the named tool', async () => {
    const generic = await client.callTool({ name: 'erp_post', arguments: { action: 'payment_pay', arguments: { id: invoice, bank_account: 'BANK-OP' } } });
    expect(generic.isError).toBe(true);
    expect(problem(generic)).toEqual(problem(pay));
  });

  it('says what is wrong with an argument an action does not take through erp_post in the named tool\'s words, without a request', async () => {
    const before = mcpCopy.server.erp.store.lastSeq();
    const bad = await client.callTool({ name: 'erp_post', arguments: { action: 'ap_invoice_hold', arguments: { invoice, reason: 'other' } } });
    expect(json(bad)).toEqual({ code: 'usage', detail: expect.stringContaining('ap_invoice_hold takes no argument invoice') });
    expect(mcpCopy.server.erp.store.lastSeq()).toBe(before);
  });

  it('reads any path through erp_get as its named tool reads it, and refuses a filter value naming the allowed ones', async () => {
    const generic = await client.callTool({ name: 'erp_get', arguments: { path: `/ap-invoices/${invoice}` } });
    const named = await client.callTool({ name: 'get_ap_invoices_by_id', arguments: { id: invoice } });
    expect(generic.structuredContent).toEqual(named.structuredContent);
    const bad = await client.callTool({ name: 'erp_get', arguments: { path: '/vendors', query: { status: 'dormant' } } });
    expect(json(bad)).toMatchObject({ status: 400, code: 'invalid_request', detail: 'query.status must be one of "active", "inactive".' });
  });

  it('refuses a named tool the budget left out, saying which generic tool reaches it', async () => {
    await expect(client.callTool({ name: 'get_payment_runs_by_id', arguments: { id: 'PR-000001' } })).rejects.toThrow(/get_payment_runs_by_id is not among the tools offered \(budget:64\): call it through erp_get with path \/payment-runs\/\{id\}/);
  });

  it('finds and describes every endpoint the caller may call, as their declared outputs say', async () => {
    const found = await client.callTool({ name: 'erp_find_tools', arguments: { search: 'payment runs', kind: 'read' } });
    expect((found.structuredContent as { items: { name: string }[] }).items.map((i) => i.name)).toEqual(expect.arrayContaining(['get_payment_runs', 'get_payment_runs_by_id']));
    const described = await client.callTool({ name: 'erp_describe_tool', arguments: { name: 'payment_run_release' } });
    expect(described.isError).toBe(true);
    const run = await client.callTool({ name: 'erp_describe_tool', arguments: { name: 'get_payment_runs_by_id' } });
    expect(run.structuredContent).toMatchObject({ method: 'GET', path: '/payment-runs/{id}', offered: false, input_schema: { required: ['id'] } });
  });
});

describe('erp mcp under a declared tool budget', () => {
  const listWith = async (args: string[], env: Record<string, string> = {}) => {
    const other = new Client({ name: 'bb-erp-test', version: '1.0.0' });
    await other.connect(new StdioClientTransport({ command: process.execPath, args: [clientBundlePath(), 'mcp', ...args], cwd: mcpCopy.workspace, env: { ERP_URL: mcpCopy.server.url, ERP_TOKEN: secretFor(agent), ...env }, stderr: 'pipe' }));
    try {
      return (await other.listTools()).tools.map((t) => t.name);
    } finally {
      await other.close();
    }
  };

  it('given --tool-budget all, then every route a tool of its own and no generic tool, as before budgets', async () => {
    const routes = allRoutes();
    const manifest = buildManifest(roleToolset(routes, new Set(mcpCopy.server.api.read.org.permissions(agent))), routes);
    expect(await listWith(['--tool-budget', 'all'])).toEqual(manifest.tools.map((t: Tool) => t.name));
  });

  it('given ERP_MCP_TOOL_BUDGET, then at most that many; --tool-budget overrides it', async () => {
    const ten = await listWith([], { ERP_MCP_TOOL_BUDGET: '10' });
    expect(ten).toEqual(['get_audit', 'get_whoami', 'ap_invoice_add_note', 'ap_invoice_approve', 'ap_invoice_enter', 'ap_invoice_flag_duplicate', ...GENERIC_TOOL_NAMES]);
    expect(await listWith(['--tool-budget=12'], { ERP_MCP_TOOL_BUDGET: '10' })).toHaveLength(12);
  });

  it('given a budget smaller than the generic tools, then exits 2 saying so, before any MCP is spoken', () => {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const res = spawnSync(process.execPath, [clientBundlePath(), 'mcp', '--tool-budget', '3'], { encoding: 'utf8', env: { ERP_URL: mcpCopy.server.url }, input: '' });
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe("erp mcp: --tool-budget must be a whole number of at least 4 (the generic tools take 4) or 'all', not '3'.\n");
  });
});

describe('erp mcp without ERP_URL', () => {
  it('exits 2 saying what is missing, before any MCP is spoken', () => {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const res = spawnSync(process.execPath, [clientBundlePath(), 'mcp'], { encoding: 'utf8', env: {}, input: '' });
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/ERP_URL is not set/);
  });
});
