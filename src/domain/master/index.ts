import type { RouteDef } from '../action';
import { codeRoutes } from './codes';
import { customerRoutes } from './customers';
import { itemRoutes } from './items';
import { pricingRoutes } from './pricing';
import { vendorBankRoutes } from './vendor-bank';
import { vendorRoutes } from './vendors';
import './parties';

export const masterRoutes: RouteDef[] = [...itemRoutes, ...vendorRoutes, ...vendorBankRoutes, ...pricingRoutes, ...customerRoutes, ...codeRoutes];
