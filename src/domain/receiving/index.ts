import type { RouteDef } from '../action';
import { deliveryRoutes } from './deliveries';
import { receiptRoutes } from './receipts';

export { GRNI_ACCOUNT } from './permissions';

export const receivingRoutes: RouteDef[] = [...deliveryRoutes, ...receiptRoutes];
