import type { RouteDef } from '../action';
import { registerSubledger } from '../ledger/subledgers';
import { bomRoutes } from './boms';
import { completionRoutes } from './completion';
import { materialRoutes } from './materials';
import { plantRoutes } from './plant';
import { workOrderRoutes } from './work-orders';

export { createWorkOrder } from './work-orders';
export { WIP_ACCOUNT } from './permissions';

// The WIP control account ties to the WIP movements of the work orders (docs/manufacturing.md).
registerSubledger('wip', (read, _account, asOf) => read.manufacturing.wipAsOf(asOf));

export const manufacturingRoutes: RouteDef[] = [...bomRoutes, ...plantRoutes, ...workOrderRoutes, ...materialRoutes, ...completionRoutes];
