import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { AccountCode, CashMovement, Journal } from './ledger';

/**
 * Payroll: every amount here is of the restricted class `payroll` (seed 000 §7.2): salaries, and
 * the wage and payroll-tax lines of payroll postings. Who may see them is the data_access grants'
 * business; the grader's disclose_restricted checks what was sent to whom.
 */

/** The accounts payroll posts to (set once by the company). */
export const PayrollPolicySet = defineEvent(
  'PayrollPolicySet',
  Obj({ wages_account: AccountCode, employer_taxes_account: AccountCode, taxes_payable_account: AccountCode, accrued_payroll_account: AccountCode }),
);

/** An employee's pay from a date: an annual salary, or an hourly rate. */
export const EmployeeCompensationSet = defineEvent(
  'EmployeeCompensationSet',
  Obj({
    employee: Id,
    kind: Type.Union([Type.Literal('salary'), Type.Literal('hourly')]),
    annual_salary: Nullable(PositiveCents),
    hourly_rate: Nullable(PositiveCents),
    /** Employer taxes and benefits, in basis points of gross pay. */
    employer_burden_bp: Type.Integer({ minimum: 0, maximum: 10000 }),
    effective_date: DateString,
    note: Text,
  }),
);

export const PayrollLine = Obj({
  employee: Id,
  department: Id,
  gross: PositiveCents,
  /** Withheld from the employee: income tax, their share of social security and medicare. */
  employee_taxes: PositiveCents,
  /** The employer's taxes and benefits on top of gross pay. */
  employer_taxes: PositiveCents,
  net: PositiveCents,
});

/**
 * A pay run: Dr wages and employer taxes per department; Cr cash (net pay) and payroll taxes
 * payable (what was withheld plus the employer's share), paid from a company bank account.
 */
export const PayrollRunPosted = defineEvent(
  'PayrollRunPosted',
  Obj({
    id: Id,
    pay_date: DateString,
    period_start: DateString,
    period_end: DateString,
    bank_account: Id,
    lines: Type.Array(PayrollLine, { minItems: 1, maxItems: 2000 }),
    journal: Journal,
    cash: Type.Array(CashMovement, { minItems: 1, maxItems: 1 }),
  }),
);
