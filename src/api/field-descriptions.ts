import type { ArgumentLocation } from './tools';

/**
 * What a field of a request body means, by its name, for the fields whose route schema says nothing.
 * A name means one thing wherever a body carries it; a route that means something else describes
 * its field in its own schema, which wins.
 */
const BODY_FIELDS: Readonly<Record<string, string>> = {
  account_number: 'Bank account number, 4 to 17 digits.',
  accrued_payroll_account: 'GL account code credited with accrued payroll.',
  accumulated_account: 'GL account code of the accumulated depreciation.',
  add: 'Components to add to the bill of materials.',
  address: 'Postal or email address, as the field\'s record holds it.',
  answered_by: 'Who answers the call (a name or role at the party called).',
  applications: 'How the receipt is applied: one entry per invoice with the amount applied to it.',
  assigned_to: 'User id the work item is assigned to.',
  attachments: 'Documents attached: each with its kind and reference.',
  bank_account: 'Id of the company bank account.',
  bank_name: 'Name of the bank holding the account.',
  bank_notice: 'A bank-detail change printed on the invoice (bank, routing and account).',
  breaks: 'Quantity price breaks: the minimum quantity and the unit price from it.',
  capacity_hours_per_day: 'Hours the work center can work in one business day.',
  carrier: 'Carrier that takes the shipment.',
  category: 'Item category.',
  cc: 'Addresses copied on the message.',
  channel: 'How the customer is contacted: email, call or letter.',
  class: 'Class of restricted data the grant covers.',
  code: 'Short code that identifies the record.',
  completion_location: 'Location finished goods are completed into.',
  control: 'Whether the account is a control account, posted only through its subledger.',
  cost_account: 'GL account code of the asset\'s cost.',
  credit_account: 'GL account code credited by the deposit.',
  currency: 'ISO 4217 currency code, e.g. USD.',
  customer: 'Customer id, e.g. C-0042.',
  customer_po: 'The customer\'s own purchase-order number.',
  day: 'Day of the month the entry recurs on.',
  days_due: 'Days from the invoice date to the due date.',
  debit_account: 'GL account code debited by the withdrawal.',
  decision: 'The decision taken.',
  default_price_list: 'Price list used when a customer has none of its own.',
  defects: 'Defects the invoice carries on purpose.',
  delegate: 'User id who acts for the person while away.',
  delivery: 'Delivery id the receipt is for.',
  department: 'Department code the amount is charged to.',
  description: 'Free text describing the record.',
  destination: 'What the issued stock is for: a type and a reference.',
  discount_bp: 'Early-payment discount in basis points (100 = 1%).',
  discount_days: 'Days from the invoice date within which the discount may be taken.',
  dispute: 'Dispute id the credit settles.',
  document_type: 'Kind of document the limit applies to.',
  dunning: 'Dunning action id the promise answers.',
  email: 'Email address.',
  employer_burden_bp: 'Employer taxes and benefits on top of pay, in basis points (100 = 1%).',
  employer_taxes_account: 'GL account code of the employer\'s payroll taxes.',
  expense_account: 'GL account code the expense is booked to.',
  facts: 'What the party called will say when asked.',
  from_account: 'Id of the bank account the money leaves.',
  from_location: 'Location the stock leaves.',
  from_name: 'Display name of the sender.',
  from_warehouse: 'Warehouse the stock leaves.',
  gl_account: 'GL account code of the bank account.',
  grantee: 'Role or user id that receives the grant.',
  grantee_type: 'Whether the grantee is a role, a user or the owner.',
  id: 'Id of the new record.',
  in_reply_to: 'Message id this message answers.',
  invoice: 'Invoice id.',
  invoice_number: 'Invoice number as the vendor prints it.',
  invoices: 'Invoice ids.',
  item: 'Item id, e.g. VLV-1000.',
  items: 'The invoices the run pays, each with the amount paid.',
  kind: 'Kind of record, one of the listed values.',
  label: 'A name for the record, for people.',
  lead_time_days: 'Days from order to receipt.',
  life_months: 'Useful life in months.',
  line: 'Line number on the document.',
  lines: 'The document\'s lines.',
  location: 'Location within the warehouse.',
  lot: 'Lot number.',
  lot_controlled: 'Whether stock of the item is tracked by lot.',
  manager: 'User id of the manager.',
  memo: 'Free text kept with the entry.',
  message: 'Message id the record comes from.',
  min_qty: 'Smallest quantity the price applies to.',
  months: 'Months the cost is spread over.',
  moq: 'Minimum order quantity.',
  name: 'Name of the record, for people.',
  normal_side: 'Side on which the account\'s balance is normally kept.',
  note: 'Why you do this: kept with the action in the audit trail.',
  operations: 'The routing\'s operations, in order: work center and hours.',
  order_multiple: 'Orders must be a whole multiple of this quantity.',
  original: 'Id of the invoice this one duplicates.',
  owner: 'User id whose box the message lands in.',
  owner_id: 'Id of the vendor or employee whose data is covered.',
  owner_type: 'Whether the owner is a vendor or an employee.',
  packing_slip: 'Packing-slip number of the delivery.',
  parent: 'Customer id of the parent account.',
  party_id: 'Id of the vendor, customer or user called.',
  party_type: 'Whether the party is a vendor, a customer or a user.',
  permissions: 'Permissions the role grants.',
  phone: 'Telephone number.',
  period: 'Accounting period.',
  po: 'Purchase-order id, e.g. PO-000123.',
  preferred_vendor: 'Vendor id to buy the item from by default.',
  prepaid_account: 'GL account code of the prepaid asset.',
  price_list: 'Price-list id.',
  price_notices: 'Price changes the vendor announces with the acknowledgement.',
  price_tolerance_bp: 'Price variance allowed before a hold, in basis points (100 = 1%).',
  purpose: 'Why the access is needed.',
  qty: 'Quantity.',
  rate_bp: 'Tax rate in basis points (100 = 1%).',
  reason: 'Why, in a sentence.',
  rebate_agreement: 'Rebate-agreement id the credit memo settles.',
  record_id: 'Id of the record the item is about.',
  ref: 'Id of the document this points to.',
  reference: 'Reference printed on the bank or vendor document.',
  region: 'Sales region.',
  remit_to: 'Remit-to address.',
  remittance: 'What the payment pays: invoice and amount for each.',
  resolution: 'Whether the deduction is accepted or rejected.',
  restocking_fee_bp: 'Restocking fee in basis points of the credited amount (100 = 1%).',
  resubmission_of: 'Invoice number this one resubmits.',
  reversing: 'Whether each entry reverses on the first day of the next period.',
  roles: 'Role ids.',
  routing_number: 'Bank routing number, 9 digits.',
  rule: 'Who approves purchases.',
  safety_stock: 'Stock kept back against uncertainty.',
  sales_order: 'Sales-order id.',
  scrap_qty: 'Units scrapped.',
  shelf_life_days: 'Days stock of the item stays usable.',
  ship_to: 'Ship-to code (a warehouse or a customer\'s ship-to address).',
  source: 'Document the record comes from.',
  start_period: 'First period.',
  end_period: 'Last period.',
  source_id: 'Id of the document the invoice is made from.',
  source_message: 'Inbox message id the document comes from.',
  source_type: 'Kind of document the invoice is made from.',
  statement_line: 'Bank statement line id.',
  status: 'Status of the record.',
  subject: 'Subject of the message, or the role or user a limit applies to.',
  subject_type: 'Whether the subject is a role or a user.',
  subledger: 'Subledger that posts to the account.',
  substitute: 'Item id of the approved substitute.',
  suggestions: 'MRP suggestion ids to release.',
  tax_code: 'Tax code applied to sales to the address.',
  tax_exempt: 'Whether the customer is exempt from sales tax.',
  taxes_payable_account: 'GL account code of payroll taxes payable.',
  terms: 'Payment-terms code, e.g. NET30.',
  text: 'Text of the note.',
  tiers: 'Rebate tiers: the volume threshold and the rebate rate above it.',
  tin: 'Taxpayer identification number.',
  title: 'Job title.',
  to: 'Addresses the message is sent to.',
  to_account: 'Id of the bank account the money goes to.',
  to_location: 'Location the stock goes to.',
  to_warehouse: 'Warehouse the stock goes to.',
  token_sha256: 'SHA-256 of the token secret, in hex.',
  tracking: 'Carrier tracking number.',
  type: 'Type of record, one of the listed values.',
  unit: 'Unit of measure.',
  units: 'Units issued.',
  user: 'User id.',
  vendor_bank_account: 'Id of the vendor bank account paid.',
  vendor_reference: 'The vendor\'s own reference for the answer.',
  wages_account: 'GL account code of wages expense.',
  warehouse: 'Warehouse code.',
  weeks: 'The forecast\'s weeks: the week\'s date and the quantity.',
  work_center: 'Work-center code.',
  workdays: 'Days of the week the company works (1 = Monday … 7 = Sunday).',
};

