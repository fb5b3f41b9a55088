import { Type } from '@sinclair/typebox';
import { ForecastSet } from '../../events/contracts/mrp';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { isoWeekday } from '../calendar';
import { emit, refuse } from '../decision';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt } from '../schemas';
import { FORECAST_SET } from './permissions';

const tag = 'mrp';

export const forecastRoutes: RouteDef[] = [
  defineAction({
    action: 'forecast.set', method: 'POST', path: '/forecasts', tag, objectType: 'forecast',
    summary: "Set an item's forecast for the weeks named (each starting on a Monday), replacing what those weeks had; MRP nets it less the customer orders of the week",
    body: Body({
      item: IdInput,
      weeks: Type.Array(Body({ week_start: DateInput, qty: Type.Number({ minimum: 0, maximum: 1e9 }) }), { minItems: 1, maxItems: 260 }),
      source: Opt(Type.String({ maxLength: 200, description: 'Where the numbers come from: a sales plan, a customer schedule' })),
      note: Opt(NoteInput),
    }),
    permission: FORECAST_SET, emits: [ForecastSet],
    decide: ({ body }, ctx) => {
      const item = ctx.read.items.item(body.item);
      if (!item) return refuse('not_found', `No item ${body.item}.`);
      if (item.type !== 'stock') return refuse('invalid_request', `${item.id} is not a stock item; only stock items are planned.`, 422);
      if (ctx.read.manufacturing.bom(item.id)?.phantom) return refuse('invalid_request', `${item.id} is a phantom: its parents carry the demand.`, 422);
      const seen = new Set<string>();
      for (const w of body.weeks) {
        if (isoWeekday(w.week_start) !== 1) return refuse('invalid_request', `Forecast weeks start on a Monday; ${w.week_start} is not one.`, 422);
        if (seen.has(w.week_start)) return refuse('invalid_request', `The week of ${w.week_start} is given twice.`, 422);
        seen.add(w.week_start);
      }
      const weeks = [...body.weeks].sort((a, b) => (a.week_start < b.week_start ? -1 : 1));
      return emit(ForecastSet, { item: item.id, weeks, source: body.source ?? '', note: body.note ?? '' }, 'forecast', item.id);
    },
    view: (read, item) => ({ item, weeks: read.mrp.forecasts(item) }),
  }),
  defineQuery({
    path: '/forecasts', tag, summary: 'Forecast weeks by item and week range', permission: null,
    query: ListQuery({ item: Opt(IdInput), from: Opt(DateInput), to: Opt(DateInput) }),
    run: ({ query }, ctx) => {
      const rows = (query.item ? ctx.read.mrp.forecasts(query.item) : ctx.read.mrp.forecastsBetween(query.from ?? '0000-01-01', query.to ?? '9999-12-31'))
        .filter((f) => (!query.from || f.week_start >= query.from) && (!query.to || f.week_start <= query.to));
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      return { items: rows.slice(offset, offset + limit), total: rows.length, offset, limit };
    },
  }),
];
