import type { RouteDef } from '../action';
import { compensationRoutes } from './compensation';
import { payrollRunRoutes } from './runs';

export { PAYROLL_MANAGE, PAYROLL_READ, PAYROLL_RUN } from './compensation';

export const payrollRoutes: RouteDef[] = [...compensationRoutes, ...payrollRunRoutes];
