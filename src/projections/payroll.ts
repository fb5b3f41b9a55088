import { EmployeeCompensationSet, PayrollPolicySet, PayrollRunPosted } from '../events/contracts/payroll';
import { documentStamp } from './history';
import { defineReadModel, on } from './read-model';

export interface PayrollPolicyRow {
  key: 'policy';
  wages_account: string;
  employer_taxes_account: string;
  taxes_payable_account: string;
  accrued_payroll_account: string;
}

export interface CompensationRow {
  employee: string;
  effective_date: string;
  kind: 'salary' | 'hourly';
  annual_salary: number | null;
  hourly_rate: number | null;
  employer_burden_bp: number;
  note: string;
  set_by: string;
}

export interface PayrollRunRow {
  id: string;
  pay_date: string;
  period_start: string;
  period_end: string;
  bank_account: string;
  employees: number;
  gross: number;
  employee_taxes: number;
  employer_taxes: number;
  net: number;
  created_by: string;
  created_date: string;
}

export interface PayrollLineRow {
  run: string;
  employee: string;
  department: string;
  period_start: string;
  period_end: string;
  pay_date: string;
  gross: number;
  employee_taxes: number;
  employer_taxes: number;
  net: number;
}

/** Payroll (restricted class `payroll`): the policy, each employee's pay, and the pay runs with a line per employee. */
export const payroll = defineReadModel({
  name: 'payroll',
  tables: [
    { name: 'payroll_policy', columns: { key: 'text', wages_account: 'text', employer_taxes_account: 'text', taxes_payable_account: 'text', accrued_payroll_account: 'text' }, key: ['key'] },
    {
      name: 'employee_compensation',
      columns: { employee: 'text', effective_date: 'text', kind: 'text', annual_salary: 'integer', hourly_rate: 'integer', employer_burden_bp: 'integer', note: 'text', set_by: 'text' },
      key: ['employee', 'effective_date'],
    },
    {
      name: 'payroll_runs',
      columns: {
        id: 'text', pay_date: 'text', period_start: 'text', period_end: 'text', bank_account: 'text', employees: 'integer', gross: 'integer',
        employee_taxes: 'integer', employer_taxes: 'integer', net: 'integer', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['pay_date']],
    },
    {
      name: 'payroll_lines',
      columns: {
        run: 'text', employee: 'text', department: 'text', period_start: 'text', period_end: 'text', pay_date: 'text', gross: 'integer',
        employee_taxes: 'integer', employer_taxes: 'integer', net: 'integer',
      },
      key: ['run', 'employee'],
      indexes: [['employee', 'period_end']],
    },
  ],
  handlers: [
    on(PayrollPolicySet, (tx, d) => void tx.upsert('payroll_policy', { key: 'policy', ...d }, (r) => Object.assign(r, d))),
    on(EmployeeCompensationSet, (tx, d, e) => void tx.upsert('employee_compensation', { ...d, set_by: e.actor }, (r) => Object.assign(r, { ...d, set_by: e.actor }))),
    on(PayrollRunPosted, (tx, d, e) => {
      const total = (f: 'gross' | 'employee_taxes' | 'employer_taxes' | 'net') => d.lines.reduce((s, l) => s + l[f], 0);
      const { created_by, created_date, created_wall } = documentStamp(e, 'posted');
      tx.insert('payroll_runs', {
        id: d.id, pay_date: d.pay_date, period_start: d.period_start, period_end: d.period_end, bank_account: d.bank_account, employees: d.lines.length,
        gross: total('gross'), employee_taxes: total('employee_taxes'), employer_taxes: total('employer_taxes'), net: total('net'), created_by, created_date, created_wall,
      });
      for (const l of d.lines) tx.insert('payroll_lines', { run: d.id, ...l, period_start: d.period_start, period_end: d.period_end, pay_date: d.pay_date });
    }),
  ],
  queries: (t) => ({
    policy: () => t.get<PayrollPolicyRow & Record<string, unknown>>('payroll_policy', 'policy'),
    /** The pay in force for an employee on a date: the latest change effective by then. */
    compensation(employee: string, date: string): CompensationRow | undefined {
      const row = t.prepared('SELECT effective_date FROM employee_compensation WHERE employee = ? AND effective_date <= ? ORDER BY effective_date DESC LIMIT 1').get(employee, date) as { effective_date: string } | undefined;
      return row ? t.get<CompensationRow & Record<string, unknown>>('employee_compensation', { employee, effective_date: row.effective_date }) : undefined;
    },
    compensationHistory: (employee: string) => t.find<CompensationRow & Record<string, unknown>>('employee_compensation', { employee }),
    run: (id: string) => t.get<PayrollRunRow & Record<string, unknown>>('payroll_runs', id),
    lines: (run: string) => t.find<PayrollLineRow & Record<string, unknown>>('payroll_lines', { run }),
    /** A run that already pays the employee for a day between `from` and `to`. */
    overlapping(employee: string, from: string, to: string): PayrollLineRow | undefined {
      return t.prepared('SELECT * FROM payroll_lines WHERE employee = ? AND period_start <= ? AND period_end >= ? ORDER BY run LIMIT 1').get(employee, to, from) as PayrollLineRow | undefined;
    },
    /** The run with the latest pay period ending on or before a date. */
    lastRunEndingBy(date: string): PayrollRunRow | undefined {
      const row = t.prepared('SELECT id FROM payroll_runs WHERE period_end <= ? ORDER BY period_end DESC, id DESC LIMIT 1').get(date) as { id: string } | undefined;
      return row ? t.get<PayrollRunRow & Record<string, unknown>>('payroll_runs', row.id) : undefined;
    },
    /** The latest pay run, by pay date. */
    lastRun(): PayrollRunRow | undefined {
      const row = t.prepared('SELECT id FROM payroll_runs ORDER BY pay_date DESC, id DESC LIMIT 1').get() as { id: string } | undefined;
      return row ? t.get<PayrollRunRow & Record<string, unknown>>('payroll_runs', row.id) : undefined;
    },
  }),
});
