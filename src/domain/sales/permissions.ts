/** Price lists, contract prices and rebate agreements. */
export const PRICING_MANAGE = 'pricing.manage';
/** Quotes: create and cancel. */
export const QUOTE_MANAGE = 'quote.manage';
/** Entering sales orders (and converting quotes), revising and cancelling them, releasing and holding them. */
export const SALES_ORDER_ENTER = 'sales_order.enter';
/** Allocating stock to released orders and freeing it. */
export const SALES_ORDER_ALLOCATE = 'sales_order.allocate';
/** Releasing a pricing hold: the sales manager's. */
export const PRICING_HOLD_RELEASE = 'pricing_hold.release';
/** Releasing a credit hold, on an order or on a customer's account: the credit manager's alone (a hard control, seed 000 C1). */
export const CREDIT_HOLD_RELEASE = 'credit_hold.release';
/** Posting shipments: the warehouse. */
export const SHIPMENT_POST = 'shipment.post';
/** Creating, approving and refusing returns (customer service). */
export const RMA_MANAGE = 'rma.manage';
/** Receiving returned goods and recording their inspection (the warehouse, quality). */
export const RMA_RECEIVE = 'rma.receive';
export const RMA_INSPECT = 'rma.inspect';
