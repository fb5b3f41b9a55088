import { registerBehaviour } from '../behaviour-registry';
import { customerReceipts } from './customer-bank';
import { customers } from './customers';
import { handleReturns, shipOrders } from './warehouse-shipping';

// Importing this module registers the order-to-cash counterparties (docs/simulation.md).
registerBehaviour('bank', 'customer-receipts', customerReceipts);
registerBehaviour('customers', 'customers', customers);
registerBehaviour('warehouse', 'ship-orders', shipOrders);
registerBehaviour('warehouse', 'customer-returns', handleReturns);
