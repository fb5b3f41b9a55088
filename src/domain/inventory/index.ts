import type { RouteDef } from '../action';
import { registerSubledger } from '../ledger/subledgers';
import { movementRoutes } from './movements';
import { stockRoutes } from './stock-routes';

export { pickStock } from './costing';

// The inventory control account ties to the value of the stock movements of the items it carries.
registerSubledger('inventory', (read, account, asOf) => read.inventory.valueAsOf(asOf, account.code));

export const inventoryRoutes: RouteDef[] = [...movementRoutes, ...stockRoutes];
