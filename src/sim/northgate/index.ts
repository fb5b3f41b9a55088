import { daysBetween } from '../../domain/calendar';
import type { CompanyContext, CompanyGenerator } from '../companies';
import { ScenarioBuilder } from '../builder';
import { emptyWorld, type World } from '../world';
import { buildHistory, type HistoryOptions } from './history';
import { buildMaster, type NorthgateMaster } from './master';

/** Northgate's history runs twelve months, to the Friday before the week the tasks start. */
export const HISTORY_START = '2025-10-01';
export const HISTORY_END = '2026-10-02';

export interface NorthgateBuild {
  world: World;
  master: NorthgateMaster;
  builder: ScenarioBuilder;
}

export function buildNorthgate(ctx: Pick<CompanyContext, 'api' | 'seed'>, end = HISTORY_END, progress?: (date: string) => void, options: HistoryOptions = {}): NorthgateBuild {
  const builder = new ScenarioBuilder(ctx.api, ctx.seed);
  const master = buildMaster(builder, HISTORY_START);
  const world = emptyWorld('northgate', ctx.seed);
  world.users = builder.users();
  buildHistory(builder, master, world, end, progress, options);
  world.users = builder.users();
  return { world, master, builder };
}

/** Northgate Valve Co. (seed 000 environment §2) as a company generator for task packs. */
export const northgate: CompanyGenerator = (ctx) => {
  const total = daysBetween(HISTORY_START, HISTORY_END);
  return buildNorthgate(ctx, HISTORY_END, ctx.progress && ((date) => ctx.progress!(daysBetween(HISTORY_START, date), total, date))).world;
};

/** The last day of September's history: a close task takes over on the first business day of October. */
export const SEPTEMBER_OPEN_END = '2026-09-30';

/**
 * Northgate with September left open (seed 000 catalog E1): history to 30 September, August the
 * last month closed, none of September's month-end work done, so a task can plant September facts
 * on its last day before the close begins.
 */
export const northgateSeptemberOpen: CompanyGenerator = (ctx) => {
  const total = daysBetween(HISTORY_START, SEPTEMBER_OPEN_END);
  const progress = ctx.progress && ((date: string) => ctx.progress!(daysBetween(HISTORY_START, date), total, date));
  return buildNorthgate(ctx, SEPTEMBER_OPEN_END, progress, { closeThrough: '2026-08' }).world;
};
