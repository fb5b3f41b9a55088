import type { TaskCode } from '../../src/task-pack/code';
import { listsReversed } from '../shared/other-ways';
import { generate } from './generate';
import { HANDBOOK, weekPolicy, type Judgement } from './judgement';

/**
 * B1 procure-to-pay-week (seed 000 task catalog): a buyer who also receives and runs AP works one
 * week: Monday's orders, Wednesday's deliveries, Friday's invoices. Each negative control is the
 * handbook's judgement with one part changed (task.yaml says which clause part it breaks).
 */
const judged = (parts: Partial<Judgement>) => weekPolicy({ ...HANDBOOK, ...parts });

const oracle = weekPolicy(HANDBOOK);

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    requisitions_reversed: listsReversed(oracle, /^\/requisitions$/),
    deliveries_reversed: listsReversed(oracle, /^\/deliveries$/),
    inbox_reversed: listsReversed(oracle, /^\/inbox$/),
    'handoff-table': judged({ noteStyle: { layout: 'table', wording: 'handbook' } }),
    'handoff-reason-first-plain-words': judged({ noteStyle: { layout: 'prose', wording: 'plain', reasonFirst: true } }),
    'handoff-heading-per-invoice': judged({ noteStyle: { layout: 'headings', wording: 'plain' } }),
    receive_reverse_receive: judged({ correctByReversal: true }),
  },
  negatives: {
    one_line_per_requisition: judged({ consolidate: false }),
    everything_to_dayton: judged({ renoShipTo: false }),
    send_orders_wednesday: judged({ sendSameDay: false }),
    first_break_price: judged({ priceBreaks: false }),
    order_from_held_vendor: judged({ avoidHeldVendor: false }),
    ignore_moq: judged({ moq: false }),
    ignore_order_multiple: judged({ multiple: false }),
    latest_need_by: judged({ needBy: 'latest' }),
    no_expedite: judged({ expedite: 'none' }),
    expedite_everything: judged({ expedite: 'all' }),
    receive_on_friday: judged({ receiveOnArrival: false }),
    refuse_any_over_shipment: judged({ overShipTolerance: false }),
    receive_over_shipment: judged({ refuseExcess: false }),
    receive_short_dated_lot: judged({ shelfLife: false }),
    refuse_approved_substitute: judged({ receiveApprovedSubstitutes: false }),
    receive_any_substitute: judged({ refuseOtherSubstitutes: false }),
    enter_at_po_price: judged({ enterAsBilled: false }),
    enter_number_tidied: judged({ numberAsPrinted: false }),
    validate_price_variance: judged({ holdPrice: false }),
    validate_quantity_variance: judged({ holdQuantity: false }),
    enter_duplicate: judged({ skipDuplicates: false }),
    no_handoff_note: judged({ handoff: false }),
    handoff_without_numbers: judged({ handoffNumbers: false }),
    clear_quality_hold: judged({ clearQualityHold: true }),
  },
};

export default task;
