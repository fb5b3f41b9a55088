import Ajv2020 from 'ajv/dist/2020';
import { allRoutes, knownPermissions } from '../../src/api/routes';
import { buildManifest, buildTool, enumsAsEnum, roleToolset, ToolDeclarationError } from '../../src/api/tools';
import { AP_EXCEPTION_TOOLS } from '../../src/api/toolsets/ap-exceptions';
import { payloadAjv } from '../../src/events/json-schema';
import { bindCall, coerceArgument, ToolCallError } from '../../src/client/tool-call';
import { genericMcpTools } from '../../src/client/mcp/generic-tools';
import { answersSuccess, responseSchema } from '../../src/api/response-schemas';

const routes = allRoutes();
const manifest = buildManifest(AP_EXCEPTION_TOOLS, routes);
const tool = (name: string) => manifest.tools.find((t) => t.name === name)!;

describe('the AP-exceptions tool manifest', () => {
  it('has the seventeen tools of seed 004, eight reads and nine actions, each named once', () => {
    expect(manifest.tools).toHaveLength(17);
    expect(new Set(manifest.tools.map((t) => t.name)).size).toBe(17);
    expect(manifest.tools.filter((t) => t.binding.method === 'GET')).toHaveLength(8);
    expect(manifest.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['flag_duplicate', 'place_hold', 'add_note', 'pay_invoice', 'create_debit_memo', 'record_bank_payment', 'update_vendor_bank', 'write_off_invoice']));
  });

  it('binds every tool to a registered route, and every argument to a field of it', () => {
    for (const t of manifest.tools) {
      const route = routes.find((r) => r.method === t.binding.method && r.path === t.binding.path);
      expect(route).toBeDefined();
      const fields = Object.keys(((route as { body?: { properties: object } }).body ?? (route as unknown as { query: { properties: object } }).query).properties);
      for (const a of [...Object.values(t.binding.arguments), ...t.binding.fixed]) {
        if (a.in === 'header') {
          expect({ tool: t.name, header: a.name, method: t.binding.method }).toEqual({ tool: t.name, header: 'Idempotency-Key', method: 'POST' });
          continue;
        }
        if (a.in === 'path') expect(t.binding.path).toContain(`{${a.name}}`);
        else expect(fields).toContain(a.name);
        expect(a.in).toBe(a.in === 'path' ? 'path' : route!.kind === 'action' ? 'body' : 'query');
      }
    }
  });

  it('gives every tool a parameters schema that is valid JSON Schema and compiles with the API\'s own keywords', () => {
    const meta = new Ajv2020({ strict: false });
    for (const t of manifest.tools) {
      expect({ tool: t.name, valid: meta.validateSchema(t.parameters) }).toEqual({ tool: t.name, valid: true });
      expect(() => payloadAjv().compile(t.parameters)).not.toThrow();
      expect(t.parameters.required.every((r) => r in t.parameters.properties)).toBe(true);
      expect(t.description.length).toBeGreaterThan(20);
    }
  });

  it('derives argument schemas from the route, renamed, so they cannot drift from it', () => {
    const hold = routes.find((r) => r.kind === 'action' && r.path === '/ap-invoices/{id}/holds') as { body: { properties: Record<string, unknown> } };
    expect(tool('place_hold').parameters.properties.reason).toEqual(enumsAsEnum(JSON.parse(JSON.stringify(hold.body.properties.reason))));
    expect(tool('place_hold').parameters.properties.reason).toMatchObject({ type: 'string', enum: expect.arrayContaining(['duplicate', 'price_variance']) });
    expect(tool('place_hold').parameters.required).toEqual(['invoice_id', 'reason']);
    expect(Object.keys(tool('flag_duplicate').parameters.properties)).toEqual(['invoice_id', 'original_invoice_id', 'note', 'idempotency_key']);
    expect(Object.keys(tool('pay_invoice').parameters.properties)).toEqual(expect.arrayContaining(['invoice_id', 'amount', 'bank_account', 'routing', 'account']));
    expect(tool('get_invoice_document').parameters.properties).not.toHaveProperty('n');
  });

  it('binds update_vendor_bank to a route that needs a permission AP clerks do not have', () => {
    expect(tool('update_vendor_bank').binding).toMatchObject({ method: 'POST', path: '/vendors/{id}/bank-accounts', permission: 'vendor_bank.request' });
  });
});

