/** Bills of materials, engineering changes, routings and work centers: the engineering master data. */
export const ENGINEERING_MANAGE = 'engineering.manage';
/** The plant: its warehouse and the shutdowns of its calendar. */
export const PLANT_MANAGE = 'plant.manage';
/** Creating, rescheduling and cancelling work orders. */
export const WO_CREATE = 'work_order.create';
/** Releasing a work order to the floor (its components must be available). */
export const WO_RELEASE = 'work_order.release';
/** Issuing components to a work order, and reversing a wrong issue. */
export const WO_ISSUE = 'work_order.issue';
/** Reporting good and scrapped units. */
export const WO_COMPLETE = 'work_order.complete';
/** Closing a work order, which posts its variances. */
export const WO_CLOSE = 'work_order.close';

// Postings of production (docs/manufacturing.md). The WIP account is a control account: its subledger
// is the WIP movements the manufacturing read model folds.
export const WIP_ACCOUNT = '1310';
/** Labour and overhead applied to WIP at standard rates: a credit against the payroll and overhead actually spent. */
export const CONVERSION_APPLIED_ACCOUNT = '5400';
export const MATERIAL_VARIANCE_ACCOUNT = '5120';
export const CONVERSION_VARIANCE_ACCOUNT = '5130';
export const SCRAP_ACCOUNT = '5300';
