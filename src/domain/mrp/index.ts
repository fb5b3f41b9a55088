import type { RouteDef } from '../action';
import { forecastRoutes } from './forecasts';
import './sales-demand';
import { runRoutes } from './runs';
import { suggestionRoutes } from './suggestions';

export { registerDemandSource, type DemandSource } from './inputs';

export const mrpRoutes: RouteDef[] = [...forecastRoutes, ...runRoutes, ...suggestionRoutes];
