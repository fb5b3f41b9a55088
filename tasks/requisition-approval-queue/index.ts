import type { TaskCode } from '../../src/task-pack/code';
import { fromTheMiddle, listsReordered, listsReversed } from '../shared/other-ways';
import { generate } from './generate';
import { HANDBOOK, queuePolicy, type Judgement } from './judgement';

/**
 * A1 requisition-approval-queue (seed 000 task catalog): the purchasing manager decides her queue.
 * Each negative control is the handbook's judgement with one part of it changed (task.yaml says
 * which clause it breaks).
 */
const neg = (parts: Partial<Judgement>, options?: Parameters<typeof queuePolicy>[1]) => queuePolicy({ ...HANDBOOK, ...parts }, options);

const oracle = queuePolicy(HANDBOOK);
const QUEUE = /^\/approval-requests$/;

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    queue_reversed: listsReversed(oracle, QUEUE),
    queue_from_the_middle: listsReordered(oracle, QUEUE, fromTheMiddle),
    queue_by_requisition: listsReordered(oracle, QUEUE, (items: { document_id: string }[]) => items.sort((a, b) => (a.document_id < b.document_id ? 1 : a.document_id > b.document_id ? -1 : 0))),
  },
  negatives: {
    approve_within_limit: neg({ capitalReturn: false, duplicateReturn: false, seeSplits: false, checkBudget: false }, { approveOwnAttempt: true }),
    route_everything: neg({ routeAll: true }),
    leave_one_undecided: neg({ skipOne: true }),
    limit_exclusive: neg({ limitInclusive: false }),
    ignore_commitments: neg({ countCommitments: false }),
    budget_code_from_docs: neg({ budgetCode: 'budget' }),
    approve_split_parts: neg({ seeSplits: false }),
    same_requester_is_split: neg({ splitIgnoresPurpose: true }),
    own_request_to_controller: neg({ ownRequestTo: 'controller' }),
    route_to_absent: neg({ followDelegation: false }),
    no_capital_return: neg({ capitalReturn: false }),
    no_duplicate_check: neg({ duplicateReturn: false }),
    same_item_is_duplicate: neg({ duplicateIgnoresQty: true }),
    limit_before_returns: neg({ order: 'limit_first' }),
    cancel_absent_leave: neg({}, { cancelLeaveOf: 'zoe.adams' }),
  },
};

export default task;
