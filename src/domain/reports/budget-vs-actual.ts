import { Type } from '@sinclair/typebox';
import type { Queries } from '../../projections';
import { balanceOf } from '../../projections/ledger';
import { LEDGER_READ } from '../ledger/accounts';
import { MonthInput } from '../master/inputs';
import { fromCents } from '../money';
import { IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/** Committed spend not yet in the ledger (open purchase orders), in cents, per department, account and month range. */
export interface Commitment {
  department: string;
  account: string;
  amount: number;
}

export type CommitmentSource = (read: Queries, range: { department: string | null; from: string; to: string }) => Commitment[];

const commitmentSources: { source: CommitmentSource; rule: string }[] = [];

/**
 * The hook for open commitments: purchasing registers one that returns the open PO value per
 * department and expense account, and budget-vs-actual subtracts it from what is available.
 * `rule` says in one sentence what the source counts; the report prints it.
 * Until an area registers a source, commitments are zero.
 */
export function registerCommitments(source: CommitmentSource, rule = ''): void {
  commitmentSources.push({ source, rule });
}

/** The first month of the fiscal year that `month` falls in. */
export function fiscalYearStart(read: Queries, month: string): string {
  const startMonth = Number((read.clock.company()?.fiscal_year_start ?? '2000-01-01').slice(5, 7));
  const year = Number(month.slice(0, 4));
  const fyYear = Number(month.slice(5, 7)) >= startMonth ? year : year - 1;
  return `${fyYear}-${String(startMonth).padStart(2, '0')}`;
}

interface Cell { budget: number; actual: number; commitments: number }

/** One department and account over a month range, in cents. */
export interface BudgetCell extends Cell {
  department: string;
  account: string;
}

/**
 * Budget, actual postings and open commitments per department and account for the months from … to
 * (inclusive), sorted by department and account: what budget-vs-actual shows and approvers check.
 */
export function budgetCells(read: Queries, range: { department: string | null; from: string; to: string }): BudgetCell[] {
  const cells = new Map<string, BudgetCell>();
  const cell = (department: string, account: string): BudgetCell => {
    const key = `${department}\u0000${account}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { department, account, budget: 0, actual: 0, commitments: 0 }));
    return c;
  };
  for (const b of read.finance.budgets(range.department, range.from, range.to)) cell(b.department, b.account).budget += b.amount;
  for (const t of read.ledger.departmentTotals(range.department, range.from, range.to)) {
    const account = read.ledger.account(t.account);
    if (account) cell(t.department, t.account).actual += balanceOf(account, t);
  }
  for (const { source } of commitmentSources) {
    for (const c of source(read, range)) cell(c.department, c.account).commitments += c.amount;
  }
  return [...cells.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

export const budgetVsActual = defineReport({
  id: 'budget-vs-actual',
  summary: 'Budget against actual postings and open commitments per department and account, for a month range (default: fiscal year to date)',
  params: ReportParams({
    department: Opt(IdInput), from: Opt(MonthInput), to: Opt(MonthInput),
    // The names the seed's ERP gives the same range, so a harness written for it works here too.
    period_from: Opt(Type.String({ pattern: MonthInput.pattern, description: 'Same as from' })), period_to: Opt(Type.String({ pattern: MonthInput.pattern, description: 'Same as to' })),
  }),
  permission: LEDGER_READ,
  run: (ctx, params) => {
    const to = params.to ?? params.period_to ?? ctx.today.slice(0, 7);
    const from = params.from ?? params.period_from ?? fiscalYearStart(ctx.read, to);
    const department = params.department ?? null;
    const cells = budgetCells(ctx.read, { department, from, to });
    const rows = cells.map((c) => {
      const available = c.budget - c.actual - c.commitments;
      return {
        department: c.department, account: c.account, name: ctx.read.ledger.account(c.account)?.name ?? '',
        budget: fromCents(c.budget), actual: fromCents(c.actual), commitments: fromCents(c.commitments),
        available: fromCents(available), over_budget: available < 0, over_on_actuals: c.actual > c.budget,
      };
    });
    const departments = [...new Set(cells.map((c) => c.department))].map((dept) => {
      const own = cells.filter((c) => c.department === dept);
      const sum = (f: keyof Cell) => own.reduce((s, c) => s + c[f], 0);
      const available = sum('budget') - sum('actual') - sum('commitments');
      return { department: dept, budget: fromCents(sum('budget')), actual: fromCents(sum('actual')), commitments: fromCents(sum('commitments')), available: fromCents(available), over_budget: available < 0 };
    });
    const commitment_rules = commitmentSources.map((s) => s.rule).filter((r) => r !== '');
    return { from, to, department, rows, departments, commitment_rules };
  },
});
