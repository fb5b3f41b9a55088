import { Type } from '@sinclair/typebox';
import { DepreciationRunPosted, FixedAssetRegistered } from '../../events/contracts/ledger-close';
import type { Queries } from '../../projections';
import { balanceOf } from '../../projections/ledger';
import type { FixedAssetRow } from '../../projections/ledger-schedules';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse } from '../decision';
import { MonthInput } from '../master/inputs';
import { formatCents, fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, Opt } from '../schemas';
import { registerCloseCheck } from './close-checks';
import { JE_POST } from './journal-entries';
import { JournalBuilder } from './journal';
import { assertAccountKind, monthlyTake, monthsThrough, nextPeriod, runDate } from './schedules';

export const FIXED_ASSET_REGISTER = 'fixed_asset.register';
const tag = 'ledger';

/** An asset depreciates from the month after it is placed in service, straight line to its salvage value. */
export function depreciationFor(asset: FixedAssetRow, period: string): number {
  return monthlyTake(asset.cost - asset.salvage, asset.accumulated, monthsThrough(nextPeriod(asset.in_service_date), period), asset.life_months);
}

function assetView(read: Queries, id: string) {
  const a = read.schedules.asset(id);
  if (!a) return undefined;
  const history = read.schedules.depreciation.linesOf(id);
  return {
    ...withDecimals(a, ['cost', 'salvage', 'opening_accumulated', 'accumulated']),
    net_book_value: fromCents(a.cost - a.accumulated),
    monthly_depreciation: fromCents(Math.round((a.cost - a.salvage) / a.life_months)),
    depreciation: history.map((h) => ({ period: h.period, run: h.run, amount: fromCents(h.amount) })),
    links: history.map((h) => ({ rel: 'depreciation_run', type: 'depreciation_run', id: h.run })),
  };
}

function runView(read: Queries, id: string) {
  const run = read.schedules.depreciation.run(id);
  if (!run) return undefined;
  return { ...withDecimals(run, ['total']), lines: read.schedules.depreciation.lines(id).map((l) => ({ asset: l.item, amount: fromCents(l.amount) })) };
}

