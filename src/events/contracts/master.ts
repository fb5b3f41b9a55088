import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { BasisPoints, Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { AccountCode, PeriodString, ReasonCode } from './ledger';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Address = Type.String({ maxLength: 1000 });
const Phone = Type.String({ maxLength: 40 });
const Email = Type.Union([Type.String({ format: 'email' }), Type.Literal('')]);
const Days = Type.Integer({ minimum: 0, maximum: 3650 });
const Count = Type.Number({ minimum: 0, maximum: 1e9 });

export const VendorId = Type.String({ pattern: '^V-[A-Z0-9]{1,12}$' });
export const RoutingNumber = Type.String({ pattern: '^[0-9]{9}$' });
export const BankAccountNumber = Type.String({ pattern: '^[0-9]{4,17}$' });

// Items, warehouses and locations

export const ItemType = Type.Union([Type.Literal('stock'), Type.Literal('non_stock'), Type.Literal('service')]);

export const ItemPlanning = {
  preferred_vendor: Nullable(VendorId),
  lead_time_days: Days,
  order_multiple: Count,
  moq: Count,
  /** The stock MRP keeps in hand: a projected balance below it is a shortage. */
  safety_stock: Count,
};

export const ItemCreated = defineEvent(
  'ItemCreated',
  Obj({
    id: Id,
    description: Name,
    type: ItemType,
    unit: Type.String({ minLength: 1, maxLength: 20 }),
    category: Type.String({ maxLength: 80 }),
    lot_controlled: Type.Boolean(),
    shelf_life_days: Nullable(Days),
    standard_cost: PositiveCents,
    inventory_account: Nullable(AccountCode),
    expense_account: Nullable(AccountCode),
    ...ItemPlanning,
  }),
);

/** Planning data replaced as a whole; `source` names what prompted it (a vendor's lead-time note). */
export const ItemPlanningUpdated = defineEvent('ItemPlanningUpdated', Obj({ item: Id, ...ItemPlanning, source: Type.String({ maxLength: 200 }), note: Text }));

export const WarehouseCreated = defineEvent('WarehouseCreated', Obj({ id: Id, name: Name, region: Type.String({ minLength: 1, maxLength: 80 }) }));
export const LocationCreated = defineEvent('LocationCreated', Obj({ warehouse: Id, code: Id, description: Type.String({ maxLength: 200 }) }));

// Vendors

export const VendorKind = Type.Union([Type.Literal('goods'), Type.Literal('services'), Type.Literal('both')]);

const VendorContact = { email: Email, phone: Phone, address: Address, remit_to: Address };

export const VendorCreated = defineEvent(
  'VendorCreated',
  Obj({
    id: VendorId,
    name: Name,
    terms: Id,
    tin: Type.String({ maxLength: 40 }),
    ...VendorContact,
    kind: VendorKind,
    default_expense_account: Nullable(AccountCode),
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
  }),
);

/** New contact details with the previous ones, so the audit trail shows what the number on file was. */
export const VendorContactUpdated = defineEvent(
  'VendorContactUpdated',
  Obj({ vendor: VendorId, ...VendorContact, previous: Obj(VendorContact), source: Type.String({ maxLength: 200 }), note: Text }),
);

export const VendorActivated = defineEvent('VendorActivated', Obj({ vendor: VendorId, reason: ReasonCode, note: Text }));
export const VendorDeactivated = defineEvent('VendorDeactivated', Obj({ vendor: VendorId, reason: ReasonCode, note: Text }));
export const VendorQualityHoldSet = defineEvent('VendorQualityHoldSet', Obj({ vendor: VendorId, reason: ReasonCode, note: Text }));
export const VendorQualityHoldCleared = defineEvent('VendorQualityHoldCleared', Obj({ vendor: VendorId, reason: ReasonCode, note: Text }));

// Vendor bank accounts: pending → verified | rejected | withdrawn; verified → superseded | withdrawn

export const VendorBankAccountRequested = defineEvent(
  'VendorBankAccountRequested',
  Obj({
    id: Id,
    vendor: VendorId,
    bank_name: Name,
    routing_number: RoutingNumber,
    account_number: BankAccountNumber,
    /** Where the request came from: a message id, a form, a call. */
    source: Type.String({ maxLength: 200 }),
    note: Text,
  }),
);

/** Verifying an account supersedes the vendor's previously verified one, named here. */
export const VendorBankAccountVerified = defineEvent('VendorBankAccountVerified', Obj({ id: Id, vendor: VendorId, supersedes: Nullable(Id), note: Text }));
export const VendorBankAccountRejected = defineEvent('VendorBankAccountRejected', Obj({ id: Id, vendor: VendorId, reason: ReasonCode, note: Text }));
export const VendorBankAccountWithdrawn = defineEvent('VendorBankAccountWithdrawn', Obj({ id: Id, vendor: VendorId, reason: ReasonCode, note: Text }));

// Price agreements and approved substitutes

export const PriceBreak = Obj({ min_qty: Count, unit_price: PositiveCents });

export const PriceAgreementCreated = defineEvent(
  'PriceAgreementCreated',
  Obj({
    id: Id,
    vendor: VendorId,
    item: Id,
    breaks: Type.Array(PriceBreak, { minItems: 1, maxItems: 20 }),
    valid_from: DateString,
    valid_to: Nullable(DateString),
    reference: Type.String({ maxLength: 200 }),
  }),
);

export const ApprovedSubstituteAdded = defineEvent('ApprovedSubstituteAdded', Obj({ item: Id, substitute: Id, vendor: Nullable(VendorId), note: Text }));
export const ApprovedSubstituteRemoved = defineEvent('ApprovedSubstituteRemoved', Obj({ item: Id, substitute: Id, vendor: Nullable(VendorId), reason: ReasonCode }));

// Customers and ship-to addresses

/** Who pays the carrier: `prepaid` (we do, free to the customer), `prepay_and_add` (we do and bill it), `collect` (the customer's carrier). */
export const FREIGHT_TERMS = ['prepaid', 'prepay_and_add', 'collect'] as const;
export const FreightTerms = Type.Union(FREIGHT_TERMS.map((t) => Type.Literal(t)));
export type FreightTerms = (typeof FREIGHT_TERMS)[number];

/** Optional on creation (older logs have none): the price list, the parent company that may pay for it, and its freight terms. */
const CustomerSalesTerms = {
  price_list: Type.Optional(Nullable(Id)),
  parent: Type.Optional(Nullable(Id)),
  freight_terms: Type.Optional(FreightTerms),
};

export const CustomerCreated = defineEvent(
  'CustomerCreated',
  Obj({
    id: Id,
    name: Name,
    credit_limit: PositiveCents,
    terms: Id,
    tax_exempt: Type.Boolean(),
    email: Email,
    phone: Phone,
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
    ...CustomerSalesTerms,
  }),
);

/** The customer's sales terms replaced: its price list, the parent that may pay for it, its freight terms. */
export const CustomerSalesTermsSet = defineEvent(
  'CustomerSalesTermsSet',
  Obj({ customer: Id, price_list: Nullable(Id), parent: Nullable(Id), freight_terms: FreightTerms, previous: Obj({ price_list: Nullable(Id), parent: Nullable(Id), freight_terms: FreightTerms }), note: Text }),
);

export const ShipToAdded = defineEvent(
  'ShipToAdded',
  Obj({ customer: Id, code: Id, address: Address, region: Type.String({ minLength: 1, maxLength: 80 }), tax_code: Nullable(Id) }),
);

// Tax codes, payment terms, budgets

export const TaxCodeDefined = defineEvent('TaxCodeDefined', Obj({ code: Id, rate_bp: BasisPoints, description: Type.String({ maxLength: 200 }) }));

export const PaymentTermsDefined = defineEvent(
  'PaymentTermsDefined',
  Obj({
    code: Type.String({ pattern: '^[A-Z0-9./_-]{2,20}$' }),
    days_due: Days,
    discount_days: Days,
    discount_bp: Type.Integer({ minimum: 0, maximum: 10000 }),
    description: Type.String({ maxLength: 200 }),
  }),
);

export const BudgetLine = Obj({ account: AccountCode, month: PeriodString, amount: Cents });

/** Sets (or replaces) a department's budget cells, one per account and month. */
export const BudgetSet = defineEvent('BudgetSet', Obj({ department: Id, lines: Type.Array(BudgetLine, { minItems: 1, maxItems: 1200 }), note: Text }));
