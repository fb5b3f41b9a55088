import { registerBehaviour } from '../behaviour-registry';
import { bankPayments } from './bank-payments';
import { bankStatements } from './bank-statements';
import { managers } from './managers';
import { paymentRunApprover } from './payment-approvers';
import { vendorDisputes } from './vendor-disputes';
import { vendorInvoicing } from './vendor-invoicing';

// Importing this module registers the payables and ledger counterparties (docs/simulation.md).
registerBehaviour('bank', 'bank-payments', bankPayments);
registerBehaviour('bank', 'bank-statements', bankStatements);
registerBehaviour('vendors', 'vendor-invoicing', vendorInvoicing);
registerBehaviour('vendors', 'vendor-disputes', vendorDisputes);
registerBehaviour('approvers', 'payment-run-approver', paymentRunApprover);
registerBehaviour('managers', 'managers', managers);
