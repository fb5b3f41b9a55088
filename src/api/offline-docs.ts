import { packageVersion } from '../package-info';
import { buildOpenApi } from './openapi';
import { allRoutes } from './routes';

/**
 * The API reference without a server: the OpenAPI document built from the route registry, the
 * same one a server answers GET /openapi.json with. For `erp docs` where ERP_URL is not set.
 */
export function offlineOpenApi(): object {
  return buildOpenApi(allRoutes(), packageVersion());
}
