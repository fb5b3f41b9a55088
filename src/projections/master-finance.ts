import { BudgetSet, PaymentTermsDefined, TaxCodeDefined } from '../events/contracts/master';
import { defineReadModel, on } from './read-model';

export interface TaxCodeRow {
  code: string;
  rate_bp: number;
  description: string;
}

export interface TermsRow {
  code: string;
  days_due: number;
  discount_days: number;
  discount_bp: number;
  description: string;
}

export interface BudgetRow {
  department: string;
  account: string;
  month: string;
  amount: number;
  set_by: string;
  set_date: string;
}

type Budget = BudgetRow & Record<string, unknown>;

/** Tax codes, payment terms and budgets: the reference data finance documents are computed from. */
export const finance = defineReadModel({
  name: 'finance-master',
  tables: [
    { name: 'tax_codes', columns: { code: 'text', rate_bp: 'integer', description: 'text', defined_by: 'text', defined_date: 'text' }, key: ['code'] },
    { name: 'terms', columns: { code: 'text', days_due: 'integer', discount_days: 'integer', discount_bp: 'integer', description: 'text', defined_by: 'text', defined_date: 'text' }, key: ['code'] },
    {
      name: 'budgets',
      columns: { department: 'text', account: 'text', month: 'text', amount: 'integer', set_by: 'text', set_date: 'text' },
      key: ['department', 'account', 'month'],
      indexes: [['month']],
    },
  ],
  handlers: [
    on(TaxCodeDefined, (tx, d, e) => {
      const row = { ...d, defined_by: e.actor, defined_date: e.businessDate };
      tx.upsert('tax_codes', row, (r) => Object.assign(r, row));
    }),
    on(PaymentTermsDefined, (tx, d, e) => {
      const row = { ...d, defined_by: e.actor, defined_date: e.businessDate };
      tx.upsert('terms', row, (r) => Object.assign(r, row));
    }),
    on(BudgetSet, (tx, d, e) => {
      for (const line of d.lines) {
        const row = { department: d.department, account: line.account, month: line.month, amount: line.amount, set_by: e.actor, set_date: e.businessDate };
        tx.upsert<Budget>('budgets', row, (r) => Object.assign(r, row));
      }
    }),
  ],
  queries: (t) => ({
    taxCode: (code: string) => t.get<TaxCodeRow & Record<string, unknown>>('tax_codes', code),
    terms: (code: string) => t.get<TermsRow & Record<string, unknown>>('terms', code),
    /** Budget cells of the months from … to (inclusive), for one department or all. */
    budgets(department: string | null, fromMonth: string, toMonth: string): BudgetRow[] {
      return t.find<Budget>('budgets', department ? { department } : {}, { orderBy: ['department', 'account', 'month'] })
        .filter((b) => b.month >= fromMonth && b.month <= toMonth);
    },
  }),
});
