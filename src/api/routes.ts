import type { RouteDef } from '../domain/action';
import { clockRoutes } from '../domain/clock/actions';
import { commsRoutes } from '../domain/comms/routes';
import { ledgerRoutes } from '../domain/ledger';
import { masterRoutes } from '../domain/master';
import { orgRoutes } from '../domain/org/actions';
import { payablesRoutes } from '../domain/payables';
import { paymentsRoutes } from '../domain/payments';
import { reportRoutes } from '../domain/reports';
import { auditRoutes } from './audit-routes';

/** Every public route of the API, from each area's declarations. */
export function allRoutes(): RouteDef[] {
  return [
    ...auditRoutes,
    ...clockRoutes,
    ...orgRoutes,
    ...commsRoutes,
    ...masterRoutes,
    ...ledgerRoutes,
    ...payablesRoutes,
    ...paymentsRoutes,
    ...reportRoutes(),
  ];
}
