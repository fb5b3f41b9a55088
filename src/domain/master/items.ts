import { Type } from '@sinclair/typebox';
import { ItemCreated, ItemPlanningUpdated, LocationCreated, WarehouseCreated } from '../../events/contracts/master';
import type { Queries } from '../../projections';
import type { ItemRow } from '../../projections/master-items';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse, type Refusal } from '../decision';
import { toCents } from '../money';
import { Body, IdInput, ListQuery, MoneyInput, NoteInput, Opt } from '../schemas';
import { AccountInput, VendorIdInput } from './inputs';
import { ITEM_PLAN, MASTER_DATA_MANAGE } from './permissions';

const Days = Type.Integer({ minimum: 0, maximum: 3650 });
const Positive = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });
const NonNegative = Type.Number({ minimum: 0, maximum: 1e9 });
const ItemTypeInput = Type.Union([Type.Literal('stock'), Type.Literal('non_stock'), Type.Literal('service')]);

export function itemView(read: Queries, id: string) {
  const item = read.items.item(id);
  if (!item) return undefined;
  return {
    ...withDecimals(item as ItemRow, ['standard_cost']),
    approved_substitutes: read.items.substitutesOf(id).map((s) => ({ substitute: s.substitute, vendor: s.vendor })),
    links: item.preferred_vendor ? [{ rel: 'preferred_vendor', type: 'vendor', id: item.preferred_vendor }] : [],
  };
}

function warehouseView(read: Queries, id: string) {
  const warehouse = read.items.warehouse(id);
  if (!warehouse) return undefined;
  return { ...warehouse, locations: read.items.locations(id) };
}

function checkReferences(read: Queries, refs: { vendor?: string | null; accounts?: (string | null | undefined)[] }): Refusal | undefined {
  if (refs.vendor && !read.vendors.vendor(refs.vendor)) return refuse('not_found', `No vendor ${refs.vendor}.`);
  for (const code of refs.accounts ?? []) {
    if (code && !read.ledger.account(code)) return refuse('not_found', `No account ${code} in the chart of accounts.`);
  }
  return undefined;
}

