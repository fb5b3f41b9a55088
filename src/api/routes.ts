import type { RouteDef } from '../domain/action';
import { clockRoutes } from '../domain/clock/actions';
import { commsRoutes } from '../domain/comms/routes';
import { infoflowRoutes } from '../domain/infoflow/routes';
import { inventoryRoutes } from '../domain/inventory';
import { ledgerRoutes } from '../domain/ledger';
import { manufacturingRoutes } from '../domain/manufacturing';
import { masterRoutes } from '../domain/master';
import { mrpRoutes } from '../domain/mrp';
import { orgRoutes } from '../domain/org/actions';
import { purchasingRoutes } from '../domain/purchasing';
import { receivingRoutes } from '../domain/receiving';
import { payablesRoutes } from '../domain/payables';
import { paymentsRoutes } from '../domain/payments';
import { receivablesRoutes } from '../domain/receivables';
import { reportRoutes } from '../domain/reports';
import { salesRoutes } from '../domain/sales';
import { CREDIT_HOLD_RELEASE, PRICING_HOLD_RELEASE } from '../domain/sales/permissions';
import { workQueueRoutes } from '../domain/workqueue/routes';
import { BANK_READ_FULL } from '../domain/master/bank-masking';
import { AUDIT_READ, auditRoutes } from './audit-routes';
import { toolRoutes } from './tool-routes';

/** Every public route of the API, from each area's declarations. */
export function allRoutes(): RouteDef[] {
  return [
    ...auditRoutes,
    ...toolRoutes(allRoutes),
    ...clockRoutes,
    ...orgRoutes,
    ...commsRoutes,
    ...masterRoutes,
    ...ledgerRoutes,
    ...purchasingRoutes,
    ...receivingRoutes,
    ...inventoryRoutes,
    ...manufacturingRoutes,
    ...mrpRoutes,
    ...payablesRoutes,
    ...paymentsRoutes,
    ...salesRoutes,
    ...receivablesRoutes,
    ...reportRoutes(),
    ...infoflowRoutes,
    ...workQueueRoutes,
  ];
}

/**
 * Every permission a role can grant: those the routes require, and those that widen what a
 * reader sees (the audit trail of others, full bank numbers) or which holds one may release. Shared message boxes add
 * `messages.read_<box>` for the boxes a company defines.
 */
export function knownPermissions(boxes: readonly string[] = []): string[] {
  const out = new Set<string>([AUDIT_READ, BANK_READ_FULL, PRICING_HOLD_RELEASE, CREDIT_HOLD_RELEASE, ...boxes.map((b) => `messages.read_${b}`)]);
  for (const r of allRoutes()) if (r.permission) out.add(r.permission);
  return [...out].sort();
}
