import type { CompanyContext, CompanyGenerator } from '../companies';
import { ScenarioBuilder } from '../builder';
import { rng } from '../random';
import { emptyWorld, type World } from '../world';
import { buildHistory, openBooks } from './history';
import { buildMaster, type HalvorsenMaster } from './master';
import { BANK_USER } from './roster';

/** A quarter of history, to the Friday before the week the queues are worked. */
export const HISTORY_START = '2026-07-01';
export const HISTORY_END = '2026-10-02';

export interface HalvorsenBuild {
  world: World;
  master: HalvorsenMaster;
  builder: ScenarioBuilder;
}

export function buildHalvorsen(ctx: Pick<CompanyContext, 'api' | 'seed'>, end = HISTORY_END): HalvorsenBuild {
  const b = new ScenarioBuilder(ctx.api, ctx.seed);
  const r = (name: string) => rng(ctx.seed, `halvorsen.${name}`);
  const master = buildMaster(b, HISTORY_START, { vendors: r('vendors'), prices: r('prices'), bank: r('bank') });
  const world = emptyWorld('halvorsen', ctx.seed);
  // The bank clears each payment the business day after it is released, in history and in the attempt alike.
  world.actors.bank = { payments: { as: BANK_USER.id } };
  world.users = b.users();
  openBooks(b, r('opening'));
  buildHistory(b, master, world, end, { orders: r('orders'), changes: r('bank-changes') });
  world.users = b.users();
  return { world, master, builder: b };
}

/** Halvorsen Distribution Co. (seed 004) as a company generator for task packs. */
export const halvorsen: CompanyGenerator = (ctx) => buildHalvorsen(ctx).world;
