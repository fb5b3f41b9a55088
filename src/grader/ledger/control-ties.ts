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
 * The registered control kinds. The areas that own the documents add theirs (AP and GRNI with
 * payables and receiving, cash with payments, inventory with receiving) as one entry each.
 */
export const CONTROL_TIES: readonly ControlTie[] = [];
