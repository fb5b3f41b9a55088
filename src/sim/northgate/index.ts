import { daysBetween } from '../../domain/calendar';
import type { CompanyContext, CompanyGenerator } from '../companies';
import { ScenarioBuilder } from '../builder';
import { emptyWorld, type World } from '../world';
import { buildHistory } from './history';
import { buildMaster, type NorthgateMaster } from './master';

/** Northgate's history runs twelve months, to the Friday before the week the tasks start. */
export const HISTORY_START = '2025-10-01';
export const HISTORY_END = '2026-10-02';

export interface NorthgateBuild {
  world: World;
  master: NorthgateMaster;
  builder: ScenarioBuilder;
}

export function buildNorthgate(ctx: Pick<CompanyContext, 'api' | 'seed'>, end = HISTORY_END, progress?: (date: string) => void): NorthgateBuild {
  const builder = new ScenarioBuilder(ctx.api, ctx.seed);
  const master = buildMaster(builder, HISTORY_START);
  const world = emptyWorld('northgate', ctx.seed);
  world.users = builder.users();
  buildHistory(builder, master, world, end, progress);
  world.users = builder.users();
  return { world, master, builder };
}

/** Northgate Valve Co. (seed 000 environment §2) as a company generator for task packs. */
export const northgate: CompanyGenerator = (ctx) => {
  const total = daysBetween(HISTORY_START, HISTORY_END);
  return buildNorthgate(ctx, HISTORY_END, ctx.progress && ((date) => ctx.progress!(daysBetween(HISTORY_START, date), total, date))).world;
};