/** Query parameters that ask for something rather than filter rows, by `path name` or by name on every path. */
const QUERY_FIELDS: Readonly<Record<string, string>> = {
  '/reports/sales-margin by': 'How the report is grouped: by month, customer or item.',
  '/reports/cash-position days': 'Days ahead of the business date the report covers.',
  '/prices qty': 'Quantity the price is asked for (price breaks depend on it).',
  '/sales/prices qty': 'Quantity the price is asked for (price breaks depend on it).',
  '/audit from_seq': 'Only events after this sequence number.',
  from: 'Start of the range, inclusive.',
  to: 'End of the range, inclusive.',
  '/escalations role': 'raised: escalations you raised; assigned: escalations assigned to you.',
};

/** A path segment as a noun: `ap-invoices` → `AP invoice`. */
function noun(segment: string): string {
  const words = segment.replace(/ies$/, 'y').replace(/(ses|xes)$/, (m) => m.slice(0, -2)).replace(/s$/, '').split('-');
  return words.map((w) => (['ap', 'ar', 'gl', 'po', 'rma', 'mrp', 'bom', 'api'].includes(w) ? w.toUpperCase() : w)).join(' ');
}

/** The path segment that names the collection a path parameter is an id in: `/ap-invoices/{id}/pay` → `ap-invoices`. */
function collectionOf(path: string, param: string): string {
  const parts = path.split('/').filter(Boolean);
  const at = parts.indexOf(`{${param}}`);
  return at > 0 ? parts[at - 1]! : param;
}

const words = (name: string) => name.replace(/_/g, ' ');

/**
 * A description for an argument whose route schema has none: path parameters name the record the
 * request is about, query parameters filter or page the list, body fields mean what BODY_FIELDS says.
 * Undefined for a body field nobody has described yet (the tools test lists them).
 */
export function describeField(name: string, location: ArgumentLocation, path: string, schema: Record<string, unknown>): string | undefined {
  if (location === 'path') {
    if (name === 'line') return 'Line number on the document.';
    if (name === 'n') return 'Position of the attachment on the message, from 1.';
    return `Id of the ${noun(collectionOf(path, name))} the request is about.`;
  }
  if (location === 'query') {
    if (name === 'offset') return 'Rows to skip before the first one returned, for paging.';
    if (name === 'limit') return 'Most rows to return.';
    const own = QUERY_FIELDS[`${path} ${name}`] ?? QUERY_FIELDS[name];
    if (own) return own;
    if (schema.type === 'boolean') return `true: only rows whose ${words(name)} holds; false: only rows whose ${words(name)} does not.`;
    return `Only rows whose ${words(name)} is this value.`;
  }
  return BODY_FIELDS[name];
}
