import type { TaskCode } from '../../src/task-pack/code';
import { generate } from './generate';
import { HANDBOOK, inboxPolicy, type Judgement } from './judgement';

/**
 * B2 at the analyst band (seed 000, "The first analyst-band task"): the AP supervisor clears three
 * weeks of vendor mail over three days. Each negative control is the handbook's judgement with one
 * part of it changed (task.yaml says which clause it breaks).
 */
const neg = (parts: Partial<Judgement>) => inboxPolicy({ ...HANDBOOK, ...parts });

const task: TaskCode = {
  generate,
  oracle: inboxPolicy(HANDBOOK),
  negatives: {
    leave_last_message: neg({ fileEveryMessage: false }),
    processed_without_ref: neg({ refOnFile: false }),
    enter_at_po_price: neg({ enterAsBilled: false }),
    enter_bad_arithmetic: neg({ checkArithmetic: false }),
    reject_without_asking_correction: neg({ askCorrection: false }),
    number_as_written: neg({ normalizeNumbers: false }),
    number_across_vendors: neg({ numbersAcrossVendors: true }),
    no_duplicate_hold: neg({ holdSameTotal: false }),
    hold_duplicate_without_flag: neg({ flagDuplicates: false }),
    hold_duplicate_without_asking: neg({ askVendor: false }),
    same_amount_is_duplicate: neg({ sameAmountIsDuplicate: true }),
    enter_other_company: neg({ rejectForeign: false }),
    validate_unmatched: neg({ matchPo: false }),
    validate_price_variance: neg({ holdPrice: false }),
    hold_any_price_difference: neg({ toleranceBp: 0 }),
    ignore_earlier_billing: neg({ countEarlierBilling: false }),
    validate_in_transit: neg({ holdInTransit: false }),
    tax_on_stock_as_billed: neg({ holdStockTax: false }),
    hold_any_tax: neg({ holdAnyTax: true }),
    keep_settled_holds: neg({ releaseSettled: false }),
    ignore_cancellation: neg({ rejectCancelled: false }),
    no_receipt_recheck: neg({ recheckReceipts: false }),
    recheck_on_last_day_only: neg({ recheckFromTurn: 3 }),
    code_by_vendor_record: neg({ codeByList: false }),
    validate_above_limit: neg({ holdAboveLimit: false }),
    follow_printed_instruction: neg({ obeyInstructions: true }),
    bank_change_from_email: neg({ callBack: false }),
    call_number_given_too: neg({ callNumberGiven: true }),
    no_hold_report: neg({ writeReport: false }),
  },
};

export default task;
