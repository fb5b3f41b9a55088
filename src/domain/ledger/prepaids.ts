import { Type } from '@sinclair/typebox';
import { AmortizationRunPosted, PrepaidScheduleCreated } from '../../events/contracts/ledger-close';
import type { Queries } from '../../projections';
import { balanceOf } from '../../projections/ledger';
import type { PrepaidScheduleRow } from '../../projections/ledger-schedules';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse } from '../decision';
import { MonthInput } from '../master/inputs';
import { formatCents, fromCents, toCents } from '../money';
import { Body, IdInput, ListQuery, MoneyInput, Opt } from '../schemas';
import { registerCloseCheck } from './close-checks';
import { JE_POST } from './journal-entries';
import { JournalBuilder } from './journal';
import { assertAccountKind, monthlyTake, monthsThrough, runDate } from './schedules';

export const PREPAID_REGISTER = 'prepaid.register';
const tag = 'ledger';

/** A prepayment is expensed straight line over its months, from its first month. */
export function amortizationFor(s: PrepaidScheduleRow, period: string): number {
  return monthlyTake(s.amount, s.amortized, monthsThrough(s.start_period, period), s.months);
}

function scheduleView(read: Queries, id: string) {
  const s = read.schedules.prepaid(id);
  if (!s) return undefined;
  const history = read.schedules.amortization.linesOf(id);
  return {
    ...withDecimals(s, ['amount', 'opening_amortized', 'amortized']),
    unamortized: fromCents(s.amount - s.amortized),
    amortization: history.map((h) => ({ period: h.period, run: h.run, amount: fromCents(h.amount) })),
    links: history.map((h) => ({ rel: 'amortization_run', type: 'amortization_run', id: h.run })),
  };
}

function runView(read: Queries, id: string) {
  const run = read.schedules.amortization.run(id);
  if (!run) return undefined;
  return { ...withDecimals(run, ['total']), lines: read.schedules.amortization.lines(id).map((l) => ({ schedule: l.item, amount: fromCents(l.amount) })) };
}

