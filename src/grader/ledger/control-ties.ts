/**
 * How the grader computes each control account's subledger, independently of the ledger and of the
 * deciders (docs/ledger.md). A `ledger_ties` check names control kinds; each kind here says which
 * GL accounts make up the control, its normal side, and the SQL that computes the subledger from
 * the documents' read models.
 */
export interface ControlTie {
  /** The name ledger_ties checks use: ap, grni, cash, inventory, ar. */
  kind: string;
  /** GL accounts whose balance is the control, e.g. ['2000']. */
  accounts: readonly string[];
  /** 'credit' for liabilities (AP, GRNI): balance = credits − debits; 'debit' for assets. */
  normal: 'debit' | 'credit';
  /**
   * SQL over the read models returning one row with a `balance` column in integer cents, as of the
   * grading date `:as_of`. It must never read gl_lines: the point is an independent computation.
   */
  subledgerSql: string;
}

/**
 * The registered control kinds, each subledger summed from its documents' own tables: cash from the
 * bank transactions, inventory from the stock movements, WIP from the work orders' WIP movements, GRNI from receipts less what invoices
 * matched, AP from the invoices' AP movements, AR from the customers' AR movements. A manual entry to a control account moves the GL
 * and none of these, so the tie shows it.
 */
export const CONTROL_TIES: readonly ControlTie[] = [
  { kind: 'cash', accounts: ['1000', '1010'], normal: 'debit', subledgerSql: 'SELECT COALESCE(SUM(amount), 0) AS balance FROM bank_transactions WHERE date <= :as_of' },
  { kind: 'inventory', accounts: ['1300'], normal: 'debit', subledgerSql: 'SELECT COALESCE(SUM(value), 0) AS balance FROM inventory_transactions WHERE date <= :as_of' },
  {
    kind: 'grni', accounts: ['2100'], normal: 'credit',
    subledgerSql: `SELECT (SELECT COALESCE(SUM(amount), 0) FROM receipt_lines WHERE date <= :as_of)
      - (SELECT COALESCE(SUM(amount), 0) FROM receipt_lines WHERE status = 'reversed' AND reversal_date <= :as_of)
      - (SELECT COALESCE(SUM(value), 0) FROM grni_matches WHERE date <= :as_of) AS balance`,
  },
  { kind: 'ap', accounts: ['2000'], normal: 'credit', subledgerSql: 'SELECT COALESCE(SUM(amount), 0) AS balance FROM ap_transactions WHERE date <= :as_of' },
  { kind: 'wip', accounts: ['1310'], normal: 'debit', subledgerSql: 'SELECT COALESCE(SUM(amount), 0) AS balance FROM wip_transactions WHERE date <= :as_of' },
  { kind: 'ar', accounts: ['1200'], normal: 'debit', subledgerSql: 'SELECT COALESCE(SUM(amount), 0) AS balance FROM ar_transactions WHERE date <= :as_of' },
];
