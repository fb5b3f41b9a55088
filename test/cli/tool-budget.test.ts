import { allRoutes } from '../../src/api/routes';
import { buildManifest, roleToolset, type Tool } from '../../src/api/tools';
import { ERP_DESCRIBE_TOOL, ERP_FIND_TOOLS, ERP_GET, ERP_POST, genericCall, genericMcpTools, GENERIC_TOOL_NAMES } from '../../src/client/mcp/generic-tools';
import { DEFAULT_TOOL_BUDGET, parseToolBudget, rankTools, selectTools } from '../../src/client/mcp/tool-budget';
import { bindCall, ToolCallError } from '../../src/client/tool-call';
import { ORGANISATION } from '../../src/sim/northgate/master';
import { roleGrants, type Organisation } from '../../src/sim/organisation';

const routes = allRoutes();

/** The tools GET /tools.json gives a member of staff with this role (every member of staff is also an employee). */
function toolsOf(org: Organisation, role: string): Tool[] {
  const permissions = new Set([...roleGrants(org, 'employee').permissions, ...roleGrants(org, role).permissions]);
  return buildManifest(roleToolset(routes, permissions), routes).tools;
}

const supervisor = toolsOf(ORGANISATION, 'ap_supervisor');
const names = (tools: readonly Tool[]) => tools.map((t) => t.name);

describe('payment-run\'s AP supervisor under the default budget', () => {
  const selection = selectTools(supervisor, DEFAULT_TOOL_BUDGET);

  it('may call far more routes than the budget', () => {
    expect(supervisor.length).toBeGreaterThan(200);
  });

  it('is offered the generic tools and 60 named ones: at most 64 in all', () => {
    expect(selection.generic).toBe(true);
    expect(selection.named.length + GENERIC_TOOL_NAMES.length).toBe(64);
  });

  it('is offered its session reads, then every write its own permissions grant, then the records those act on', () => {
    const offered = names(selection.named);
    expect(offered.slice(0, 2)).toEqual(['get_audit', 'get_whoami']);
    const grantedWrites = supervisor.filter((t) => t.binding.permission !== null && t.binding.method !== 'GET');
    expect(offered.slice(2, 2 + grantedWrites.length).sort()).toEqual(names(grantedWrites).sort());
    expect(offered).toEqual(expect.arrayContaining(['payment_run_create', 'ap_invoice_hold', 'payment_pay', 'get_ap_invoices', 'get_payment_runs', 'get_vendors', 'get_vendor_bank_accounts']));
    // Routes about records none of its actions touch come last: sales, manufacturing.
    expect(offered).not.toEqual(expect.arrayContaining(['get_sales_orders']));
    expect(offered.some((n) => n.startsWith('get_work_orders'))).toBe(false);
  });

  it('is ranked from the registry alone: the same tools in any order rank the same', () => {
    expect(names(rankTools([...supervisor].reverse()))).toEqual(names(rankTools(supervisor)));
  });
});

// Halvorsen's staff get its own seventeen tools whatever their role (COMPANY_TOOLSETS): within any budget.
describe('every Northgate role', () => {
  it.each(Object.keys(ORGANISATION.roles))('given %s, then at most 64 tools, generic ones whenever routes were left out', (role) => {
    const tools = toolsOf(ORGANISATION, role);
    const selection = selectTools(tools, DEFAULT_TOOL_BUDGET);
    expect(selection.named.length + (selection.generic ? GENERIC_TOOL_NAMES.length : 0)).toBeLessThanOrEqual(64);
    expect(selection.generic).toBe(tools.length > 64);
  });
});

describe('a budget', () => {
  it('as large as the routes, or all, offers every route as a tool of its own and no generic tool, as before budgets', () => {
    expect(selectTools(supervisor, supervisor.length)).toEqual({ named: supervisor, generic: false });
    expect(selectTools(supervisor, 'all')).toEqual({ named: supervisor, generic: false });
  });

  it('is a whole number no smaller than the generic tools, or all', () => {
    expect(parseToolBudget('32', '--tool-budget')).toBe(32);
    expect(parseToolBudget('all', '--tool-budget')).toBe('all');
    expect(() => parseToolBudget('3', '--tool-budget')).toThrow("--tool-budget must be a whole number of at least 4 (the generic tools take 4) or 'all', not '3'.");
    expect(() => parseToolBudget('64.5', 'ERP_MCP_TOOL_BUDGET')).toThrow(/ERP_MCP_TOOL_BUDGET must be a whole number/);
  });
});

