import {
  VendorActivated, VendorBankAccountRejected, VendorBankAccountRequested, VendorBankAccountVerified, VendorBankAccountWithdrawn,
  VendorContactUpdated, VendorCreated, VendorDeactivated, VendorQualityHoldCleared, VendorQualityHoldSet,
} from '../events/contracts/master';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export interface VendorRow {
  id: string;
  name: string;
  terms: string;
  tin: string;
  email: string;
  phone: string;
  address: string;
  remit_to: string;
  kind: 'goods' | 'services' | 'both';
  default_expense_account: string | null;
  status: 'active' | 'inactive';
  quality_hold: boolean;
  quality_hold_reason: string | null;
  quality_hold_history: StatusChange[];
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export type BankAccountStatus = 'pending' | 'verified' | 'rejected' | 'withdrawn' | 'superseded';

/** A vendor's bank account. Its numbers are stored in full and masked in every response (see bank-masking). */
export interface VendorBankAccountRow {
  id: string;
  vendor: string;
  bank_name: string;
  routing_number: string;
  account_number: string;
  status: BankAccountStatus;
  requested_date: string;
  requested_by: string;
  source: string;
  note: string;
  decided_date: string | null;
  decided_by: string | null;
  reason: string | null;
  superseded_by: string | null;
  status_history: StatusChange[];
}

type Vendor = VendorRow & Record<string, unknown>;
type BankAccount = VendorBankAccountRow & Record<string, unknown>;

function vendorStatus(tx: ProjectionTx, id: string, status: VendorRow['status'], event: EventRow, reason: string): void {
  tx.update<Vendor>('vendors', id, (r) => {
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
  });
}

function qualityHold(tx: ProjectionTx, id: string, on: boolean, event: EventRow, reason: string): void {
  tx.update<Vendor>('vendors', id, (r) => {
    r.quality_hold = on;
    r.quality_hold_reason = on ? reason : null;
    r.quality_hold_history.push(statusChange(on ? 'hold_set' : 'hold_cleared', event, reason));
  });
}

/** A decision on a bank account: who decided, when, why. A superseded account keeps its own decision. */
function decide(tx: ProjectionTx, id: string, status: BankAccountStatus, event: EventRow, reason: string | null): void {
  tx.update<BankAccount>('vendor_bank_accounts', id, (r) => {
    r.status = status;
    r.decided_date = event.businessDate;
    r.decided_by = event.actor;
    r.reason = reason;
    r.status_history.push(statusChange(status, event, reason));
  });
}

/** Vendors and their bank accounts. A vendor's remit-to account is its one verified account. */
export const vendors = defineReadModel({
  name: 'vendors',
  tables: [
    {
      name: 'vendors',
      columns: {
        id: 'text', name: 'text', terms: 'text', tin: 'text', email: 'text', phone: 'text', address: 'text', remit_to: 'text', kind: 'text',
        default_expense_account: 'text', status: 'text', quality_hold: 'bool', quality_hold_reason: 'text', quality_hold_history: 'json',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['tin']],
    },
    {
      name: 'vendor_bank_accounts',
      columns: {
        id: 'text', vendor: 'text', bank_name: 'text', routing_number: 'text', account_number: 'text', status: 'text', requested_date: 'text',
        requested_by: 'text', source: 'text', note: 'text', decided_date: 'text', decided_by: 'text', reason: 'text', superseded_by: 'text',
        created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['vendor', 'status'], ['status']],
    },
  ],
  handlers: [
    on(VendorCreated, (tx, d, e) => tx.insert('vendors', { ...d, quality_hold: false, quality_hold_reason: null, quality_hold_history: [], ...documentStamp(e, d.status) })),
    on(VendorContactUpdated, (tx, d) => void tx.update<Vendor>('vendors', d.vendor, (r) => Object.assign(r, { email: d.email, phone: d.phone, address: d.address, remit_to: d.remit_to }))),
    on(VendorActivated, (tx, d, e) => vendorStatus(tx, d.vendor, 'active', e, d.reason)),
    on(VendorDeactivated, (tx, d, e) => vendorStatus(tx, d.vendor, 'inactive', e, d.reason)),
    on(VendorQualityHoldSet, (tx, d, e) => qualityHold(tx, d.vendor, true, e, d.reason)),
    on(VendorQualityHoldCleared, (tx, d, e) => qualityHold(tx, d.vendor, false, e, d.reason)),
    on(VendorBankAccountRequested, (tx, d, e) => tx.insert('vendor_bank_accounts', {
      id: d.id, vendor: d.vendor, bank_name: d.bank_name, routing_number: d.routing_number, account_number: d.account_number, status: 'pending',
      requested_date: e.businessDate, requested_by: e.actor, source: d.source, note: d.note, decided_date: null, decided_by: null, reason: null,
      superseded_by: null, created_wall: e.wallTime, status_history: [statusChange('pending', e)],
    })),
    on(VendorBankAccountVerified, (tx, d, e) => {
      if (d.supersedes) {
        tx.update<BankAccount>('vendor_bank_accounts', d.supersedes, (r) => {
          r.status = 'superseded';
          r.superseded_by = d.id;
          r.status_history.push(statusChange('superseded', e, 'new_account_verified'));
        });
      }
      decide(tx, d.id, 'verified', e, null);
    }),
    on(VendorBankAccountRejected, (tx, d, e) => decide(tx, d.id, 'rejected', e, d.reason)),
    on(VendorBankAccountWithdrawn, (tx, d, e) => decide(tx, d.id, 'withdrawn', e, d.reason)),
  ],
  queries: (t) => ({
    vendor: (id: string) => t.get<Vendor>('vendors', id),
    vendorsByTin: (tin: string) => t.find<Vendor>('vendors', { tin }),
    bankAccount: (id: string) => t.get<BankAccount>('vendor_bank_accounts', id),
    bankAccountsOf: (vendor: string) => t.find<BankAccount>('vendor_bank_accounts', { vendor }),
    /** The vendor's remit-to account: the one verified account, or undefined when it has none. */
    verifiedBankAccount: (vendor: string) => t.find<BankAccount>('vendor_bank_accounts', { vendor, status: 'verified' })[0],
    pendingBankAccounts: () => t.find<BankAccount>('vendor_bank_accounts', { status: 'pending' }),
    bankAccountCount: () => t.count('vendor_bank_accounts'),
    /** Every routing and account number on file, whatever the account's status: the restricted vendor_bank values. */
    bankNumbers: () => (t.prepared('SELECT routing_number AS n FROM vendor_bank_accounts UNION SELECT account_number FROM vendor_bank_accounts').all() as { n: string }[]).map((r) => r.n),
  }),
});
