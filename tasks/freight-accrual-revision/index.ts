import type { TaskCode } from '../../src/task-pack/code';
import { linesReordered, listsReversed } from '../shared/other-ways';
import { generate } from './generate';
import { freightPolicy, HANDBOOK, type Judgement } from './judgement';

/**
 * freight-accrual-revision (seed 000 §7, belief revision): the staff accountant books October's
 * inbound freight accruals from MVF's schedule, then revises those whose source changed between the
 * turns. Each negative control is the handbook's judgement with one part changed (task.yaml says which).
 */
const neg = (parts: Partial<Judgement>) => freightPolicy({ ...HANDBOOK, ...parts });

const oracle = freightPolicy(HANDBOOK);

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    entries_reversed: listsReversed(oracle, /^\/journal-entries$/),
    inbox_reversed: listsReversed(oracle, /^\/inbox$/),
    entry_lines_reversed: linesReordered(oracle, /^\/journal-entries$/, 'lines', (lines) => lines.reverse()),
  },
  negatives: {
    accrue_prepaid: neg({ accruePrepaid: true }),
    last_months_rates: neg({ schedule: 'September 2026' }),
    rebook_billed_at_rate: neg({ actualReplacesRate: false }),
    dated_today: neg({ entryDate: 'today' }),
    ignore_revision: neg({ revise: false }),
    reverse_in_november: neg({ reversalDate: 'today' }),
    difference_entries: neg({ correctBy: 'difference' }),
    reverse_everything: neg({ reviseAll: true }),
    attach_receipt_only: neg({ attachMail: false }),
    two_entries_per_receipt: neg({ entriesPerReceipt: 2 }),
  },
};

export default task;
