/** Posting receipts against sent purchase orders, and reversing them. */
export const RECEIPT_POST = 'receipt.post';
/** The vendor's side: announcing a shipment against a sent purchase order. */
export const DELIVERY_ANNOUNCE = 'delivery.announce';

/** Goods received not invoiced: the credit side of every receipt (docs/ledger.md). */
export const GRNI_ACCOUNT = '2100';
