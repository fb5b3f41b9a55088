import type { TaskCode } from '../../src/task-pack/code';
import { listsReversed } from '../shared/other-ways';
import { generate } from './generate';
import { HANDBOOK, weekPolicy, type Judgement } from './judgement';

/**
 * B1 procure-to-pay-week (seed 000 task catalog): a buyer who also receives and runs AP works one
 * week: Monday's orders, Wednesday's deliveries, Friday's invoices. Each negative control is the
 * handbook's judgement with one part changed (task.yaml says which clause part it breaks).
 */
const neg = (parts: Partial<Judgement>) => weekPolicy({ ...HANDBOOK, ...parts });

const oracle = weekPolicy(HANDBOOK);

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    requisitions_reversed: listsReversed(oracle, /^\/requisitions$/),
    deliveries_reversed: listsReversed(oracle, /^\/deliveries$/),
    inbox_reversed: listsReversed(oracle, /^\/inbox$/),
  },
  negatives: {
    one_line_per_requisition: neg({ consolidate: false }),
    everything_to_dayton: neg({ renoShipTo: false }),
    first_break_price: neg({ priceBreaks: false }),
    order_from_held_vendor: neg({ avoidHeldVendor: false }),
    ignore_moq: neg({ moq: false }),
    ignore_order_multiple: neg({ multiple: false }),
    latest_need_by: neg({ needBy: 'latest' }),
    no_expedite: neg({ expedite: 'none' }),
    expedite_everything: neg({ expedite: 'all' }),
    refuse_any_over_shipment: neg({ overShipTolerance: false }),
    receive_over_shipment: neg({ refuseExcess: false }),
    receive_short_dated_lot: neg({ shelfLife: false }),
    refuse_approved_substitute: neg({ receiveApprovedSubstitutes: false }),
    receive_any_substitute: neg({ refuseOtherSubstitutes: false }),
    enter_at_po_price: neg({ enterAsBilled: false }),
    validate_price_variance: neg({ holdPrice: false }),
    validate_quantity_variance: neg({ holdQuantity: false }),
    enter_duplicate: neg({ skipDuplicates: false }),
    no_handoff_note: neg({ handoff: false }),
    clear_quality_hold: neg({ clearQualityHold: true }),
  },
};

export default task;
