import { Type } from '@sinclair/typebox';
import { PayrollRunPosted } from '../../events/contracts/payroll';
import type { Queries } from '../../projections';
import type { PayrollRunRow } from '../../projections/payroll';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse } from '../decision';
import { assertPeriodOpen, JournalBuilder } from '../ledger/journal';
import { formatCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, Opt } from '../schemas';
import { PAYROLL_READ, PAYROLL_RUN } from './compensation';

const tag = 'payroll';
const objectType = 'payroll_run';
const runMoney = ['gross', 'employee_taxes', 'employer_taxes', 'net'] as const;

function runView(read: Queries, id: string) {
  const run = read.payroll.run(id);
  if (!run) return undefined;
  return {
    ...withDecimals(run, [...runMoney]),
    lines: read.payroll.lines(id).map((l) => withDecimals(l, [...runMoney])),
    links: [{ rel: 'bank_account', type: 'bank_account', id: run.bank_account }],
  };
}

const LineInput = Body({ employee: IdInput, gross: MoneyInput, employee_taxes: MoneyInput, employer_taxes: MoneyInput });

export const payrollRunRoutes: RouteDef[] = [
  defineAction({
    action: 'payroll.run', method: 'POST', path: '/payroll-runs', tag, status: 201, objectType,
    summary: 'Post a pay run: Dr wages and employer taxes by department; Cr the bank account (net pay) and payroll taxes payable (withheld plus employer share)',
    description: 'Each line is one employee for the pay period; an employee already paid for a day of the period is refused. Amounts are restricted data (class payroll).',
    body: Body({ pay_date: Opt(DateInput), period_start: DateInput, period_end: DateInput, bank_account: IdInput, lines: Type.Array(LineInput, { minItems: 1, maxItems: 2000 }) }),
    permission: PAYROLL_RUN, emits: [PayrollRunPosted],
    decide: ({ body }, ctx) => {
      const policy = ctx.read.payroll.policy();
      if (!policy) return refuse('invalid_state', 'No payroll policy: set the accounts with POST /payroll/policy first.');
      const bank = ctx.read.cash.bankAccount(body.bank_account);
      if (!bank) return refuse('not_found', `No bank account ${body.bank_account}.`);
      const payDate = body.pay_date ?? ctx.today;
      if (payDate > ctx.today) return refuse('invalid_request', `A pay run cannot be dated after today (${ctx.today}).`, 422);
      // Salaried staff are paid for the current period, so the period may end after the pay date.
      if (body.period_end < body.period_start) return refuse('invalid_request', `The pay period ends (${body.period_end}) before it starts (${body.period_start}).`, 422);
      const closed = assertPeriodOpen(ctx, payDate);
      if (closed) return closed;
      const seen = new Set<string>();
      const lines = [];
      for (const [i, l] of body.lines.entries()) {
        const user = ctx.read.org.user(l.employee);
        if (!user || user.kind !== 'staff' || !user.department) return refuse('not_found', `Line ${i + 1}: no employee ${l.employee} with a department.`);
        if (seen.has(user.id)) return refuse('invalid_request', `Line ${i + 1}: ${user.id} is already on this run.`, 422);
        seen.add(user.id);
        const paid = ctx.read.payroll.overlapping(user.id, body.period_start, body.period_end);
        if (paid) return refuse('already_exists', `Line ${i + 1}: ${user.id} is already paid for ${paid.period_start} to ${paid.period_end} by ${paid.run}.`);
        const [gross, employeeTaxes, employerTaxes] = [toCents(l.gross), toCents(l.employee_taxes), toCents(l.employer_taxes)];
        if (gross <= 0 || employeeTaxes < 0 || employerTaxes < 0) return refuse('invalid_request', `Line ${i + 1}: gross pay is positive and taxes are not negative.`, 422);
        if (employeeTaxes > gross) return refuse('invalid_request', `Line ${i + 1}: withholding ${formatCents(employeeTaxes)} exceeds gross pay ${formatCents(gross)}.`, 422);
        lines.push({ employee: user.id, department: user.department, gross, employee_taxes: employeeTaxes, employer_taxes: employerTaxes, net: gross - employeeTaxes });
      }
      const id = ctx.nextId('PAYRUN');
      const builder = new JournalBuilder(payDate, `Payroll ${id}, ${body.period_start} to ${body.period_end}`);
      const departments = [...new Set(lines.map((l) => l.department))].sort();
      for (const department of departments) {
        const own = lines.filter((l) => l.department === department);
        builder.debit(policy.wages_account, own.reduce((s, l) => s + l.gross, 0), { document_id: id, department });
        builder.debit(policy.employer_taxes_account, own.reduce((s, l) => s + l.employer_taxes, 0), { document_id: id, department });
      }
      const net = lines.reduce((s, l) => s + l.net, 0);
      builder.credit(bank.gl_account, net, { document_id: id });
      const journal = builder.balanceTo(policy.taxes_payable_account, { document_id: id }).build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(PayrollRunPosted, {
        id, pay_date: payDate, period_start: body.period_start, period_end: body.period_end, bank_account: bank.id, lines, journal,
        cash: [{ bank_account: bank.id, amount: -net, kind: 'payroll', reference: id }],
      }, objectType, id);
    },
    view: runView,
  }),
  defineQuery({
    path: '/payroll-runs', tag, summary: 'Pay runs with their totals (restricted: payroll)', permission: PAYROLL_READ,
    query: ListQuery({ bank_account: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'payroll_runs', { bank_account: query.bank_account }, query, {
      orderBy: ['pay_date', 'id'], map: (r) => withDecimals(r as unknown as PayrollRunRow, [...runMoney]),
    }),
  }),
  defineQuery({
    path: '/payroll-runs/{id}', tag, summary: 'A pay run with a line per employee (restricted: payroll)', permission: PAYROLL_READ, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => runView(ctx.read, params.id!),
  }),
];