describe('the generic tools', () => {
  const offered = new Set(names(selectTools(supervisor, DEFAULT_TOOL_BUDGET).named));
  const named = (name: string) => supervisor.find((t) => t.name === name)!;
  const through = (name: string, args: Record<string, unknown>) => {
    const call = genericCall(name, args, supervisor, offered);
    if ('answer' in call) throw new Error('expected a route call');
    return call;
  };

  it('given erp_post with an action and its arguments, then the named tool\'s own request', () => {
    const args = { id: 'APINV-000123', reason: 'other', note: 'Checking.', idempotency_key: 'k-1' };
    const call = through(ERP_POST, { action: 'ap_invoice_hold', arguments: args });
    expect(call.tool.name).toBe('ap_invoice_hold');
    expect(bindCall(call.tool, call.args)).toEqual(bindCall(named('ap_invoice_hold'), args));
  });

  it('given erp_post with an argument the action does not take, then the named tool\'s own refusal', () => {
    const args = { invoice: 'APINV-000123', reason: 'other' };
    const call = through(ERP_POST, { action: 'ap_invoice_hold', arguments: args });
    expect(() => bindCall(call.tool, call.args)).toThrow(new ToolCallError('ap_invoice_hold takes no argument invoice (it takes id, reason, note, idempotency_key).'));
    expect(() => bindCall(named('ap_invoice_hold'), args)).toThrow('ap_invoice_hold takes no argument invoice');
  });

  it('given erp_post with an action the caller may not call, or a read, then a usage error naming where to look', () => {
    expect(() => genericCall(ERP_POST, { action: 'payment_run_release' }, supervisor, offered)).toThrow('No action "payment_run_release" you may call; erp_find_tools with kind write lists the actions you may call.');
    expect(() => genericCall(ERP_POST, { action: 'get_vendors' }, supervisor, offered)).toThrow('get_vendors is a read: call erp_get with path /vendors');
    const post = genericMcpTools(supervisor).find((t) => t.name === ERP_POST)!;
    expect((post.inputSchema.properties!.action as { enum: string[] }).enum).not.toContain('payment_run_release');
  });

  it('given erp_get with a path and filters, then the read of that path, literal segments preferred to ids', () => {
    const list = through(ERP_GET, { path: '/ap-invoices', query: { status: 'approved', limit: 5 } });
    expect(bindCall(list.tool, list.args)).toEqual(bindCall(named('get_ap_invoices'), { status: 'approved', limit: 5 }));
    const one = through(ERP_GET, { path: '/payment-runs/PR-000002' });
    expect(bindCall(one.tool, one.args)).toMatchObject({ method: 'GET', path: '/payment-runs/PR-000002' });
    expect(through(ERP_GET, { path: '/reports/ap-aging?as_of=2026-10-09' })).toMatchObject({ tool: { name: 'get_reports_ap_aging' }, args: { as_of: '2026-10-09' } });
  });

  it('given erp_get with a filter the read does not take, then the named tool\'s own refusal', () => {
    const call = through(ERP_GET, { path: '/vendors', query: { colour: 'red' } });
    expect(() => bindCall(call.tool, call.args)).toThrow(/^get_vendors takes no argument colour \(it takes /);
  });

  it('given erp_get with a path no read of the caller matches, then a usage error', () => {
    expect(() => genericCall(ERP_GET, { path: '/payroll/runs' }, supervisor, offered)).toThrow('No path you may read matches /payroll/runs; erp_find_tools with kind read lists them.');
    expect(() => genericCall(ERP_GET, { path: 'vendors' }, supervisor, offered)).toThrow(/needs path: an API path starting with \//);
  });

  it('finds tools by words in any case, saying which are offered and how to call the rest', () => {
    const call = genericCall(ERP_FIND_TOOLS, { search: 'Payment-Runs', kind: 'write' }, supervisor, offered);
    const items = ('answer' in call ? call.answer.items : []) as { name: string; offered: boolean; call_with: string }[];
    expect(items.map((i) => i.name)).toEqual(expect.arrayContaining(['payment_run_create', 'payment_run_submit']));
    expect(items.every((i) => i.offered)).toBe(true);
    const reads = genericCall(ERP_FIND_TOOLS, { search: 'payment runs', kind: 'read' }, supervisor, offered);
    const byId = ('answer' in reads ? reads.answer.items : []) as { name: string; offered: boolean; call_with: string }[];
    expect(byId.find((i) => i.name === 'get_payment_runs_by_id')).toMatchObject({ offered: false, call_with: 'erp_get with path /payment-runs/{id} (ids filled in) and its other arguments in query' });
  });

  it('describes a tool with the input schema of its named tool', () => {
    const call = genericCall(ERP_DESCRIBE_TOOL, { name: 'get_payment_runs_by_id' }, supervisor, offered);
    expect('answer' in call && call.answer).toMatchObject({ name: 'get_payment_runs_by_id', method: 'GET', input_schema: named('get_payment_runs_by_id').parameters, offered: false });
    expect(() => genericCall(ERP_DESCRIBE_TOOL, { name: 'nope' }, supervisor, offered)).toThrow(/No tool "nope" you may call/);
  });
});
