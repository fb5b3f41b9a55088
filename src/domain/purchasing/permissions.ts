/** Drafting, revising, submitting and cancelling one's own requisitions. */
export const REQUISITION_CREATE = 'requisition.create';
/** Deciding requisitions in one's approval queue: approve, reject, return, route on. */
export const REQUISITION_APPROVE = 'requisition.approve';
/** Creating and revising purchase orders, cancelling, short-closing and closing them, and requests to vendors. */
export const PO_CREATE = 'purchase_order.create';
/** Approving a purchase order within one's purchase_order limit. */
export const PO_APPROVE = 'purchase_order.approve';
/** Sending an approved purchase order to its vendor. */
export const PO_SEND = 'purchase_order.send';
/** The vendor's side: acknowledging a sent PO with confirmed dates and price notices. */
export const PO_ACKNOWLEDGE = 'purchase_order.acknowledge';
/** The vendor's side: answering a buyer's expedite, defer or cancel_line request. */
export const VENDOR_REQUEST_ANSWER = 'vendor_request.answer';
