import type { Toolset } from '../tools';
import { AP_EXCEPTION_TOOLS } from './ap-exceptions';

/**
 * Companies whose environment defines its own tools (seed 004: Halvorsen's seventeen, one of them
 * forbidden to AP on purpose), by company code. Every other company's agents get their role's
 * routes as tools (roleToolset).
 */
export const COMPANY_TOOLSETS: Readonly<Record<string, Toolset>> = {
  HDC: AP_EXCEPTION_TOOLS,
};
