import { Type } from '@sinclair/typebox';
import { InventoryAdjusted, InventoryIssued, InventoryTransferred, type InventoryMovement } from '../../events/contracts/inventory';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { JournalBuilder } from '../ledger/journal';
import { AccountInput } from '../master/inputs';
import { roundCents, toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { pickStock, unitCostOf, type Pick } from './costing';
import { INVENTORY_ADJUST, INVENTORY_ISSUE, INVENTORY_TRANSFER, placeRefusal, postingDate, stockItem } from './stock-inputs';
import { inventoryDocumentView } from './views';

const tag = 'inventory';
const Positive = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });

type MovementType = InventoryMovement['type'];

function movement(type: MovementType, doc: { type: string; id: string; date: string; item: string }, warehouse: string, p: Pick, sign: 1 | -1): InventoryMovement {
  return {
    type, date: doc.date, item: doc.item, warehouse, location: p.location, lot: p.lot, expiry: p.expiry, qty: sign * p.qty,
    unit_cost: unitCostOf(p.value, p.qty), value: sign * p.value, document_type: doc.type, document_id: doc.id, document_line: null,
  };
}

export const movementRoutes: RouteDef[] = [
  defineAction({
    action: 'inventory.issue', method: 'POST', path: '/inventory/issues', tag, status: 201, objectType: 'inventory_issue',
    summary: 'Issue stock to production or a cost center: Dr the issue account (default the item\'s expense account), Cr inventory, at cost; first expiry first unless a lot or location is named',
    body: Body({
      item: IdInput, warehouse: IdInput, qty: Positive, location: Opt(IdInput), lot: Opt(IdInput),
      destination: Body({ type: Type.Union([Type.Literal('production'), Type.Literal('cost_center')]), ref: Type.String({ minLength: 1, maxLength: 80 }) }),
      account: Opt(AccountInput), department: Opt(IdInput), date: Opt(DateInput), note: Opt(NoteInput),
    }),
    permission: INVENTORY_ISSUE, emits: [InventoryIssued],
    decide: ({ body }, ctx) => {
      const item = stockItem(ctx.read, body.item);
      if (isRefusal(item)) return item;
      const bad = placeRefusal(ctx.read, body.warehouse, body.location);
      if (bad) return bad;
      const account = body.account ?? item.expense_account;
      if (!account) return refuse('invalid_request', `${item.id} has no expense account; name the account the issue is charged to.`, 422);
      if (body.department && !ctx.read.org.department(body.department)) return refuse('not_found', `No department ${body.department}.`);
      const date = postingDate(ctx, body.date, true);
      if (isRefusal(date)) return date;
      const picks = pickStock(ctx.read, { item: item.id, warehouse: body.warehouse, location: body.location, lot: body.lot }, body.qty);
      if (isRefusal(picks)) return picks;
      const id = ctx.nextId('ISS');
      const value = picks.reduce((s, p) => s + p.value, 0);
      const journal = new JournalBuilder(date, `Issue ${id}: ${body.qty} ${item.id} to ${body.destination.type} ${body.destination.ref}`)
        .debit(account, value, { document_id: id, department: body.department ?? null })
        .credit(item.inventory_account!, value, { document_id: id })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      const doc = { type: 'inventory_issue', id, date, item: item.id };
      return emit(InventoryIssued, {
        id, date, item: item.id, warehouse: body.warehouse, qty: body.qty, account, department: body.department ?? null, destination: body.destination,
        note: body.note ?? '', journal, inventory: picks.map((p) => movement('issue', doc, body.warehouse, p, -1)),
      }, 'inventory_issue', id);
    },
    view: (read, id) => inventoryDocumentView(read, 'inventory_issue', id),
  }),
  defineAction({
    action: 'inventory.adjust', method: 'POST', path: '/inventory/adjustments', tag, status: 201, objectType: 'adjustment',
    summary: 'Adjust on-hand by a signed quantity with a reason: inventory against the adjustment account (default the item\'s expense account)',
    body: Body({
      item: IdInput, warehouse: IdInput, qty: Type.Number({ minimum: -1e9, maximum: 1e9, description: 'Signed: positive adds stock, negative removes it' }), location: Opt(IdInput), lot: Opt(IdInput),
      expiry: Opt(DateInput), unit_cost: Opt(MoneyInput), reason: ReasonInput, account: Opt(AccountInput), date: Opt(DateInput), note: Opt(NoteInput),
    }),
    permission: INVENTORY_ADJUST, emits: [InventoryAdjusted],
    decide: ({ body }, ctx) => {
      if (body.qty === 0) return refuse('invalid_request', 'An adjustment changes on-hand; give a quantity other than 0.', 422);
      const item = stockItem(ctx.read, body.item);
      if (isRefusal(item)) return item;
      const bad = placeRefusal(ctx.read, body.warehouse, body.location);
      if (bad) return bad;
      const account = body.account ?? item.expense_account;
      if (!account) return refuse('invalid_request', `${item.id} has no expense account; name the adjustment account.`, 422);
      const date = postingDate(ctx, body.date, true);
      if (isRefusal(date)) return date;
      let picks: Pick[];
      if (body.qty < 0) {
        const taken = pickStock(ctx.read, { item: item.id, warehouse: body.warehouse, location: body.location, lot: body.lot }, -body.qty);
        if (isRefusal(taken)) return taken;
        picks = taken;
      } else {
        if (item.lot_controlled && !body.lot) return refuse('invalid_request', `${item.id} is lot-controlled; name the lot adjusted.`, 422);
        const location = body.location ?? ctx.read.items.locations(body.warehouse)[0]?.code ?? null;
        const [place] = ctx.read.inventory.stock({ item: item.id, warehouse: body.warehouse, location, lot: body.lot ?? null });
        const all = ctx.read.inventory.stock({ item: item.id });
        const allQty = all.reduce((s, r) => s + r.qty, 0);
        const unitCost = body.unit_cost !== undefined ? toCents(body.unit_cost)
          : place && place.qty > 0 ? place.value / place.qty
            : allQty > 0 ? all.reduce((s, r) => s + r.value, 0) / allQty
              : item.standard_cost;
        if (unitCost < 0) return refuse('invalid_request', 'A unit cost cannot be negative.', 422);
        picks = [{ location, lot: body.lot ?? null, expiry: body.expiry ?? place?.expiry ?? null, qty: body.qty, value: roundCents(body.qty * unitCost) }];
      }
      const sign = body.qty < 0 ? -1 : 1;
      const value = sign * picks.reduce((s, p) => s + p.value, 0);
      const id = ctx.nextId('ADJ');
      const journal = new JournalBuilder(date, `Adjustment ${id}: ${body.qty} ${item.id}, ${body.reason}`)
        .debit(item.inventory_account!, value, { document_id: id })
        .balanceTo(account, { document_id: id })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      const doc = { type: 'adjustment', id, date, item: item.id };
      return emit(InventoryAdjusted, {
        id, date, item: item.id, warehouse: body.warehouse, qty: body.qty, account, reason: body.reason, note: body.note ?? '', journal,
        inventory: picks.map((p) => movement('adjustment', doc, body.warehouse, p, sign)),
      }, 'adjustment', id);
    },
    view: (read, id) => inventoryDocumentView(read, 'adjustment', id),
  }),
  defineAction({
    action: 'inventory.transfer', method: 'POST', path: '/inventory/transfers', tag, status: 201, objectType: 'transfer',
    summary: 'Move stock between locations or warehouses: value moves with it, so nothing posts to the ledger',
    body: Body({
      item: IdInput, from_warehouse: IdInput, from_location: Opt(IdInput), lot: Opt(IdInput), to_warehouse: Opt(IdInput), to_location: Opt(IdInput),
      qty: Positive, reason: Opt(ReasonInput), date: Opt(DateInput), note: Opt(NoteInput),
    }),
    permission: INVENTORY_TRANSFER, emits: [InventoryTransferred],
    decide: ({ body }, ctx) => {
      const item = stockItem(ctx.read, body.item);
      if (isRefusal(item)) return item;
      const toWarehouse = body.to_warehouse ?? body.from_warehouse;
      const bad = placeRefusal(ctx.read, body.from_warehouse, body.from_location) ?? placeRefusal(ctx.read, toWarehouse, body.to_location);
      if (bad) return bad;
      const toLocation = body.to_location ?? ctx.read.items.locations(toWarehouse)[0]?.code ?? null;
      const date = postingDate(ctx, body.date, false);
      if (isRefusal(date)) return date;
      const picks = pickStock(ctx.read, { item: item.id, warehouse: body.from_warehouse, location: body.from_location, lot: body.lot }, body.qty);
      if (isRefusal(picks)) return picks;
      if (toWarehouse === body.from_warehouse && picks.some((p) => p.location === toLocation)) {
        return refuse('invalid_request', `The stock is already at ${toWarehouse}/${toLocation ?? '-'}; name where it moves to.`, 422);
      }
      const id = ctx.nextId('TRF');
      const doc = { type: 'transfer', id, date, item: item.id };
      const inventory = picks.flatMap((p) => [movement('transfer_out', doc, body.from_warehouse, p, -1), movement('transfer_in', doc, toWarehouse, { ...p, location: toLocation }, 1)]);
      return emit(InventoryTransferred, {
        id, date, item: item.id, from_warehouse: body.from_warehouse, to_warehouse: toWarehouse, to_location: toLocation, qty: body.qty,
        reason: body.reason ?? null, note: body.note ?? '', inventory,
      }, 'transfer', id);
    },
    view: (read, id) => inventoryDocumentView(read, 'transfer', id),
  }),
];
