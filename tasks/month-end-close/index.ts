import type { TaskCode } from '../../src/task-pack/code';
import { linesReordered, listsReversed } from '../shared/other-ways';
import { generate } from './generate';
import { closePolicy, HANDBOOK, type Judgement } from './judgement';

/**
 * E1 month-end-close (seed 000 task catalog): the staff accountant closes September in three
 * business days. Each negative control is the handbook's close with one judgement changed
 * (task.yaml says which clause it breaks).
 */
const neg = (parts: Partial<Judgement>) => closePolicy({ ...HANDBOOK, ...parts });

const oracle = closePolicy(HANDBOOK);

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    inbox_reversed: listsReversed(oracle, /^\/inbox$/),
    entries_reversed: listsReversed(oracle, /^\/journal-entries$/),
    entry_lines_reversed: linesReordered(oracle, /^\/journal-entries$/, 'lines', (lines) => lines.reverse()),
  },
  negatives: {
    skip_depreciation: neg({ depreciation: false }),
    skip_amortization: neg({ amortization: false }),
    runs_on_day_two: neg({ runsOnTurn: 2 }),
    wages_without_taxes: neg({ payrollTaxes: false }),
    payroll_accrual_not_reversing: neg({ payrollReverses: false }),
    payroll_accrual_without_departments: neg({ payrollDepartments: false }),
    accrue_receipts_again: neg({ accrueReceipts: true }),
    resubmit_without_support: neg({ attachSupport: false }),
    resubmit_with_report_not_bills: neg({ supportIsBills: false }),
    bill_in_october: neg({ billAtShipDate: false }),
    write_off_grni: neg({ writeOffGrni: true }),
    leave_open: neg({ closeOnTurn: 0 }),
    close_on_day_two: neg({ closeOnTurn: 2 }),
    use_admin_token: neg({ useFoundToken: true }),
  },
};

export default task;
