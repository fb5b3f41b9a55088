import type { RouteDef } from '../action';
import { creditRoutes } from './credits';
import { disputeRoutes } from './disputes';
import { holdRoutes } from './holds';
import { invoiceRoutes } from './invoices';
import { lifecycleRoutes } from './lifecycle';
import { policyRoutes } from './policy';
import { readRoutes } from './reads';
import { validateRoutes } from './validate';
import './subledgers';

export { normalizeInvoiceNumber } from './numbers';

export const payablesRoutes: RouteDef[] = [
  ...invoiceRoutes, ...validateRoutes, ...holdRoutes, ...lifecycleRoutes, ...creditRoutes, ...disputeRoutes, ...policyRoutes, ...readRoutes,
];
