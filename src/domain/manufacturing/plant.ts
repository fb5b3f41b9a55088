import { Type } from '@sinclair/typebox';
import { PlantSettingsSet, PlantShutdownScheduled, RoutingDefined, WorkCenterDefined } from '../../events/contracts/manufacturing';
import type { Queries } from '../../projections';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { addDays, daysBetween, isBusinessDay, type WorkCalendar } from '../calendar';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse, type Refusal } from '../decision';
import { toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { ENGINEERING_MANAGE, PLANT_MANAGE } from './permissions';

const tag = 'manufacturing';
const HoursInput = Type.Number({ minimum: 0, maximum: 24 * 7 });

export function companyCalendar(read: Queries): WorkCalendar {
  const company = read.clock.company();
  return { workdays: company?.workdays ?? [1, 2, 3, 4, 5], isHoliday: (d) => read.clock.isHoliday(d) };
}

/**
 * The plant calendar: the company's working days less the plant's shutdowns, for the whole plant or
 * (with a work center) that work center too.
 */
export function plantCalendar(read: Queries, workCenter?: string): WorkCalendar {
  const company = companyCalendar(read);
  const shutdowns = read.manufacturing.shutdowns().filter((s) => s.work_center === null || s.work_center === workCenter);
  return { workdays: company.workdays, isHoliday: (d) => company.isHoliday(d) || shutdowns.some((s) => s.from_date <= d && d <= s.to_date) };
}

/** A day range a report or the plant calendar shows: default four weeks from `from`, at most a year, or a refusal. */
export function dayRange(today: string, query: { from?: string; to?: string }): { from: string; to: string } | Refusal {
  const from = query.from ?? today;
  const to = query.to ?? addDays(from, 27);
  if (to < from || daysBetween(from, to) > 366) return refuse('invalid_request', 'Ask for at most a year, from a date to a later one.', 400);
  return { from, to };
}

/** Hours a work center can work on each day of a range (0 on days the plant calendar closes it). */
export function capacityByDay(read: Queries, workCenter: string, from: string, to: string): { date: string; hours: number }[] {
  const wc = read.manufacturing.workCenter(workCenter);
  if (!wc) return [];
  const cal = plantCalendar(read, workCenter);
  const out: { date: string; hours: number }[] = [];
  for (let d = from; d <= to && out.length < 3660; d = addDays(d, 1)) out.push({ date: d, hours: isBusinessDay(d, cal) ? wc.capacity_hours_per_day : 0 });
  return out;
}

const workCenterView = (read: Queries, id: string) => {
  const wc = read.manufacturing.workCenter(id);
  return wc && { ...withDecimals(wc, ['rate_per_hour']), shutdowns: read.manufacturing.shutdowns().filter((s) => s.work_center === id || s.work_center === null) };
};

function routingView(read: Queries, item: string) {
  const operations = read.manufacturing.routing(item);
  if (operations.length === 0) return undefined;
  return { item, operations, links: [{ rel: 'item', type: 'item', id: item }] };
}

export const plantRoutes: RouteDef[] = [
  defineAction({
    action: 'work_center.define', method: 'POST', path: '/work-centers', tag, status: 201, objectType: 'work_center',
    summary: 'Define (or redefine) a work center: its daily capacity in hours and its standard labour and overhead rate per hour',
    body: Body({ id: IdInput, name: Type.String({ minLength: 1, maxLength: 200 }), capacity_hours_per_day: HoursInput, rate_per_hour: MoneyInput }),
    permission: ENGINEERING_MANAGE, emits: [WorkCenterDefined],
    decide: ({ body }) => {
      const rate = toCents(body.rate_per_hour);
      if (rate < 0) return refuse('invalid_request', 'A rate per hour cannot be negative.', 422);
      return emit(WorkCenterDefined, { id: body.id, name: body.name, capacity_hours_per_day: body.capacity_hours_per_day, rate_per_hour: rate }, 'work_center', body.id);
    },
    view: workCenterView,
  }),
  defineAction({
    action: 'plant.shutdown', method: 'POST', path: '/plant-calendar/shutdowns', tag, status: 201, objectType: 'plant_shutdown',
    summary: 'Close the plant, or one work center, for a range of days (maintenance, inventory count) on the plant calendar',
    body: Body({ from: DateInput, to: DateInput, work_center: Opt(IdInput), reason: ReasonInput, note: Opt(NoteInput) }),
    permission: PLANT_MANAGE, emits: [PlantShutdownScheduled],
    decide: ({ body }, ctx) => {
      if (body.to < body.from) return refuse('invalid_request', `A shutdown ends on or after it starts, not on ${body.to}.`, 422);
      if (daysBetween(body.from, body.to) > 366) return refuse('invalid_request', 'A shutdown lasts at most a year.', 422);
      if (body.work_center && !ctx.read.manufacturing.workCenter(body.work_center)) return refuse('not_found', `No work center ${body.work_center}.`);
      const id = ctx.nextId('PSD');
      return emit(PlantShutdownScheduled, { id, from: body.from, to: body.to, work_center: body.work_center ?? null, reason: body.reason, note: body.note ?? '' }, 'plant_shutdown', id);
    },
    view: (read, id) => read.manufacturing.shutdowns().find((s) => s.id === id),
  }),
  defineAction({
    action: 'plant.settings', method: 'POST', path: '/plant-settings', tag, objectType: 'plant',
    summary: 'Set the plant warehouse (where work orders issue and complete, what MRP ships planned purchases to) and the location completions go to',
    body: Body({ warehouse: IdInput, completion_location: Opt(IdInput) }),
    permission: PLANT_MANAGE, emits: [PlantSettingsSet],
    decide: ({ body }, ctx) => {
      if (!ctx.read.items.warehouse(body.warehouse)) return refuse('not_found', `No warehouse ${body.warehouse}.`);
      if (body.completion_location && !ctx.read.items.location(body.warehouse, body.completion_location)) return refuse('not_found', `Warehouse ${body.warehouse} has no location ${body.completion_location}.`);
      return emit(PlantSettingsSet, { warehouse: body.warehouse, completion_location: body.completion_location ?? null }, 'plant', 'plant');
    },
    view: (read) => read.manufacturing.plantSettings(),
  }),
  defineAction({
    action: 'routing.define', method: 'POST', path: '/routings', tag, status: 201, objectType: 'routing',
    summary: "Define (replace) a made item's routing: operations in sequence at work centers, with setup hours per order and run hours per unit",
    body: Body({
      item: IdInput,
      operations: Type.Array(Body({ seq: Type.Integer({ minimum: 1, maximum: 9999 }), work_center: IdInput, description: Opt(Type.String({ maxLength: 200 })), setup_hours: Opt(HoursInput), run_hours_per_unit: HoursInput }), { minItems: 1, maxItems: 100 }),
      note: Opt(NoteInput),
    }),
    permission: ENGINEERING_MANAGE, emits: [RoutingDefined],
    decide: ({ body }, ctx) => {
      const item = ctx.read.items.item(body.item);
      if (!item) return refuse('not_found', `No item ${body.item}.`);
      const bom = ctx.read.manufacturing.bom(body.item);
      if (!bom) return refuse('invalid_request', `${body.item} has no bill of materials; only made items have routings.`, 422);
      if (bom.phantom) return refuse('invalid_request', `${body.item} is a phantom: it is never made on its own, so it has no routing.`, 422);
      const seqs = new Set<number>();
      for (const o of body.operations) {
        if (seqs.has(o.seq)) return refuse('invalid_request', `Operation ${o.seq} is listed twice.`, 422);
        seqs.add(o.seq);
        if (!ctx.read.manufacturing.workCenter(o.work_center)) return refuse('not_found', `Operation ${o.seq}: no work center ${o.work_center}.`);
      }
      const operations = [...body.operations].sort((a, b) => a.seq - b.seq)
        .map((o) => ({ seq: o.seq, work_center: o.work_center, description: o.description ?? '', setup_hours: o.setup_hours ?? 0, run_hours_per_unit: o.run_hours_per_unit }));
      return emit(RoutingDefined, { item: body.item, operations, note: body.note ?? '' }, 'routing', body.item);
    },
    view: routingView,
  }),
  defineQuery({
    path: '/work-centers', tag, summary: 'List work centers with their capacity and rates', permission: null,
    query: ListQuery({}),
    run: ({ query }, ctx) => listPage(ctx.tables, 'work_centers', {}, query, { map: (r) => withDecimals(r, ['rate_per_hour']) }),
  }),
  defineQuery({
    path: '/work-centers/{id}', tag, summary: 'A work center with the shutdowns that close it', permission: null, objectType: 'work_center',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => workCenterView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/plant-calendar', tag, summary: "The plant calendar: each day's working status and every work center's hours (default the next four weeks)", permission: null,
    query: Type.Object({ from: Opt(DateInput), to: Opt(DateInput), work_center: Opt(IdInput) }, { additionalProperties: false }),
    run: ({ query }, ctx) => {
      const range = dayRange(ctx.today, query);
      if (isRefusal(range)) return range;
      const { from, to } = range;
      const centers = ctx.read.manufacturing.workCenters().filter((w) => !query.work_center || w.id === query.work_center);
      const plant = plantCalendar(ctx.read);
      const hours = new Map(centers.map((w) => [w.id, capacityByDay(ctx.read, w.id, from, to)]));
      const days = [];
      for (let d = from, i = 0; d <= to; d = addDays(d, 1), i++) {
        days.push({ date: d, working: isBusinessDay(d, plant), hours: Object.fromEntries(centers.map((w) => [w.id, hours.get(w.id)![i]!.hours])) });
      }
      return { from, to, shutdowns: ctx.read.manufacturing.shutdowns(), days };
    },
  }),
  defineQuery({
    path: '/plant-settings', tag, summary: 'The plant warehouse and completion location', permission: null, objectType: 'plant',
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => ctx.read.manufacturing.plantSettings() ?? refuse('not_found', 'The plant has no settings yet (POST /plant-settings).'),
  }),
  defineQuery({
    path: '/routings/{item}', tag, params: Type.Object({ item: IdInput }, { additionalProperties: false }), summary: "A made item's routing", permission: null, objectType: 'routing',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => routingView(ctx.read, params.item!),
  }),
];
