import { Type } from '@sinclair/typebox';
import type { InventoryMovement } from '../../events/contracts/inventory';
import { WorkOrderClosed, WorkOrderCompleted, type WipMovement } from '../../events/contracts/manufacturing';
import { roundQty } from '../../projections/quantities';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { addDays } from '../calendar';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse } from '../decision';
import { postingDate } from '../inventory/stock-inputs';
import { JournalBuilder } from '../ledger/journal';
import { roundCents } from '../money';
import { Body, DateInput, IdInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { CONVERSION_APPLIED_ACCOUNT, CONVERSION_VARIANCE_ACCOUNT, MATERIAL_VARIANCE_ACCOUNT, SCRAP_ACCOUNT, WIP_ACCOUNT, WO_CLOSE, WO_COMPLETE } from './permissions';
import { standardAllowed, standardHours } from './standards';
import { workOrderView } from './views';
import { woIn } from './work-orders';

const tag = 'manufacturing';
const Qty = Type.Number({ minimum: 0, maximum: 1e9 });

const nonZero = (movements: WipMovement[]) => movements.filter((m) => m.amount !== 0);

export const completionRoutes: RouteDef[] = [
  defineAction({
    action: 'work_order.complete', method: 'POST', path: '/work-orders/{id}/completions', tag, status: 201, objectType: 'wo_completion',
    summary: 'Report good and scrapped units: good units into stock and scrap written off at standard cost, labour and overhead applied to WIP for the hours (standard unless given)',
    body: Body({
      qty: Qty,
      scrap_qty: Opt(Qty),
      scrap_reason: Opt(ReasonInput),
      location: Opt(IdInput),
      lot: Opt(IdInput),
      expiry: Opt(DateInput),
      hours: Opt(Type.Array(Body({ seq: Type.Integer({ minimum: 1, maximum: 9999 }), hours: Type.Number({ minimum: 0, maximum: 1e6 }) }), { maxItems: 100, description: 'Actual hours per operation; the rest at standard' })),
      date: Opt(DateInput),
      note: Opt(NoteInput),
    }),
    permission: WO_COMPLETE, emits: [WorkOrderCompleted],
    decide: ({ params, body }, ctx) => {
      const wo = woIn(ctx, params.id!, ['released', 'in_progress'], 'completed');
      if (isRefusal(wo)) return wo;
      const scrap = body.scrap_qty ?? 0;
      if (body.qty + scrap <= 0) return refuse('invalid_request', 'Report a good or a scrapped quantity above 0.', 422);
      if (scrap > 0 && !body.scrap_reason) return refuse('invalid_request', 'Scrapped units need a scrap_reason.', 422);
      const open = roundQty(wo.qty - wo.qty_completed - wo.qty_scrapped);
      if (roundQty(body.qty + scrap) > open) return refuse('over_completion', `${wo.id} has ${open} of ${wo.qty} left to report; ${roundQty(body.qty + scrap)} is more.`);
      const item = ctx.read.items.item(wo.item)!;
      if (item.lot_controlled && body.qty > 0 && !body.lot) return refuse('invalid_request', `${item.id} is lot-controlled; name the lot completed.`, 422);
      const settings = ctx.read.manufacturing.plantSettings();
      const location = body.location ?? (settings?.warehouse === wo.warehouse ? settings.completion_location : null) ?? ctx.read.items.locations(wo.warehouse)[0]?.code ?? null;
      if (body.location !== undefined && !ctx.read.items.location(wo.warehouse, body.location)) return refuse('not_found', `Warehouse ${wo.warehouse} has no location ${body.location}.`);
      const date = postingDate(ctx, body.date, true);
      if (isRefusal(date)) return date;
      const operations = ctx.read.manufacturing.operations(wo.id);
      const firstReport = ctx.read.manufacturing.completionsOf(wo.id).length === 0;
      for (const h of body.hours ?? []) if (!operations.some((o) => o.seq === h.seq)) return refuse('not_found', `${wo.id} has no operation ${h.seq}.`);
      const hours = operations.map((o) => ({ seq: o.seq, hours: body.hours?.find((h) => h.seq === o.seq)?.hours ?? standardHours(o, body.qty + scrap, firstReport) }));
      const conversion = roundCents(operations.reduce((s, o, i) => s + hours[i]!.hours * o.rate_per_hour, 0));
      const completed = roundCents(item.standard_cost * body.qty);
      const scrapped = roundCents(item.standard_cost * scrap);
      const id = ctx.nextId('WOC');
      const journal = new JournalBuilder(date, `Completion ${id} of ${wo.id}: ${body.qty} ${item.id}${scrap ? `, ${scrap} scrapped` : ''}`)
        .transfer(WIP_ACCOUNT, CONVERSION_APPLIED_ACCOUNT, conversion, { document_id: wo.id })
        .debit(item.inventory_account!, completed, { document_id: id })
        .debit(SCRAP_ACCOUNT, scrapped, { document_id: wo.id })
        .credit(WIP_ACCOUNT, completed + scrapped, { document_id: wo.id })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      const lot = body.qty > 0 ? body.lot ?? null : null;
      const expiry = lot ? body.expiry ?? (item.shelf_life_days ? addDays(date, item.shelf_life_days) : null) : null;
      const inventory: InventoryMovement[] = body.qty > 0 ? [{
        type: 'wo_completion', date, item: item.id, warehouse: wo.warehouse, location, lot, expiry, qty: body.qty, unit_cost: item.standard_cost, value: completed,
        document_type: 'wo_completion', document_id: id, document_line: null,
      }] : [];
      return emit(WorkOrderCompleted, {
        id, work_order: wo.id, date, qty: body.qty, scrap_qty: scrap, scrap_reason: scrap > 0 ? body.scrap_reason! : null, warehouse: wo.warehouse, location, lot, expiry,
        hours, conversion_value: conversion, completed_value: completed, scrap_value: scrapped, note: body.note ?? '', journal, inventory,
        wip: nonZero([{ work_order: wo.id, kind: 'conversion', amount: conversion }, { work_order: wo.id, kind: 'completion', amount: -completed }, { work_order: wo.id, kind: 'scrap', amount: -scrapped }]),
      }, 'wo_completion', id);
    },
    view: (read, id) => {
      const c = read.manufacturing.completion(id);
      return c && { ...withDecimals(c, ['conversion_value', 'completed_value', 'scrap_value']), work_order: workOrderView(read, c.work_order, false), links: [{ rel: 'work_order', type: 'work_order', id: c.work_order }] };
    },
  }),
  defineAction({
    action: 'work_order.close', method: 'POST', path: '/work-orders/{id}/close', tag, objectType: 'work_order',
    summary: 'Close a work order: what is left in WIP posts to material and labour/overhead variances against the standard of the units reported',
    body: Body({ reason: Opt(ReasonInput), date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: WO_CLOSE, emits: [WorkOrderClosed],
    decide: ({ params, body }, ctx) => {
      const wo = woIn(ctx, params.id!, ['released', 'in_progress', 'completed'], 'closed');
      if (isRefusal(wo)) return wo;
      const units = roundQty(wo.qty_completed + wo.qty_scrapped);
      if (wo.status === 'released' && units === 0 && ctx.read.manufacturing.issuesOf(wo.id).length === 0) {
        return refuse('invalid_state', `${wo.id} has nothing issued or reported; cancel it instead.`);
      }
      if (wo.status !== 'completed' && !body.reason) return refuse('invalid_request', `${wo.id} has ${roundQty(wo.qty - units)} units not reported; give the reason it closes short.`, 422);
      const date = postingDate(ctx, body.date, true);
      if (isRefusal(date)) return date;
      const allowed = standardAllowed(ctx.read.manufacturing.components(wo.id), ctx.read.manufacturing.operations(wo.id), units);
      const materialVariance = wo.material_issued - allowed.material;
      const conversionVariance = wo.conversion_applied - allowed.conversion;
      const residual = wo.wip_balance;
      const difference = residual - materialVariance - conversionVariance;
      // The standard difference (the item's standard against this order's own) is material in nature and posts with it.
      const journal = new JournalBuilder(date, `Close ${wo.id} (${wo.item}): variances`)
        .debit(MATERIAL_VARIANCE_ACCOUNT, materialVariance + difference, { document_id: wo.id })
        .debit(CONVERSION_VARIANCE_ACCOUNT, conversionVariance, { document_id: wo.id })
        .credit(WIP_ACCOUNT, residual, { document_id: wo.id })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(WorkOrderClosed, {
        id: wo.id, date, material_standard: allowed.material, material_actual: wo.material_issued, material_variance: materialVariance,
        conversion_standard: allowed.conversion, conversion_applied: wo.conversion_applied, conversion_variance: conversionVariance, standard_difference: difference,
        reason: body.reason ?? null, note: body.note ?? '', journal, wip: nonZero([{ work_order: wo.id, kind: 'variance', amount: -residual }]),
      }, 'work_order', wo.id);
    },
    view: (read, id) => workOrderView(read, id),
  }),
  defineQuery({
    path: '/wo-completions/{id}', tag, summary: 'A completion: good and scrapped units, hours, and the values posted', permission: null, objectType: 'wo_completion',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => {
      const c = ctx.read.manufacturing.completion(params.id!);
      return c && { ...withDecimals(c, ['conversion_value', 'completed_value', 'scrap_value']), transactions: ctx.read.inventory.transactionsOf(c.id).map((t) => withDecimals(t, ['unit_cost', 'value'])) };
    },
  }),
];
