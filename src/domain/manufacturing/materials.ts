import { Type } from '@sinclair/typebox';
import type { InventoryMovement } from '../../events/contracts/inventory';
import { WorkOrderIssueReversed, WorkOrderMaterialIssued } from '../../events/contracts/manufacturing';
import { roundQty } from '../../projections/quantities';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { pickStock, unitCostOf } from '../inventory/costing';
import { postingDate, stockItem } from '../inventory/stock-inputs';
import { JournalBuilder } from '../ledger/journal';
import { Body, DateInput, IdInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { WIP_ACCOUNT, WO_ISSUE } from './permissions';
import { issueView } from './views';
import { woIn } from './work-orders';

const tag = 'manufacturing';
const Positive = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });

interface IssueLine {
  line: number;
  item: string;
  qty: number;
  value: number;
}

export const materialRoutes: RouteDef[] = [
  defineAction({
    action: 'work_order.issue', method: 'POST', path: '/work-orders/{id}/issues', tag, status: 201, objectType: 'wo_issue',
    summary: "Issue components to a released or in-progress work order (lines, or `units` to issue the BOM's quantities for that many units): Dr WIP, Cr inventory at the stock's cost, first expiry first",
    body: Body({
      lines: Opt(Type.Array(Body({ item: IdInput, qty: Positive, lot: Opt(IdInput), location: Opt(IdInput) }), { minItems: 1, maxItems: 500 })),
      units: Opt(Positive),
      date: Opt(DateInput),
      note: Opt(NoteInput),
    }),
    permission: WO_ISSUE, emits: [WorkOrderMaterialIssued],
    decide: ({ params, body }, ctx) => {
      const wo = woIn(ctx, params.id!, ['released', 'in_progress', 'completed'], 'issued to');
      if (isRefusal(wo)) return wo;
      if ((body.lines === undefined) === (body.units === undefined)) return refuse('invalid_request', 'Give either the lines issued or the units whose BOM quantities are issued, not both.', 422);
      const wanted = body.lines ?? ctx.read.manufacturing.components(wo.id)
        .map((c) => ({ item: c.item, qty: roundQty(c.qty_per * body.units!), lot: undefined, location: undefined }))
        .filter((l) => l.qty > 0);
      if (wanted.length === 0) return refuse('invalid_request', `${wo.id} has no components to issue for ${body.units} units.`, 422);
      const date = postingDate(ctx, body.date, true);
      if (isRefusal(date)) return date;
      const id = ctx.nextId('WOI');
      const lines: IssueLine[] = [];
      const inventory: InventoryMovement[] = [];
      const journal = new JournalBuilder(date, `Issue ${id} to ${wo.id} (${wo.item})`);
      for (const [i, w] of wanted.entries()) {
        const item = stockItem(ctx.read, w.item);
        if (isRefusal(item)) return item;
        if (w.location !== undefined && !ctx.read.items.location(wo.warehouse, w.location)) return refuse('not_found', `Warehouse ${wo.warehouse} has no location ${w.location}.`);
        // Picks within one request must see what earlier lines took: the same item twice is one pick.
        if (wanted.slice(0, i).some((p) => p.item === w.item)) return refuse('invalid_request', `${w.item} is listed twice; issue it on one line.`, 422);
        const picks = pickStock(ctx.read, { item: item.id, warehouse: wo.warehouse, location: w.location, lot: w.lot }, w.qty);
        if (isRefusal(picks)) return picks;
        const line = i + 1;
        const value = picks.reduce((s, p) => s + p.value, 0);
        lines.push({ line, item: item.id, qty: w.qty, value });
        for (const p of picks) {
          inventory.push({
            type: 'wo_issue', date, item: item.id, warehouse: wo.warehouse, location: p.location, lot: p.lot, expiry: p.expiry, qty: -p.qty,
            unit_cost: unitCostOf(p.value, p.qty), value: -p.value, document_type: 'wo_issue', document_id: id, document_line: line,
          });
        }
        journal.credit(item.inventory_account!, value, { document_id: id });
      }
      const total = lines.reduce((s, l) => s + l.value, 0);
      const built = journal.debit(WIP_ACCOUNT, total, { document_id: wo.id }).build(ctx.read);
      if (isRefusal(built)) return built;
      return emit(WorkOrderMaterialIssued, {
        id, work_order: wo.id, date, lines, note: body.note ?? '', journal: built, inventory, wip: total !== 0 ? [{ work_order: wo.id, kind: 'material', amount: total }] : [],
      }, 'wo_issue', id);
    },
    view: issueView,
  }),
  defineAction({
    action: 'work_order.reverse_issue', method: 'POST', path: '/wo-issues/{id}/reverse', tag, status: 201, objectType: 'wo_issue',
    summary: 'Reverse a wrong issue (all its lines, or those named) with a reason: the stock goes back where it came from at the value it left with; Dr inventory, Cr WIP',
    body: Body({ reason: ReasonInput, lines: Opt(Type.Array(Type.Integer({ minimum: 1, maximum: 10000 }), { minItems: 1, maxItems: 500 })), date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: WO_ISSUE, emits: [WorkOrderIssueReversed],
    decide: ({ params, body }, ctx) => {
      const all = ctx.read.manufacturing.issueLines(params.id!);
      if (all.length === 0) return refuse('not_found', `No work-order issue ${params.id}.`);
      if (all[0]!.kind === 'reversal') return refuse('invalid_request', `${params.id} is itself a reversal; issue the stock again instead.`, 422);
      const wo = woIn(ctx, all[0]!.work_order, ['released', 'in_progress', 'completed'], 'corrected');
      if (isRefusal(wo)) return wo;
      const chosen = body.lines ?? all.map((l) => l.line);
      const lines = [];
      for (const n of [...new Set(chosen)].sort((a, b) => a - b)) {
        const line = all.find((l) => l.line === n);
        if (!line) return refuse('not_found', `${params.id} has no line ${n}.`);
        if (line.status === 'reversed') return refuse('invalid_state', `Line ${n} of ${params.id} is already reversed.`);
        lines.push(line);
      }
      const date = postingDate(ctx, body.date, true);
      if (isRefusal(date)) return date;
      if (date < all[0]!.date) return refuse('invalid_request', `A reversal cannot be dated before the issue it reverses (${all[0]!.date}).`, 422);
      const id = ctx.nextId('WOR');
      const moved = ctx.read.inventory.transactionsOf(params.id!);
      const inventory: InventoryMovement[] = [];
      const journal = new JournalBuilder(date, `Reversal ${id} of issue ${params.id} to ${wo.id}: ${body.reason}`);
      for (const line of lines) {
        for (const t of moved.filter((m) => m.document_line === line.line)) {
          inventory.push({
            type: 'wo_issue_reversal', date, item: t.item, warehouse: t.warehouse, location: t.location, lot: t.lot, expiry: t.expiry, qty: -t.qty,
            unit_cost: t.unit_cost, value: -t.value, document_type: 'wo_issue', document_id: id, document_line: line.line,
          });
        }
        journal.debit(ctx.read.items.item(line.item)!.inventory_account!, line.value, { document_id: id });
      }
      const total = lines.reduce((s, l) => s + l.value, 0);
      const built = journal.credit(WIP_ACCOUNT, total, { document_id: wo.id }).build(ctx.read);
      if (isRefusal(built)) return built;
      return emit(WorkOrderIssueReversed, {
        id, issue: params.id!, work_order: wo.id, date, lines: lines.map((l) => ({ line: l.line, item: l.item, qty: l.qty, value: l.value })), reason: body.reason,
        note: body.note ?? '', journal: built, inventory, wip: total !== 0 ? [{ work_order: wo.id, kind: 'material_reversal', amount: -total }] : [],
      }, 'wo_issue', id);
    },
    view: issueView,
  }),
  defineQuery({
    path: '/wo-issues/{id}', tag, summary: 'A material issue to a work order, or its reversal, with its stock movements', permission: null, objectType: 'wo_issue',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => issueView(ctx.read, params.id!),
  }),
];
