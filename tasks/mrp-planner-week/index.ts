import type { TaskCode } from '../../src/task-pack/code';
import { listsReversed } from '../shared/other-ways';
import { generate } from './generate';
import { HANDBOOK, plannerPolicy, type Judgement } from './judgement';

/**
 * D1 mrp-planner-week (seed 000 task catalog): the production planner's Monday run. Each negative
 * control is the handbook's judgement with one part of it changed (task.yaml says which clause).
 */
const neg = (parts: Partial<Judgement>) => plannerPolicy({ ...HANDBOOK, ...parts });

const oracle = plannerPolicy(HANDBOOK);

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    forecasts_reversed: listsReversed(oracle, /^\/forecasts$/),
    inbox_reversed: listsReversed(oracle, /^\/inbox$/),
    vendor_requests_reversed: listsReversed(oracle, /^\/vendor-requests$/),
  },
  negatives: {
    ignore_lead_time_note: neg({ applyNotes: false }),
    mrp_before_lead_time: neg({ notesBeforeRun: false }),
    note_from_any_vendor: neg({ preferredVendorOnly: false }),
    release_every_suggestion: neg({ firmOnly: false }),
    round_up_quantities: neg({ roundUpTo: 100 }),
    late_not_expedited: neg({ expediteLate: false }),
    ignore_expedite_messages: neg({ workExpedites: false }),
    ignore_defer_messages: neg({ workDefers: false }),
    expedite_twice: neg({ askOnce: false }),
    trim_forecast: neg({ trimForecast: true }),
  },
};

export default task;
