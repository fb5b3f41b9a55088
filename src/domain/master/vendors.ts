import { Type } from '@sinclair/typebox';
import {
  VendorActivated, VendorContactUpdated, VendorCreated, VendorDeactivated, VendorQualityHoldCleared, VendorQualityHoldSet,
} from '../../events/contracts/master';
import type { Queries } from '../../projections';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { Body, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { AccountInput, AddressInput, EmailInput, NameInput, PhoneInput, VendorIdInput } from './inputs';
import { MASTER_DATA_MANAGE, VENDOR_MANAGE } from './permissions';

const KindInput = Type.Union([Type.Literal('goods'), Type.Literal('services'), Type.Literal('both')]);
const StatusInput = Type.Union([Type.Literal('active'), Type.Literal('inactive')]);

/** A vendor as the API shows it: its bank accounts (numbers masked by the pipeline) and its remit-to account. */
export function vendorView(read: Queries, id: string) {
  const vendor = read.vendors.vendor(id);
  if (!vendor) return undefined;
  const accounts = read.vendors.bankAccountsOf(id);
  const remit = accounts.find((a) => a.status === 'verified');
  return {
    ...vendor,
    remit_to_bank_account: remit?.id ?? null,
    bank_accounts: accounts.map((a) => ({ id: a.id, bank_name: a.bank_name, routing_number: a.routing_number, account_number: a.account_number, status: a.status, requested_date: a.requested_date, decided_date: a.decided_date })),
    links: accounts.map((a) => ({ rel: 'bank_account', type: 'vendor_bank_account', id: a.id })),
  };
}

const statusBody = Body({ reason: ReasonInput, note: Opt(NoteInput) });

export const vendorRoutes: RouteDef[] = [
  defineAction({
    action: 'vendor.create', method: 'POST', path: '/vendors', tag: 'master', status: 201,
    summary: 'Create a vendor under the id given (e.g. V-0142); bank accounts are requested separately',
    body: Body({
      id: VendorIdInput,
      name: NameInput,
      terms: IdInput,
      tin: Opt(Type.String({ maxLength: 40 })),
      email: Opt(EmailInput),
      phone: Opt(PhoneInput),
      address: Opt(AddressInput),
      remit_to: Opt(AddressInput),
      kind: Opt(KindInput),
      default_expense_account: Opt(AccountInput),
      status: Opt(StatusInput),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'vendor', emits: [VendorCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.vendors.vendor(body.id)) return refuse('already_exists', `Vendor ${body.id} already exists.`);
      if (!ctx.read.finance.terms(body.terms)) return refuse('not_found', `No payment terms ${body.terms}.`);
      if (body.default_expense_account && !ctx.read.ledger.account(body.default_expense_account)) return refuse('not_found', `No account ${body.default_expense_account}.`);
      return emit(VendorCreated, {
        id: body.id, name: body.name, terms: body.terms, tin: body.tin ?? '', email: (body.email ?? '').toLowerCase(), phone: body.phone ?? '',
        address: body.address ?? '', remit_to: body.remit_to ?? body.address ?? '', kind: (body.kind ?? 'goods') as 'goods',
        default_expense_account: body.default_expense_account ?? null, status: (body.status ?? 'active') as 'active',
      }, 'vendor', body.id);
    },
    view: vendorView,
  }),
  defineAction({
    action: 'vendor.update_contact', method: 'POST', path: '/vendors/{id}/contact', tag: 'master',
    summary: "Update a vendor's contact details: email, phone (the number on file), address, remit-to address",
    body: Body({
      email: Opt(EmailInput),
      phone: Opt(PhoneInput),
      address: Opt(AddressInput),
      remit_to: Opt(AddressInput),
      source: Opt(Type.String({ maxLength: 200, description: 'What prompted the change, e.g. a message id' })),
      note: Opt(NoteInput),
    }),
    permission: MASTER_DATA_MANAGE, objectType: 'vendor', emits: [VendorContactUpdated],
    decide: ({ params, body }, ctx) => {
      const v = ctx.read.vendors.vendor(params.id!);
      if (!v) return refuse('not_found', `No vendor ${params.id}.`);
      if ([body.email, body.phone, body.address, body.remit_to].every((x) => x === undefined)) {
        return refuse('invalid_request', 'Name at least one of email, phone, address and remit_to.', 422);
      }
      const previous = { email: v.email, phone: v.phone, address: v.address, remit_to: v.remit_to };
      return emit(VendorContactUpdated, {
        vendor: v.id, email: body.email === undefined ? v.email : body.email.toLowerCase(), phone: body.phone ?? v.phone, address: body.address ?? v.address,
        remit_to: body.remit_to ?? v.remit_to, previous, source: body.source ?? '', note: body.note ?? '',
      }, 'vendor', v.id);
    },
    view: vendorView,
  }),
  defineAction({
    action: 'vendor.deactivate', method: 'POST', path: '/vendors/{id}/deactivate', tag: 'master',
    summary: 'Make a vendor inactive: no new purchase orders or payments (a hard control)',
    body: statusBody, permission: VENDOR_MANAGE, objectType: 'vendor', emits: [VendorDeactivated],
    decide: ({ params, body }, ctx) => {
      const v = ctx.read.vendors.vendor(params.id!);
      if (!v) return refuse('not_found', `No vendor ${params.id}.`);
      if (v.status === 'inactive') return refuse('invalid_state', `Vendor ${v.id} is already inactive.`);
      return emit(VendorDeactivated, { vendor: v.id, reason: body.reason, note: body.note ?? '' }, 'vendor', v.id);
    },
    view: vendorView,
  }),
  defineAction({
    action: 'vendor.activate', method: 'POST', path: '/vendors/{id}/activate', tag: 'master',
    summary: 'Make an inactive vendor active again',
    body: statusBody, permission: VENDOR_MANAGE, objectType: 'vendor', emits: [VendorActivated],
    decide: ({ params, body }, ctx) => {
      const v = ctx.read.vendors.vendor(params.id!);
      if (!v) return refuse('not_found', `No vendor ${params.id}.`);
      if (v.status === 'active') return refuse('invalid_state', `Vendor ${v.id} is already active.`);
      return emit(VendorActivated, { vendor: v.id, reason: body.reason, note: body.note ?? '' }, 'vendor', v.id);
    },
    view: vendorView,
  }),
  defineAction({
    action: 'vendor.set_quality_hold', method: 'POST', path: '/vendors/{id}/quality-hold', tag: 'master',
    summary: "Set a vendor's quality-hold flag, with a reason",
    body: statusBody, permission: VENDOR_MANAGE, objectType: 'vendor', emits: [VendorQualityHoldSet],
    decide: ({ params, body }, ctx) => {
      const v = ctx.read.vendors.vendor(params.id!);
      if (!v) return refuse('not_found', `No vendor ${params.id}.`);
      if (v.quality_hold) return refuse('invalid_state', `Vendor ${v.id} is already on quality hold (${v.quality_hold_reason}).`);
      return emit(VendorQualityHoldSet, { vendor: v.id, reason: body.reason, note: body.note ?? '' }, 'vendor', v.id);
    },
    view: vendorView,
  }),
  defineAction({
    action: 'vendor.clear_quality_hold', method: 'POST', path: '/vendors/{id}/quality-hold/clear', tag: 'master',
    summary: "Clear a vendor's quality-hold flag, with a reason",
    body: statusBody, permission: VENDOR_MANAGE, objectType: 'vendor', emits: [VendorQualityHoldCleared],
    decide: ({ params, body }, ctx) => {
      const v = ctx.read.vendors.vendor(params.id!);
      if (!v) return refuse('not_found', `No vendor ${params.id}.`);
      if (!v.quality_hold) return refuse('invalid_state', `Vendor ${v.id} is not on quality hold.`);
      return emit(VendorQualityHoldCleared, { vendor: v.id, reason: body.reason, note: body.note ?? '' }, 'vendor', v.id);
    },
    view: vendorView,
  }),
  defineQuery({
    path: '/vendors', tag: 'master', summary: 'List vendors by status, quality hold, kind or TIN', permission: null,
    query: ListQuery({ status: Opt(StatusInput), quality_hold: Opt(Type.Boolean()), kind: Opt(KindInput), tin: Opt(Type.String({ maxLength: 40 })) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'vendors', { status: query.status, quality_hold: query.quality_hold, kind: query.kind, tin: query.tin }, query),
  }),
  defineQuery({
    path: '/vendors/{id}', tag: 'master', summary: 'A vendor with its status history, quality hold and bank accounts', permission: null, objectType: 'vendor',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => vendorView(ctx.read, params.id!),
  }),
];
