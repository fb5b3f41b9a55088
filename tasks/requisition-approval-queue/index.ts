import type { TaskCode } from '../../src/task-pack/code';
import { generate } from './generate';
import { HANDBOOK, queuePolicy } from './judgement';

/**
 * A1 requisition-approval-queue (seed 000 task catalog): the purchasing manager decides her queue.
 * Each negative control is the handbook's judgement with one part of it switched off.
 */
const task: TaskCode = {
  generate,
  oracle: queuePolicy(HANDBOOK),
  negatives: {
    approve_within_limit: queuePolicy({ ...HANDBOOK, returns: false, seeSplits: false, checkBudget: false }, { approveOwnAttempt: true }),
    route_everything: queuePolicy({ ...HANDBOOK, routeAll: true }),
    ignore_commitments: queuePolicy({ ...HANDBOOK, countCommitments: false }),
    approve_split_parts: queuePolicy({ ...HANDBOOK, seeSplits: false }),
    route_to_absent: queuePolicy({ ...HANDBOOK, followDelegation: false }),
    same_item_is_duplicate: queuePolicy({ ...HANDBOOK, duplicateIgnoresQty: true }),
  },
};

export default task;
