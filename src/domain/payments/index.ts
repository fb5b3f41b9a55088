import type { RouteDef } from '../action';
import { paymentRoutes } from './payments';
import { paymentReadRoutes } from './reads';
import { runRoutes } from './runs';

export const paymentsRoutes: RouteDef[] = [...runRoutes, ...paymentRoutes, ...paymentReadRoutes];
