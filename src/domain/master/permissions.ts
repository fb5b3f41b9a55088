/** Creating and updating master data: items, warehouses, vendors' contact data, prices, customers, codes, budgets. */
export const MASTER_DATA_MANAGE = 'master_data.manage';
/** An item's planning data (lead time, lot sizing, safety stock, preferred vendor): the planner's part of the item record. */
export const ITEM_PLAN = 'item.plan';
/** A vendor's status: active or inactive, and its quality-hold flag. */
export const VENDOR_MANAGE = 'vendor.manage';
/** Recording a requested change of a vendor's bank account, and withdrawing one. */
export const VENDOR_BANK_REQUEST = 'vendor_bank.request';
/** Verifying or rejecting a requested bank account. */
export const VENDOR_BANK_VERIFY = 'vendor_bank.verify';
export { BANK_READ_FULL } from './bank-masking';
