import { allRoutes } from '../../src/api/routes';
import { roleToolset, type Tool, type ToolManifest } from '../../src/api/tools';
import { bindCall } from '../../src/client/tool-call';
import { call, openTestErp, systemCall } from '../support/erp';
import { ok, seedPayables } from '../support/payables-fixture';

const routes = allRoutes();

/** Every `anyOf` in a schema whose choices are all constants: what enumsAsEnum must have rewritten. */
function constChoices(schema: unknown, at = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => constChoices(s, `${at}[${i}]`));
  const own = Array.isArray((schema as { anyOf?: unknown[] }).anyOf) && (schema as { anyOf: object[] }).anyOf.every((c) => 'const' in c) ? [at] : [];
  return [...own, ...Object.entries(schema).flatMap(([k, v]) => constChoices(v, `${at}/${k}`))];
}

describe('GET /tools.json of a company without a toolset of its own', () => {
  const { api } = openTestErp();
  const tokens = seedPayables(api);
  const res = call(api, tokens.omar, 'GET', '/tools.json');
  const manifest = res.body as ToolManifest;
  const permissions = new Set<string>(call(api, tokens.omar, 'GET', '/whoami').body.permissions);

  it('lists one tool per route the caller\'s roles let it call, and none it may not call', () => {
    expect(res.status).toBe(200);
    expect(manifest.toolset).toBe('erp-api');
    const callable = routes.filter((r) => r.path !== '/tools.json' && (r.permission === null || permissions.has(r.permission)));
    expect(manifest.tools.map((t) => `${t.binding.method} ${t.binding.path}`).sort()).toEqual(callable.map((r) => `${r.method} ${r.path}`).sort());
    expect(manifest.tools.filter((t) => t.binding.permission !== null && !permissions.has(t.binding.permission))).toEqual([]);
    expect(manifest.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['ap_invoice_hold', 'get_ap_invoices_by_id', 'get_whoami']));
    expect(manifest.tools.map((t) => t.name)).not.toContain('payment_run_release');
  });

  it('gives a supervisor more tools than a clerk', () => {
    const supervisor = call(api, tokens.hannah, 'GET', '/tools.json').body as ToolManifest;
    expect(supervisor.tools.map((t) => t.name)).toContain('payment_run_release');
    expect(supervisor.tools.length).toBeGreaterThan(manifest.tools.length);
  });

  it('names each tool once, in the characters every function-calling API accepts', () => {
    const names = manifest.tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('writes every choice among constants as an enum', () => {
    expect(manifest.tools.flatMap((t) => constChoices(t.parameters, t.name))).toEqual([]);
    const audit = manifest.tools.find((t) => t.name === 'get_audit')!;
    expect(audit.parameters.properties.outcome).toEqual({ type: 'string', enum: ['ok', 'refused'], description: 'Only rows whose outcome is this value.' });
  });

  it('lets every write tool take an Idempotency-Key', () => {
    const writes = manifest.tools.filter((t: Tool) => t.binding.method !== 'GET');
    expect(writes.length).toBeGreaterThan(10);
    for (const t of writes) expect({ tool: t.name, key: t.binding.arguments.idempotency_key }).toEqual({ tool: t.name, key: { in: 'header', name: 'Idempotency-Key' } });
  });

  it('is recorded as a read of the caller, like any request', () => {
    const first = api.erp.db.prepare("SELECT actor, kind, outcome FROM events WHERE path = '/tools.json' ORDER BY seq LIMIT 1").get();
    expect(first).toEqual({ actor: 'omar.haddad', kind: 'read', outcome: 'ok' });
  });

  it('is refused without a token', () => {
    expect(call(api, null, 'GET', '/tools.json')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });
});

describe('GET /tools.json of the AP-exceptions environment (company HDC)', () => {
  it('is its own seventeen tools, whoever asks', () => {
    const { api } = openTestErp();
    const tokens = seedPayables(api);
    ok(systemCall(api, 'POST', '/company', { code: 'HDC', name: 'Halvorsen Distribution Co.', currency: 'USD', fiscal_year_start: '2026-01-01', workdays: [1, 2, 3, 4, 5] }), 'company');
    for (const token of [tokens.omar, tokens.hannah]) {
      const manifest = call(api, token, 'GET', '/tools.json').body as ToolManifest;
      expect(manifest.toolset).toBe('ap-exceptions');
      expect(manifest.tools).toHaveLength(17);
    }
  });
});

describe('a role\'s toolset', () => {
  it('is built over the registry alone, so every tool is one route', () => {
    const set = roleToolset(routes, new Set(['ap_invoice.hold']));
    expect(set.tools.map((t) => t.route)).toContain('POST /ap-invoices/{id}/holds');
    expect(set.tools.every((t) => routes.some((r) => `${r.method} ${r.path}` === t.route && (r.permission === null || r.permission === 'ap_invoice.hold')))).toBe(true);
  });
});

describe('a tool argument with a choice of values', () => {
  it('given a value outside it, then the refusal names every allowed value, never "must be equal to constant"', () => {
    const { api } = openTestErp();
    const tokens = seedPayables(api);
    const manifest = call(api, tokens.hannah, 'GET', '/tools.json').body as ToolManifest;
    const named: string[] = [];
    for (const t of manifest.tools) {
      for (const [arg, schema] of Object.entries(t.parameters.properties) as [string, { enum?: unknown[]; items?: { enum?: unknown[] } }][]) {
        const allowed = schema.enum ?? schema.items?.enum;
        if (!allowed) continue;
        const args: Record<string, unknown> = { [arg]: schema.enum ? 'not_a_choice' : ['not_a_choice'] };
        for (const [a, place] of Object.entries(t.binding.arguments)) if (place.in === 'path') args[a] = 'X-000001';
        const req = bindCall(t, args);
        const res = call(api, tokens.hannah, req.method, req.path, req.body, { query: req.query });
        expect({ tool: t.name, arg, status: res.status }).toEqual({ tool: t.name, arg, status: 400 });
        expect(res.body.detail).not.toMatch(/equal to constant/);
        // A body missing required fields says so first (three problems at most): where the field is named, its values are.
        if (!res.body.detail.includes(`.${t.binding.arguments[arg]!.name} `)) continue;
        named.push(`${t.name}.${arg}`);
        expect(res.body.detail).toContain(`must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
      }
    }
    expect(named.length).toBeGreaterThan(50);
  });
});
