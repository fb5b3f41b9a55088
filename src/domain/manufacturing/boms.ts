import { Type, type Static } from '@sinclair/typebox';
import { BomDefined, EngineeringChangeRecorded, type BomLine } from '../../events/contracts/manufacturing';
import type { Queries } from '../../projections';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { addDays } from '../calendar';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { fromCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { bomSourceOf, explode, usesAnywhere } from './explosion';
import { ENGINEERING_MANAGE } from './permissions';
import { rolledUpCost } from './standards';

const tag = 'manufacturing';

const ScrapPctInput = Type.Number({ minimum: 0, maximum: 500, description: 'Component scrap in percent (2.5 = 2.5% more than qty_per is required), at most two decimals' });
const QtyPerInput = Type.Number({ exclusiveMinimum: 0, maximum: 1e6, description: 'Units of the component per unit of the parent' });

const BomLineInput = Body({
  component: IdInput,
  qty_per: QtyPerInput,
  scrap_pct: Opt(ScrapPctInput),
  effective_from: Opt(Type.String({ format: 'date', description: 'YYYY-MM-DD; default today' })),
  effective_to: Opt(Type.String({ format: 'date', description: 'YYYY-MM-DD, the last day the line applies; default open-ended' })),
});

/** Scrap in basis points, or a refusal when it has more than two decimals. */
function scrapBp(pct: number | undefined, n: number): number | Refusal {
  const bp = Math.round((pct ?? 0) * 100);
  if (Math.abs((pct ?? 0) * 100 - bp) > 1e-6) return refuse('invalid_request', `Line ${n}: scrap_pct has at most two decimals.`, 422);
  return bp;
}

/** A stock item that may be a component (or a parent), or a refusal. */
function stockItemRefusal(read: Queries, id: string, what: string): Refusal | undefined {
  const item = read.items.item(id);
  if (!item) return refuse('not_found', `${what}: no item ${id}.`);
  if (item.type !== 'stock') return refuse('invalid_request', `${what}: ${id} is a ${item.type.replace('_', '-')} item; bills of materials hold stock items only.`, 422);
  return undefined;
}

const overlaps = (a: { effective_from: string; effective_to: string | null }, b: typeof a) =>
  a.effective_from <= (b.effective_to ?? '9999-12-31') && b.effective_from <= (a.effective_to ?? '9999-12-31');

/** Lines as the event carries them, checked: real stock components, no cycle, no component twice at once. */
function parseLines(ctx: DecideContext, parent: string, input: readonly Static<typeof BomLineInput>[], firstLine: number, existing: readonly BomLine[], effectiveFrom?: string): BomLine[] | Refusal {
  const lines: BomLine[] = [];
  for (const [i, l] of input.entries()) {
    const n = firstLine + i;
    const bad = stockItemRefusal(ctx.read, l.component, `Line ${n}`);
    if (bad) return bad;
    if (l.component === parent) return refuse('invalid_request', `Line ${n}: ${parent} cannot be a component of itself.`, 422);
    if (usesAnywhere((item) => ctx.read.manufacturing.bomLines(item), l.component, parent)) {
      return refuse('invalid_request', `Line ${n}: ${l.component} already uses ${parent} in its own bill of materials; the BOM would be a cycle.`, 422);
    }
    const bp = scrapBp(l.scrap_pct, n);
    if (isRefusal(bp)) return bp;
    const from = effectiveFrom ?? l.effective_from ?? ctx.today;
    const to = l.effective_to ?? null;
    if (to !== null && to < from) return refuse('invalid_request', `Line ${n}: effective_to ${to} is before effective_from ${from}.`, 422);
    const line: BomLine = { line: n, component: l.component, qty_per: l.qty_per, scrap_bp: bp, effective_from: from, effective_to: to };
    const clash = [...existing, ...lines].find((o) => o.component === line.component && overlaps(o, line));
    if (clash) return refuse('invalid_request', `Line ${n}: ${line.component} is already line ${clash.line} for some of those dates; end that line with an engineering change to change its quantity.`, 422);
    lines.push(line);
  }
  return lines;
}

/** A BOM as it stands: every line with its effectivity, the lines in effect on a date, the explosion and the standard roll-up. */
export function bomView(read: Queries, item: string, date: string) {
  const bom = read.manufacturing.bom(item);
  if (!bom) return undefined;
  const lines = read.manufacturing.bomLines(item);
  const inEffect = read.manufacturing.bomLinesOn(item, date);
  const cost = rolledUpCost(read, item, date, Math.max(read.items.item(item)?.moq ?? 1, 1));
  return {
    ...bom,
    date,
    lines: lines.map((l) => ({ ...l, scrap_pct: l.scrap_bp / 100, in_effect: inEffect.some((e) => e.line === l.line) })),
    exploded_per_unit: explode(bomSourceOf(read), item, date),
    standard_rollup: { material: fromCents(cost.material), conversion: fromCents(cost.conversion), total: fromCents(cost.total), lot_size: Math.max(read.items.item(item)?.moq ?? 1, 1) },
    engineering_changes: read.manufacturing.engineeringChanges(item).map((c) => ({ ...c, pending: c.effective_date > date })),
    links: [{ rel: 'item', type: 'item', id: item }],
  };
}

export const bomRoutes: RouteDef[] = [
  defineAction({
    action: 'bom.define', method: 'POST', path: '/boms', tag, status: 201, objectType: 'bom',
    summary: "Define a made item's bill of materials: components per unit with scrap and effectivity dates; a phantom is blown through, never stocked",
    body: Body({
      item: IdInput,
      phantom: Opt(Type.Boolean({ description: 'A phantom assembly: work orders and MRP take its components instead of it' })),
      description: Opt(Type.String({ maxLength: 400 })),
      lines: Type.Array(BomLineInput, { minItems: 1, maxItems: 500 }),
      note: Opt(NoteInput),
    }),
    permission: ENGINEERING_MANAGE, emits: [BomDefined],
    decide: ({ body }, ctx) => {
      const bad = stockItemRefusal(ctx.read, body.item, 'The parent');
      if (bad) return bad;
      if (ctx.read.manufacturing.bom(body.item)) return refuse('already_exists', `${body.item} already has a bill of materials; change it with POST /boms/${body.item}/changes.`);
      const lines = parseLines(ctx, body.item, body.lines, 1, []);
      if (isRefusal(lines)) return lines;
      return emit(BomDefined, { item: body.item, phantom: body.phantom ?? false, description: body.description ?? '', lines, note: body.note ?? '' }, 'bom', body.item);
    },
    view: (read, item) => bomView(read, item, read.clock.today()),
  }),
  defineAction({
    action: 'bom.change', method: 'POST', path: '/boms/{item}/changes', tag, status: 201, objectType: 'engineering_change',
    params: Type.Object({ item: IdInput }, { additionalProperties: false }),
    summary: 'Record an engineering change: components removed and added from an effective date (today or later); pending until that date',
    body: Body({
      effective_date: DateInput,
      reason: ReasonInput,
      remove: Opt(Type.Array(IdInput, { maxItems: 500, description: 'Components whose lines in effect on the date end the day before' })),
      add: Opt(Type.Array(Body({ component: IdInput, qty_per: QtyPerInput, scrap_pct: Opt(ScrapPctInput) }), { maxItems: 500 })),
      note: Opt(NoteInput),
    }),
    permission: ENGINEERING_MANAGE, emits: [EngineeringChangeRecorded],
    decide: ({ params, body }, ctx) => {
      const item = params.item!;
      if (!ctx.read.manufacturing.bom(item)) return refuse('not_found', `${item} has no bill of materials.`);
      if (body.effective_date < ctx.today) return refuse('invalid_request', `An engineering change takes effect today or later, not ${body.effective_date}: work already planned used the BOM as it was.`, 422);
      const remove = body.remove ?? [];
      const add = body.add ?? [];
      if (remove.length === 0 && add.length === 0) return refuse('invalid_request', 'An engineering change removes or adds at least one component.', 422);
      const lines = ctx.read.manufacturing.bomLines(item);
      const ended: number[] = [];
      for (const component of remove) {
        const line = lines.find((l) => l.component === component && l.effective_from < body.effective_date && (l.effective_to === null || l.effective_to >= body.effective_date));
        if (!line) return refuse('invalid_request', `${component} has no line of ${item} in effect before and on ${body.effective_date} to end.`, 422);
        ended.push(line.line);
      }
      const kept = lines.filter((l) => !ended.includes(l.line));
      const endedOn = addDays(body.effective_date, -1);
      const added = parseLines(ctx, item, add, lines.length + 1, [...kept, ...lines.filter((l) => ended.includes(l.line)).map((l) => ({ ...l, effective_to: endedOn }))], body.effective_date);
      if (isRefusal(added)) return added;
      const id = ctx.nextId('ECN');
      return emit(EngineeringChangeRecorded, { id, item, effective_date: body.effective_date, reason: body.reason, ended_lines: ended, ended_on: endedOn, added_lines: added, note: body.note ?? '' }, 'engineering_change', id);
    },
    view: (read, id) => {
      const change = read.manufacturing.engineeringChange(id);
      return change && { ...change, pending: change.effective_date > read.clock.today(), bom: bomView(read, change.item, change.effective_date) };
    },
  }),
  defineQuery({
    path: '/boms', tag, summary: 'List bills of materials (phantom=true for phantoms)', permission: null,
    query: ListQuery({ phantom: Opt(Type.Boolean()) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'boms', { phantom: query.phantom }, query),
  }),
  defineQuery({
    path: '/boms/{item}', tag, params: Type.Object({ item: IdInput }, { additionalProperties: false }), objectType: 'bom', permission: null,
    summary: 'A bill of materials on a date (default today): every line with its effectivity, those in effect, the explosion per unit with phantoms blown through, the standard roll-up and engineering changes',
    query: Type.Object({ date: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ params, query }, ctx) => bomView(ctx.read, params.item!, query.date ?? ctx.today),
  }),
];