describe('every tool property', () => {
  const everyone = new Set(knownPermissions());
  const every = buildManifest(roleToolset(routes, everyone), routes);
  // Every role's tools are among those of every route; the generic tools of erp mcp are built over them.
  const generic = { tools: genericMcpTools(every.tools).map((t) => ({ name: t.name, parameters: t.inputSchema as { properties: Record<string, { description?: string }> } })) };
  const toolsets = [['the AP-exceptions toolset', manifest], ['every route as a tool', every], ['erp mcp\'s generic tools', generic]] as const;
  it.each(toolsets)('given %s, then each argument says what it is', (_name, m) => {
    const bare = m.tools.flatMap((t) => Object.entries(t.parameters.properties).filter(([, p]) => typeof p.description !== 'string' || p.description.length < 8).map(([arg]) => `${t.name}.${arg}`));
    expect(bare).toEqual([]);
  });

  it('given a path parameter, a filter and a body field, then each is described by its place', () => {
    const t = buildManifest(roleToolset(routes, everyone), routes).tools;
    const approve = t.find((x) => x.binding.method === 'POST' && x.binding.path === '/ap-invoices/{id}/approve')!;
    expect(approve.parameters.properties.id!.description).toBe('Id of the AP invoice the request is about.');
    expect(approve.parameters.properties.note!.description).toMatch(/audit trail/);
    const list = t.find((x) => x.binding.method === 'GET' && x.binding.path === '/ap-invoices')!;
    expect(list.parameters.properties.on_hold!.description).toMatch(/^true: only rows whose on hold holds/);
    expect(list.parameters.properties.vendor!.description).toBeDefined();
  });
});

describe('a tool declaration that does not fit its route', () => {
  it('is refused when the route is not registered', () => {
    expect(() => buildTool({ name: 'x', description: 'x', route: 'POST /nowhere' }, routes)).toThrow(ToolDeclarationError);
  });

  it('is refused when it renames a field the route does not have', () => {
    expect(() => buildTool({ name: 'x', description: 'x', route: 'POST /ap-invoices/{id}/holds', rename: { invoice: 'invoice_id' } }, routes)).toThrow(/has no field invoice/);
  });
});

describe('a tool call', () => {
  it('places path arguments in the path and the rest in the body, under the route\'s names', () => {
    expect(bindCall(tool('pay_invoice'), { invoice_id: 'APINV-000007', amount: '1108.80', bank_account: 'BANK-OP', routing: '041000124', account: '1234569170' })).toEqual({
      method: 'POST', path: '/ap-invoices/APINV-000007/pay', query: {},
      body: { amount: '1108.80', bank_account: 'BANK-OP', routing_number: '041000124', account_number: '1234569170' },
    });
  });

  it('fills in fixed fields and puts a read\'s arguments in the query', () => {
    expect(bindCall(tool('get_invoice_document'), { message_id: 'MSG-000003' })).toMatchObject({ method: 'GET', path: '/messages/MSG-000003/attachments/1', body: undefined });
    expect(bindCall(tool('search_invoices'), { vendor: 'V-0142', number: '7640' })).toMatchObject({ path: '/ap-invoices', query: { vendor: 'V-0142', number: '7640' } });
  });

  it('sends a write tool\'s idempotency_key as its Idempotency-Key header, never in the body', () => {
    expect(bindCall(tool('place_hold'), { invoice_id: 'APINV-000001', reason: 'r', idempotency_key: 'hold-1' })).toEqual({
      method: 'POST', path: '/ap-invoices/APINV-000001/holds', query: {}, body: { reason: 'r' }, idempotencyKey: 'hold-1',
    });
    expect(tool('get_invoice').parameters.properties).not.toHaveProperty('idempotency_key');
  });

  it('refuses an argument the tool does not take, and a missing path argument', () => {
    expect(() => bindCall(tool('place_hold'), { invoice: 'APINV-000001' })).toThrow(ToolCallError);
    expect(() => bindCall(tool('place_hold'), { reason: 'duplicate' })).toThrow(/needs invoice_id/);
  });
});

describe('a command-line value', () => {
  it('is typed by its schema: text stays text, numbers and lists are parsed', () => {
    expect(coerceArgument('041000124', { type: 'string' })).toBe('041000124');
    expect(coerceArgument('1108.80', { type: ['number', 'string'] })).toBe('1108.80');
    expect(coerceArgument('3', { type: 'integer' })).toBe(3);
    expect(coerceArgument('APINV-000001, APINV-000002', { type: 'array', items: { type: 'string' } })).toEqual(['APINV-000001', 'APINV-000002']);
    expect(coerceArgument('[{"po_line":1,"qty":4}]', { type: 'array' })).toEqual([{ po_line: 1, qty: 4 }]);
    expect(coerceArgument('true', { type: 'boolean' })).toBe(true);
  });
});

describe('every tool\'s outputSchema', () => {
  const every = buildManifest(roleToolset(routes, new Set(knownPermissions())), routes);
  const routeOf = (t: { binding: { method: string; path: string } }) => routes.find((r) => r.method === t.binding.method && r.path === t.binding.path)!;

  it('given a route that answers a JSON object, then its tool declares it; only a route that never answers with success declares none', () => {
    const without = every.tools.filter((t) => !t.output_schema);
    expect(without.map((t) => t.name)).toEqual(['get_reports_by_id']);
    for (const t of without) expect(answersSuccess(responseSchema(routeOf(t))!)).toBe(false);
    for (const t of every.tools.filter((x) => x.output_schema)) expect({ tool: t.name, type: t.output_schema!.type }).toEqual({ tool: t.name, type: 'object' });
  });

  it('given the AP-exceptions toolset or erp mcp\'s generic tools, then each declares its answer', () => {
    expect(manifest.tools.filter((t) => !t.output_schema).map((t) => t.name)).toEqual([]);
    expect(genericMcpTools(every.tools).filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
  });
});
