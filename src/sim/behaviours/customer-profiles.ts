import type { SimContext } from '../simulator';

/** A scheduled order a customer places by email on its date (seed 000 §8). */
export interface ScheduledOrder {
  date: string;
  customer: string;
  customer_po: string;
  ship_to: string;
  /** Days after the order date each line is needed by (default 7). */
  lines: { item: string; qty: number; requested_days?: number; claimed_price?: number }[];
  note?: string;
}

/** How a customer pays (seed 000 §8: on time, late, short with a reason, wrong reference, a parent for a subsidiary). */
export interface PaymentProfile {
  behaviour: 'on_time' | 'late' | 'short' | 'wrong_reference';
  /** Calendar days after the due date it pays (negative: before). */
  days_after_due?: number;
  /** Pays by the discount date, taking the discount its terms grant. */
  takes_discount?: boolean;
  /** With takes_discount: pays this many days after the discount date and takes the discount all the same (seed 000 C3's grace rule). */
  discount_days_late?: number;
  /** `short`: every n-th invoice (default 3) is paid short by bp of its open amount, with the reason. */
  short?: { every?: number; bp: number; reason: string };
  /** Its invoices are paid by this customer (a parent company), with the parent's own. */
  paid_by?: string;
  /** Dunned, it promises to pay in delay_days business days; keeps: false pays days_late after the promise instead. */
  promise?: { delay_days: number; keeps: boolean; days_late?: number };
  /** The first number of its payment references (check numbers). */
  first_check?: number;
}

export interface CustomersWorld {
  /** The counterparty user that sends the customers' mail and records what they did. */
  as: string;
  sales_box?: string;
  sales_address: string;
  ar_box?: string;
  ar_address: string;
  /** The company bank account customers pay into. */
  bank_account: string;
  orders?: ScheduledOrder[];
  payments?: Record<string, PaymentProfile>;
  /** Planted return requests: the customer asks to return `share_bp` of the first line of its latest invoice. */
  returns?: { date: string; customer: string; reason: string; share_bp: number }[];
}

export const customersWorld = (ctx: SimContext) => ctx.world.actors.customers as CustomersWorld | undefined;

export interface WarehouseShipping {
  /** The clerk shipments are posted as. */
  as: string;
  auto_ship: boolean;
  carrier?: string;
  /** The carrier's charge per shipment: a base and an amount per unit, in cents. */
  freight?: { base_cents: number; per_unit_cents: number };
  /** Returns: business days from approval to the goods arriving, then to the inspection's results. */
  returns?: { transit_days: number; inspect_days: number; accept_bp?: number; accept?: Record<string, number> };
}

export const shippingWorld = (ctx: SimContext) => (ctx.world.actors.warehouse as { shipping?: WarehouseShipping } | undefined)?.shipping;
export const customerReceiptsWorld = (ctx: SimContext) => (ctx.world.actors.bank as { customer_receipts?: { as: string } } | undefined)?.customer_receipts;