export const prepaidRoutes: RouteDef[] = [
  defineAction({
    action: 'prepaid.register', method: 'POST', path: '/prepaid-schedules', tag, status: 201, objectType: 'prepaid_schedule',
    summary: 'Register a prepayment already posted to a prepaid account (named in source), to be expensed straight line over its months from start_period',
    body: Body({
      description: Type.String({ minLength: 1, maxLength: 200 }),
      prepaid_account: Type.String({ pattern: '^[0-9]{4,6}$' }),
      expense_account: Type.String({ pattern: '^[0-9]{4,6}$' }),
      department: Opt(IdInput),
      amount: MoneyInput,
      start_period: MonthInput,
      months: Type.Integer({ minimum: 1, maximum: 120 }),
      opening_amortized: Opt(MoneyInput),
      source: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    permission: PREPAID_REGISTER, emits: [PrepaidScheduleCreated],
    decide: ({ body }, ctx) => {
      const bad = assertAccountKind(ctx.read, body.prepaid_account, 'prepaid account', 'asset', 'debit') ?? assertAccountKind(ctx.read, body.expense_account, 'expense account', 'expense');
      if (bad) return bad;
      if (body.department && !ctx.read.org.department(body.department)) return refuse('not_found', `No department ${body.department}.`);
      const amount = toCents(body.amount);
      const opening = body.opening_amortized === undefined ? 0 : toCents(body.opening_amortized);
      if (amount <= 0) return refuse('invalid_request', 'A prepayment has a positive amount.', 422);
      if (opening < 0 || opening > amount) return refuse('invalid_request', `Opening amortization ${formatCents(opening)} cannot exceed the amount ${formatCents(amount)}.`, 422);
      const id = ctx.nextId('PPD');
      return emit(PrepaidScheduleCreated, {
        id, description: body.description, prepaid_account: body.prepaid_account, expense_account: body.expense_account, department: body.department ?? null,
        amount, start_period: body.start_period, months: body.months, opening_amortized: opening, source: body.source,
      }, 'prepaid_schedule', id);
    },
    view: scheduleView,
  }),
  defineAction({
    action: 'amortization.run', method: 'POST', path: '/amortization-runs', tag, status: 201, objectType: 'amortization_run',
    summary: "Post a month's amortization of every prepaid schedule: Dr its expense account / Cr the prepaid account, dated the month end",
    body: Body({ period: MonthInput }),
    permission: JE_POST, emits: [AmortizationRunPosted],
    decide: ({ body }, ctx) => {
      const date = runDate(ctx, body.period, 'amortization', ctx.read.schedules.amortization.runFor(body.period), ctx.read.schedules.amortization.latestRun());
      if (isRefusal(date)) return date;
      const id = ctx.nextId('AMR');
      const builder = new JournalBuilder(date, `Prepaid amortization ${body.period} (${id})`);
      const lines: { schedule: string; amount: number }[] = [];
      for (const s of ctx.read.schedules.prepaids()) {
        const amount = amortizationFor(s, body.period);
        if (amount === 0) continue;
        lines.push({ schedule: s.id, amount });
        builder.debit(s.expense_account, amount, { document_id: s.id, department: s.department }).credit(s.prepaid_account, amount, { document_id: s.id });
      }
      const journal = builder.build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(AmortizationRunPosted, { id, period: body.period, lines, journal }, 'amortization_run', id);
    },
    view: runView,
  }),
  defineQuery({
    path: '/prepaid-schedules', tag, summary: 'The prepaid register: each prepayment, what is amortized and what is left', permission: null,
    query: ListQuery({ status: Opt(Type.Union([Type.Literal('amortizing'), Type.Literal('fully_amortized')])), prepaid_account: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'prepaid_schedules', { status: query.status, prepaid_account: query.prepaid_account }, query, {
      map: (r) => withDecimals(r as unknown as PrepaidScheduleRow, ['amount', 'opening_amortized', 'amortized']),
    }),
  }),
  defineQuery({
    path: '/prepaid-schedules/{id}', tag, summary: 'A prepaid schedule with its amortization by month', permission: null, objectType: 'prepaid_schedule',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => scheduleView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/amortization-runs', tag, summary: 'Monthly prepaid amortization runs', permission: null,
    query: ListQuery({ period: Opt(MonthInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'amortization_runs', { period: query.period }, query, { orderBy: 'period', map: (r) => withDecimals(r as { total: number }, ['total']) }),
  }),
  defineQuery({
    path: '/amortization-runs/{id}', tag, summary: 'An amortization run with what each schedule took', permission: null, objectType: 'amortization_run',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => runView(ctx.read, params.id!),
  }),
];

registerCloseCheck({
  id: 'prepaid_amortization',
  summary: "The month's amortization run is posted, and the prepaid register agrees with the ledger's prepaid accounts",
  blocking: false,
  run: (read, period, end) => {
    const all = read.schedules.prepaids();
    if (all.length === 0) return [];
    const problems: string[] = [];
    if (!read.schedules.amortization.runFor(period) && all.some((s) => s.start_period <= period && s.status === 'amortizing')) problems.push(`No amortization run for ${period}.`);
    const byAccount = new Map<string, number>();
    for (const s of all) {
      if (s.created_date > end) continue;
      byAccount.set(s.prepaid_account, (byAccount.get(s.prepaid_account) ?? 0) + s.amount - s.opening_amortized - read.schedules.amortization.takenThrough(s.id, period));
    }
    const totals = new Map(read.ledger.totalsAsOf(end).map((t) => [t.account, t]));
    for (const [account, register] of [...byAccount.entries()].sort()) {
      const ledger = balanceOf(read.ledger.account(account)!, totals.get(account) ?? { debit: 0, credit: 0 });
      if (ledger !== register) problems.push(`Account ${account} is ${formatCents(ledger)} in the ledger and ${formatCents(register)} unamortized in the prepaid register.`);
    }
    return problems;
  },
});
