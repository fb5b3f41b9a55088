import { Type } from '@sinclair/typebox';
import { EmployeeCompensationSet, PayrollPolicySet } from '../../events/contracts/payroll';
import type { Queries } from '../../projections';
import type { CompensationRow } from '../../projections/payroll';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse } from '../decision';
import { assertAccountsPostable } from '../ledger/journal';
import { toCents } from '../money';
import { Body, DateInput, MoneyInput, NoteInput, Opt } from '../schemas';

/** Payroll permissions: who sets pay and the accounts, who runs payroll, who reads what people earn. */
export const PAYROLL_MANAGE = 'payroll.manage';
export const PAYROLL_RUN = 'payroll.run';
export const PAYROLL_READ = 'payroll.read';
const tag = 'payroll';
const Account = Type.String({ pattern: '^[0-9]{4,6}$' });

export const compensationView = (c: CompensationRow) => withDecimals(c, ['annual_salary', 'hourly_rate']);

function employeeView(read: Queries, id: string) {
  const user = read.org.user(id);
  if (!user || user.kind !== 'staff') return undefined;
  const history = read.payroll.compensationHistory(id);
  const current = read.payroll.compensation(id, read.clock.today());
  return { employee: id, name: user.name, department: user.department, current: current ? compensationView(current) : null, history: history.map(compensationView) };
}

export const compensationRoutes: RouteDef[] = [
  defineAction({
    action: 'payroll.set_policy', method: 'POST', path: '/payroll/policy', tag, objectType: 'payroll_policy',
    summary: 'Set the accounts payroll posts to: wages, employer taxes, payroll taxes payable, accrued payroll',
    body: Body({ wages_account: Account, employer_taxes_account: Account, taxes_payable_account: Account, accrued_payroll_account: Account }),
    permission: PAYROLL_MANAGE, emits: [PayrollPolicySet],
    decide: ({ body }, ctx) => {
      const bad = assertAccountsPostable(ctx.read, [body.wages_account, body.employer_taxes_account, body.taxes_payable_account, body.accrued_payroll_account]);
      if (bad) return bad;
      return emit(PayrollPolicySet, body, 'payroll_policy', 'policy');
    },
    view: (read) => read.payroll.policy(),
  }),
  defineQuery({
    path: '/payroll/policy', tag, summary: 'The accounts payroll posts to', permission: null,
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => ctx.read.payroll.policy() ?? null,
  }),
  defineAction({
    action: 'employee.set_compensation', method: 'POST', path: '/employees/{id}/compensation', tag, objectType: 'employee',
    summary: "Set an employee's pay from a date: an annual salary or an hourly rate, and the employer's taxes and benefits in basis points of gross",
    description: 'Restricted data (class payroll): the handbook says who may see it; the grader checks what is sent to whom.',
    body: Body({
      kind: Type.Union([Type.Literal('salary'), Type.Literal('hourly')]),
      annual_salary: Opt(MoneyInput), hourly_rate: Opt(MoneyInput),
      employer_burden_bp: Type.Integer({ minimum: 0, maximum: 10000 }),
      effective_date: DateInput, note: Opt(NoteInput),
    }),
    permission: PAYROLL_MANAGE, emits: [EmployeeCompensationSet],
    decide: ({ params, body }, ctx) => {
      const user = ctx.read.org.user(params.id!);
      if (!user || user.kind !== 'staff') return refuse('not_found', `No employee ${params.id}.`);
      const salaried = body.kind === 'salary';
      const amount = salaried ? body.annual_salary : body.hourly_rate;
      if (amount === undefined || (salaried ? body.hourly_rate : body.annual_salary) !== undefined) {
        return refuse('invalid_request', salaried ? 'A salaried employee has an annual_salary and no hourly_rate.' : 'An hourly employee has an hourly_rate and no annual_salary.', 422);
      }
      const cents = toCents(amount);
      if (cents <= 0) return refuse('invalid_request', 'Pay is a positive amount.', 422);
      return emit(EmployeeCompensationSet, {
        employee: user.id, kind: body.kind, annual_salary: salaried ? cents : null, hourly_rate: salaried ? null : cents,
        employer_burden_bp: body.employer_burden_bp, effective_date: body.effective_date, note: body.note ?? '',
      }, 'employee', user.id);
    },
    view: employeeView,
  }),
  defineQuery({
    path: '/employees/{id}/compensation', tag, summary: "An employee's pay now and its history (restricted: payroll)", permission: PAYROLL_READ, objectType: 'employee',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => employeeView(ctx.read, params.id!),
  }),
];