export const itemRoutes: RouteDef[] = [
  defineAction({
    action: 'item.create', method: 'POST', path: '/items', tag: 'master', status: 201,
    summary: 'Create an item with its costing, planning data and accounts',
    body: Body({
      id: IdInput,
      description: Type.String({ minLength: 1, maxLength: 200 }),
      type: ItemTypeInput,
      unit: Type.String({ minLength: 1, maxLength: 20 }),
      category: Opt(Type.String({ maxLength: 80 })),
      lot_controlled: Opt(Type.Boolean()),
      shelf_life_days: Opt(Days),
      standard_cost: Opt(MoneyInput),
      preferred_vendor: Opt(VendorIdInput),
      lead_time_days: Opt(Days),
      order_multiple: Opt(Positive),
      moq: Opt(NonNegative),
      safety_stock: Opt(NonNegative),
      inventory_account: Opt(AccountInput),
      expense_account: Opt(AccountInput),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'item', emits: [ItemCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.items.item(body.id)) return refuse('already_exists', `Item ${body.id} already exists.`);
      if (body.type === 'stock' && !body.inventory_account) return refuse('invalid_request', 'A stock item needs an inventory_account.', 422);
      const bad = checkReferences(ctx.read, { vendor: body.preferred_vendor, accounts: [body.inventory_account, body.expense_account] });
      if (bad) return bad;
      const standard_cost = body.standard_cost === undefined ? 0 : toCents(body.standard_cost);
      if (standard_cost < 0) return refuse('invalid_request', 'A standard cost cannot be negative.', 422);
      return emit(ItemCreated, {
        id: body.id, description: body.description, type: body.type as 'stock', unit: body.unit, category: body.category ?? '',
        lot_controlled: body.lot_controlled ?? false, shelf_life_days: body.shelf_life_days ?? null, standard_cost,
        inventory_account: body.inventory_account ?? null, expense_account: body.expense_account ?? null,
        preferred_vendor: body.preferred_vendor ?? null, lead_time_days: body.lead_time_days ?? 0, order_multiple: body.order_multiple ?? 1, moq: body.moq ?? 0,
        safety_stock: body.safety_stock ?? 0,
      }, 'item', body.id);
    },
    view: itemView,
  }),
  defineAction({
    action: 'item.update_planning', method: 'POST', path: '/items/{id}/planning', tag: 'master',
    summary: "Update an item's planning data: lead time, order multiple, MOQ, safety stock, preferred vendor (null clears it)",
    body: Body({
      lead_time_days: Opt(Days),
      order_multiple: Opt(Positive),
      moq: Opt(NonNegative),
      safety_stock: Opt(NonNegative),
      preferred_vendor: Opt(Type.Union([VendorIdInput, Type.Null()])),
      source: Opt(Type.String({ maxLength: 200, description: 'What prompted the change, e.g. a message id' })),
      note: Opt(NoteInput),
    }),
    permission: ITEM_PLAN, objectType: 'item', emits: [ItemPlanningUpdated],
    decide: ({ params, body }, ctx) => {
      const item = ctx.read.items.item(params.id!);
      if (!item) return refuse('not_found', `No item ${params.id}.`);
      const changes = [body.lead_time_days, body.order_multiple, body.moq, body.safety_stock, body.preferred_vendor];
      if (changes.every((c) => c === undefined)) return refuse('invalid_request', 'Name at least one of lead_time_days, order_multiple, moq, safety_stock and preferred_vendor.', 422);
      const bad = checkReferences(ctx.read, { vendor: body.preferred_vendor });
      if (bad) return bad;
      return emit(ItemPlanningUpdated, {
        item: item.id,
        preferred_vendor: body.preferred_vendor === undefined ? item.preferred_vendor : body.preferred_vendor,
        lead_time_days: body.lead_time_days ?? item.lead_time_days,
        order_multiple: body.order_multiple ?? item.order_multiple,
        moq: body.moq ?? item.moq,
        safety_stock: body.safety_stock ?? item.safety_stock,
        source: body.source ?? '',
        note: body.note ?? '',
      }, 'item', item.id);
    },
    view: itemView,
  }),
  defineAction({
    action: 'warehouse.create', method: 'POST', path: '/warehouses', tag: 'master', status: 201,
    summary: 'Create a warehouse in a region',
    body: Body({ id: IdInput, name: Type.String({ minLength: 1, maxLength: 200 }), region: Type.String({ minLength: 1, maxLength: 80 }) }),
    permission: MASTER_DATA_MANAGE, objectType: 'warehouse', emits: [WarehouseCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.items.warehouse(body.id)) return refuse('already_exists', `Warehouse ${body.id} already exists.`);
      return emit(WarehouseCreated, body, 'warehouse', body.id);
    },
    view: warehouseView,
  }),
  defineAction({
    action: 'location.create', method: 'POST', path: '/warehouses/{id}/locations', tag: 'master', status: 201,
    summary: 'Add a storage location to a warehouse',
    body: Body({ code: IdInput, description: Opt(Type.String({ maxLength: 200 })) }),
    permission: MASTER_DATA_MANAGE, objectType: 'warehouse', emits: [LocationCreated],
    decide: ({ params, body }, ctx) => {
      if (!ctx.read.items.warehouse(params.id!)) return refuse('not_found', `No warehouse ${params.id}.`);
      if (ctx.read.items.location(params.id!, body.code)) return refuse('already_exists', `Location ${body.code} already exists in ${params.id}.`);
      return emit(LocationCreated, { warehouse: params.id!, code: body.code, description: body.description ?? '' }, 'warehouse', params.id!);
    },
    view: warehouseView,
  }),
  defineQuery({
    path: '/items', tag: 'master', summary: 'List items by type, category or preferred vendor', permission: null,
    query: ListQuery({ type: Opt(ItemTypeInput), category: Opt(Type.String({ maxLength: 80 })), preferred_vendor: Opt(VendorIdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'items', { type: query.type, category: query.category, preferred_vendor: query.preferred_vendor }, query, {
      map: (r) => withDecimals(r as unknown as ItemRow, ['standard_cost']),
    }),
  }),
  defineQuery({
    path: '/items/{id}', tag: 'master', summary: 'An item with its planning data and approved substitutes', permission: null, objectType: 'item',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => itemView(ctx.read, params.id!),
  }),
  defineQuery({
    path: '/warehouses', tag: 'master', summary: 'List warehouses', permission: null,
    query: ListQuery({ region: Opt(Type.String({ maxLength: 80 })) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'warehouses', { region: query.region }, query),
  }),
  defineQuery({
    path: '/warehouses/{id}', tag: 'master', summary: 'A warehouse with its locations', permission: null, objectType: 'warehouse',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => warehouseView(ctx.read, params.id!),
  }),
];
