import { Type } from '@sinclair/typebox';
import { MrpRunCompleted } from '../../events/contracts/mrp';
import type { Queries } from '../../projections';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit } from '../decision';
import { Body, Opt } from '../schemas';
import { planInput } from './inputs';
import { MRP_RUN } from './permissions';
import { planRequirements } from './planner';

const tag = 'mrp';

/** A run with how many suggestions of each kind it made, how many of them firm and late. */
export function runView(read: Queries, id: string) {
  const run = read.mrp.run(id);
  if (!run) return undefined;
  const suggestions = read.mrp.suggestionsOf(id);
  const kinds = [...new Set(suggestions.map((s) => s.kind))].sort();
  return {
    ...run,
    summary: kinds.map((kind) => {
      const of = suggestions.filter((s) => s.kind === kind);
      return { kind, count: of.length, firm: of.filter((s) => s.firm).length, late: of.filter((s) => s.late).length, open: of.filter((s) => s.status === 'open').length };
    }),
    links: [{ rel: 'suggestions', type: 'mrp_suggestions', id: `/mrp/suggestions?run=${id}` }],
  };
}

export const runRoutes: RouteDef[] = [
  defineAction({
    action: 'mrp.run', method: 'POST', path: '/mrp/runs', tag, status: 201, objectType: 'mrp_run',
    summary: 'Run MRP over a horizon of weeks: net requirements against on-hand, scheduled receipts and safety stock; planned orders and action messages; earlier open suggestions are superseded',
    body: Body({
      horizon_weeks: Opt(Type.Integer({ minimum: 1, maximum: 52, description: 'Default 8' })),
      firm_days: Opt(Type.Integer({ minimum: 0, maximum: 260, description: 'Business days of the firm fence: planned orders releasing inside it are firm (default 5)' })),
      defer_days: Opt(Type.Integer({ minimum: 0, maximum: 260, description: 'Business days a receipt may come early before MRP suggests deferring it (default 10)' })),
    }),
    permission: MRP_RUN, emits: [MrpRunCompleted],
    decide: ({ body }, ctx) => {
      const params = { horizon_weeks: body.horizon_weeks ?? 8, firm_days: body.firm_days ?? 5, defer_days: body.defer_days ?? 10 };
      const id = ctx.nextId('MRP');
      let n = 0;
      const input = planInput(ctx.read, ctx.today, params, () => `${id}-${String(++n).padStart(4, '0')}`);
      const suggestions = planRequirements(input);
      return emit(MrpRunCompleted, {
        id, run_date: ctx.today, ...params, horizon_end: input.horizonEnd, firm_fence: input.firmFence, items_planned: input.items.size, suggestions,
      }, 'mrp_run', id);
    },
    view: runView,
  }),
  defineQuery({
    path: '/mrp/runs', tag, summary: 'MRP runs, newest last', permission: null,
    query: Type.Object({ offset: Opt(Type.Integer({ minimum: 0 })), limit: Opt(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'mrp_runs', {}, query),
  }),
  defineQuery({
    path: '/mrp/runs/{id}', tag, summary: 'An MRP run with its suggestions counted by kind (count, firm, late, still open)', permission: null, objectType: 'mrp_run',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => runView(ctx.read, params.id!),
  }),
];
