import type { RouteDef } from '../action';
import { allocationRoutes } from './allocation';
import { holdRoutes } from './holds';
import { orderRoutes } from './orders';
import { pricingRoutes } from './pricing';
import { quoteRoutes } from './quotes';
import { salesReadRoutes } from './reads';
import { returnRoutes } from './returns';
import { shipmentRoutes } from './shipments';

export { grantedPrice } from './pricing';
export { availableQty, warehousesFor } from './allocation';

export const salesRoutes: RouteDef[] = [
  ...pricingRoutes, ...quoteRoutes, ...orderRoutes, ...holdRoutes, ...allocationRoutes, ...shipmentRoutes, ...returnRoutes, ...salesReadRoutes,
];
