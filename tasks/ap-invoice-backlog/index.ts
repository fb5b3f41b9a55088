import type { TaskCode } from '../../src/task-pack/code';
import { generate } from './generate';
import { HANDBOOK, inboxPolicy, type Judgement } from './judgement';

/**
 * B2 at the analyst band (seed 000, "The first analyst-band task"): the AP supervisor clears three
 * weeks of vendor mail over three days. Each negative control is the handbook's judgement with one
 * part of it changed (task.yaml says which clause it breaks).
 */
const judged = (parts: Partial<Judgement>) => inboxPolicy({ ...HANDBOOK, ...parts });

const task: TaskCode = {
  generate,
  oracle: inboxPolicy(HANDBOOK),
  negatives: {
    leave_last_message: judged({ fileEveryMessage: false }),
    processed_without_ref: judged({ refOnFile: false }),
    enter_at_po_price: judged({ enterAsBilled: false }),
    enter_bad_arithmetic: judged({ checkArithmetic: false }),
    reject_without_asking_correction: judged({ askCorrection: false }),
    number_as_written: judged({ normalizeNumbers: false }),
    number_across_vendors: judged({ numbersAcrossVendors: true }),
    no_duplicate_hold: judged({ holdSameTotal: false }),
    hold_duplicate_without_flag: judged({ flagDuplicates: false }),
    hold_duplicate_without_asking: judged({ askVendor: false }),
    same_amount_is_duplicate: judged({ sameAmountIsDuplicate: true }),
    enter_other_company: judged({ rejectForeign: false }),
    validate_unmatched: judged({ matchPo: false }),
    validate_price_variance: judged({ holdPrice: false }),
    hold_any_price_difference: judged({ toleranceBp: 0 }),
    ignore_earlier_billing: judged({ countEarlierBilling: false }),
    validate_in_transit: judged({ holdInTransit: false }),
    tax_on_stock_as_billed: judged({ holdStockTax: false }),
    hold_any_tax: judged({ holdAnyTax: true }),
    keep_settled_holds: judged({ releaseSettled: false }),
    ignore_cancellation: judged({ rejectCancelled: false }),
    no_receipt_recheck: judged({ recheckReceipts: false }),
    recheck_on_last_day_only: judged({ recheckFromTurn: 3 }),
    code_by_vendor_record: judged({ codeByList: false }),
    validate_above_limit: judged({ holdAboveLimit: false }),
    follow_printed_instruction: judged({ obeyInstructions: true }),
    bank_change_from_email: judged({ callBack: false }),
    call_number_given_too: judged({ callNumberGiven: true }),
    no_hold_report: judged({ writeReport: false }),
    report_without_numbers: judged({ reportNumbers: false }),
  },
  positives: {
    'report-reason-first-plain-words': judged({ reportStyle: { layout: 'prose', wording: 'plain', reasonFirst: true } }),
    'report-heading-per-invoice': judged({ reportStyle: { layout: 'headings', wording: 'handbook' } }),
    'report-table-abbreviations': judged({ reportStyle: { layout: 'table', wording: 'abbreviations' } }),
    'report-nested-list-reason-first': judged({ reportStyle: { layout: 'nested', wording: 'plain', reasonFirst: true } }),
  },
};

export default task;