export const fixedAssetRoutes: RouteDef[] = [
  defineAction({
    action: 'fixed_asset.register', method: 'POST', path: '/fixed-assets', tag, status: 201, objectType: 'fixed_asset',
    summary: 'Register a fixed asset whose cost is already posted (by an invoice, a withdrawal or an entry named in source): straight-line depreciation from the month after it is placed in service',
    body: Body({
      description: Type.String({ minLength: 1, maxLength: 200 }),
      cost_account: Type.String({ pattern: '^[0-9]{4,6}$' }),
      accumulated_account: Type.String({ pattern: '^[0-9]{4,6}$' }),
      expense_account: Type.String({ pattern: '^[0-9]{4,6}$' }),
      department: Opt(IdInput),
      cost: MoneyInput,
      salvage: Opt(MoneyInput),
      life_months: Type.Integer({ minimum: 1, maximum: 600 }),
      in_service_date: DateInput,
      opening_accumulated: Opt(MoneyInput),
      source: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    permission: FIXED_ASSET_REGISTER, emits: [FixedAssetRegistered],
    decide: ({ body }, ctx) => {
      const bad = assertAccountKind(ctx.read, body.cost_account, 'cost account', 'asset', 'debit')
        ?? assertAccountKind(ctx.read, body.accumulated_account, 'accumulated depreciation account', 'asset', 'credit')
        ?? assertAccountKind(ctx.read, body.expense_account, 'depreciation expense account', 'expense');
      if (bad) return bad;
      if (body.department && !ctx.read.org.department(body.department)) return refuse('not_found', `No department ${body.department}.`);
      const cost = toCents(body.cost);
      const salvage = body.salvage === undefined ? 0 : toCents(body.salvage);
      const opening = body.opening_accumulated === undefined ? 0 : toCents(body.opening_accumulated);
      if (cost <= 0) return refuse('invalid_request', 'An asset has a positive cost.', 422);
      if (salvage < 0 || salvage >= cost) return refuse('invalid_request', `Salvage value ${formatCents(salvage)} must be at least zero and below the cost ${formatCents(cost)}.`, 422);
      if (opening < 0 || opening > cost - salvage) return refuse('invalid_request', `Opening depreciation ${formatCents(opening)} cannot exceed the depreciable ${formatCents(cost - salvage)}.`, 422);
      const id = ctx.nextId('FA');
      return emit(FixedAssetRegistered, {
        id, description: body.description, cost_account: body.cost_account, accumulated_account: body.accumulated_account, expense_account: body.expense_account,
        department: body.department ?? null, cost, salvage, life_months: body.life_months, in_service_date: body.in_service_date, opening_accumulated: opening, source: body.source,
      }, 'fixed_asset', id);
    },
    view: assetView,
  }),
  defineAction({
    action: 'depreciation.run', method: 'POST', path: '/depreciation-runs', tag, status: 201, objectType: 'depreciation_run',
    summary: "Post a month's depreciation of every asset in service: Dr each asset's expense account / Cr its accumulated depreciation, dated the month end",
    body: Body({ period: MonthInput }),
    permission: JE_POST, emits: [DepreciationRunPosted],
    decide: ({ body }, ctx) => {
      const date = runDate(ctx, body.period, 'depreciation', ctx.read.schedules.depreciation.runFor(body.period), ctx.read.schedules.depreciation.latestRun());
      if (isRefusal(date)) return date;
      const id = ctx.nextId('DPR');
      const builder = new JournalBuilder(date, `Depreciation ${body.period} (${id})`);
      const lines: { asset: string; amount: number }[] = [];
      for (const a of ctx.read.schedules.assets()) {
        const amount = a.in_service_date <= date ? depreciationFor(a, body.period) : 0;
        if (amount === 0) continue;
        lines.push({ asset: a.id, amount });
        builder.debit(a.expense_account, amount, { document_id: a.id, department: a.department }).credit(a.accumulated_account, amount, { document_id: a.id });
      }
      const journal = builder.build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(DepreciationRunPosted, { id, period: body.period, lines, journal }, 'depreciation_run', id);
    },
    view: runView,
  }),
  defineQuery({
    path: '/fixed-assets', tag, summary: 'The fixed-asset register: cost, accumulated depreciation and status of each asset', permission: null,
    query: ListQuery({ status: Opt(Type.Union([Type.Literal('in_service'), Type.Literal('fully_depreciated')])), cost_account: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'fixed_assets', { status: query.status, cost_account: query.cost_account }, query, {
      map: (r) => withDecimals(r as unknown as FixedAssetRow, ['cost', 'salvage', 'opening_accumulated', 'accumulated']),
    }),
  }),
  defineQuery({
    path: '/fixed-assets/{id}', tag, summary: 'A fixed asset with its net book value and depreciation by month', permission: null, objectType: 'fixed_asset',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => assetView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/depreciation-runs', tag, summary: 'Monthly depreciation runs', permission: null,
    query: ListQuery({ period: Opt(MonthInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'depreciation_runs', { period: query.period }, query, { orderBy: 'period', map: (r) => withDecimals(r as { total: number }, ['total']) }),
  }),
  defineQuery({
    path: '/depreciation-runs/{id}', tag, summary: 'A depreciation run with what each asset took', permission: null, objectType: 'depreciation_run',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => runView(ctx.read, params.id!),
  }),
];

/** The register's cost and accumulated depreciation per GL account, as of a month end, beside the ledger. */
export function registerVsLedger(read: Queries, end: string): { account: string; register: number; ledger: number }[] {
  const period = end.slice(0, 7);
  const byAccount = new Map<string, number>();
  const add = (account: string, cents: number) => byAccount.set(account, (byAccount.get(account) ?? 0) + cents);
  for (const a of read.schedules.assets()) {
    if (a.in_service_date > end) continue;
    add(a.cost_account, a.cost);
    add(a.accumulated_account, a.opening_accumulated + read.schedules.depreciation.takenThrough(a.id, period));
  }
  const totals = new Map(read.ledger.totalsAsOf(end).map((t) => [t.account, t]));
  return [...byAccount.keys()].sort().map((account) => ({
    account, register: byAccount.get(account)!, ledger: balanceOf(read.ledger.account(account)!, totals.get(account) ?? { debit: 0, credit: 0 }),
  }));
}

registerCloseCheck({
  id: 'depreciation',
  summary: "The month's depreciation run is posted, and the fixed-asset register agrees with the ledger's asset accounts",
  blocking: false,
  run: (read, period, end) => {
    const assets = read.schedules.assets();
    if (assets.length === 0) return [];
    const problems: string[] = [];
    if (!read.schedules.depreciation.runFor(period) && assets.some((a) => a.in_service_date <= end && a.status === 'in_service')) problems.push(`No depreciation run for ${period}.`);
    for (const r of registerVsLedger(read, end)) {
      if (r.register !== r.ledger) problems.push(`Account ${r.account} is ${formatCents(r.ledger)} in the ledger and ${formatCents(r.register)} in the fixed-asset register.`);
    }
    return problems;
  },
});
