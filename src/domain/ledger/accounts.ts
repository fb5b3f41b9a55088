import { Type } from '@sinclair/typebox';
import { AccountActivated, AccountCreated, AccountDeactivated, JournalApprovalPolicySet } from '../../events/contracts/ledger';
import type { Queries } from '../../projections';
import type { GlLineRow } from '../../projections/ledger';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse } from '../decision';
import { fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';

export const LEDGER_MANAGE = 'ledger.manage';
export const LEDGER_READ = 'ledger.read';
const FAR_FUTURE = '9999-12-31';

const AccountCodeInput = Type.String({ pattern: '^[0-9]{4,6}$', description: 'Account code, 4 to 6 digits' });
const AccountTypeInput = Type.Union(['asset', 'liability', 'equity', 'revenue', 'expense'].map((t) => Type.Literal(t)));
const SideInput = Type.Union([Type.Literal('debit'), Type.Literal('credit')]);
const SubledgerInput = Type.Union([...['cash', 'ar', 'inventory', 'ap', 'grni', 'wip'].map((t) => Type.Literal(t)), Type.Null()]);

/** Assets and expenses are debit-normal; contra accounts (accumulated depreciation, discounts taken) say otherwise. */
const NORMAL_SIDE: Record<string, 'debit' | 'credit'> = { asset: 'debit', expense: 'debit', liability: 'credit', equity: 'credit', revenue: 'credit' };

export function accountView(read: Queries, code: string, asOf: string) {
  const account = read.ledger.account(code);
  if (!account) return undefined;
  return {
    ...account,
    balance: fromCents(read.ledger.balance(code, asOf)),
    balance_as_of: asOf,
    links: read.cash.bankAccounts().filter((b) => b.gl_account === code).map((b) => ({ rel: 'bank_account', type: 'bank_account', id: b.id })),
  };
}

export function glLineView(row: GlLineRow) {
  return withDecimals(row, ['debit', 'credit']);
}

export const accountRoutes: RouteDef[] = [
  defineAction({
    action: 'account.create', method: 'POST', path: '/accounts', tag: 'ledger', status: 201,
    summary: 'Add an account to the chart of accounts',
    body: Body({
      code: AccountCodeInput,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      type: AccountTypeInput,
      normal_side: Opt(SideInput),
      control: Opt(Type.Boolean()),
      subledger: Opt(SubledgerInput),
    }),
    permission: LEDGER_MANAGE, objectType: 'account', emits: [AccountCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.ledger.account(body.code)) return refuse('already_exists', `Account ${body.code} already exists.`);
      const subledger = (body.subledger ?? null) as 'cash' | null;
      const control = body.control ?? subledger !== null;
      if (control !== (subledger !== null)) return refuse('invalid_request', 'A control account names its subledger, and only a control account has one.', 422);
      const type = body.type as 'asset';
      return emit(AccountCreated, { code: body.code, name: body.name, type, normal_side: body.normal_side ?? NORMAL_SIDE[type]!, control, subledger }, 'account', body.code);
    },
    view: (read, code) => accountView(read, code, read.clock.today()),
  }),
  defineAction({
    action: 'account.deactivate', method: 'POST', path: '/accounts/{code}/deactivate', tag: 'ledger',
    summary: 'Deactivate an account with a zero balance: it takes no further postings',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: LEDGER_MANAGE, objectType: 'account', emits: [AccountDeactivated],
    decide: ({ params, body }, ctx) => {
      const account = ctx.read.ledger.account(params.code!);
      if (!account) return refuse('not_found', `No account ${params.code}.`);
      if (account.status === 'inactive') return refuse('invalid_state', `Account ${account.code} is already inactive.`);
      if (ctx.read.ledger.balance(account.code, FAR_FUTURE) !== 0) return refuse('invalid_state', `Account ${account.code} has a balance; move it before deactivating the account.`);
      return emit(AccountDeactivated, { code: account.code, reason: body.reason, note: body.note ?? '' }, 'account', account.code);
    },
    view: (read, code) => accountView(read, code, read.clock.today()),
  }),
  defineAction({
    action: 'account.activate', method: 'POST', path: '/accounts/{code}/activate', tag: 'ledger',
    summary: 'Reactivate an inactive account',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: LEDGER_MANAGE, objectType: 'account', emits: [AccountActivated],
    decide: ({ params, body }, ctx) => {
      const account = ctx.read.ledger.account(params.code!);
      if (!account) return refuse('not_found', `No account ${params.code}.`);
      if (account.status === 'active') return refuse('invalid_state', `Account ${account.code} is already active.`);
      return emit(AccountActivated, { code: account.code, reason: body.reason, note: body.note ?? '' }, 'account', account.code);
    },
    view: (read, code) => accountView(read, code, read.clock.today()),
  }),
  defineAction({
    action: 'journal_policy.set', method: 'POST', path: '/ledger/journal-policy', tag: 'ledger',
    summary: "Set the amount up to which a journal entry's preparer may also approve it",
    body: Body({ preparer_may_approve_up_to: MoneyInput }),
    permission: LEDGER_MANAGE, objectType: 'ledger_setting', emits: [JournalApprovalPolicySet],
    decide: ({ body }) => {
      const cents = toCents(body.preparer_may_approve_up_to);
      if (cents < 0) return refuse('invalid_request', 'The threshold cannot be negative.', 422);
      return emit(JournalApprovalPolicySet, { preparer_may_approve_up_to: cents }, 'ledger_setting', 'journal_policy');
    },
    view: (read) => ({ preparer_may_approve_up_to: fromCents(read.ledger.preparerMayApproveUpTo()) }),
  }),
  defineQuery({
    path: '/ledger/journal-policy', tag: 'ledger', summary: "The amount up to which a journal entry's preparer may also approve it", permission: null,
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => ({ preparer_may_approve_up_to: fromCents(ctx.read.ledger.preparerMayApproveUpTo()) }),
  }),
  defineQuery({
    path: '/accounts', tag: 'ledger', summary: 'The chart of accounts', permission: null,
    query: ListQuery({ type: Opt(AccountTypeInput), control: Opt(Type.Boolean()), status: Opt(Type.Union([Type.Literal('active'), Type.Literal('inactive')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'accounts', { type: query.type, control: query.control, status: query.status }, query),
  }),
  defineQuery({
    path: '/accounts/{code}', tag: 'ledger', summary: 'An account with its balance (as_of, default today)', permission: null, objectType: 'account',
    query: Type.Object({ as_of: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ params, query }, ctx) => accountView(ctx.read, params.code!, query.as_of ?? ctx.today),
  }),
  defineQuery({
    path: '/gl-lines', tag: 'ledger', summary: 'General-ledger postings, filtered by account, period, document, party or department', permission: LEDGER_READ,
    query: ListQuery({
      account: Opt(AccountCodeInput),
      period: Opt(Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' })),
      document_id: Opt(IdInput),
      party_id: Opt(IdInput),
      department: Opt(IdInput),
      source_type: Opt(IdInput),
    }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'gl_lines', {
      account: query.account, period: query.period, document_id: query.document_id, party_id: query.party_id, department: query.department, source_type: query.source_type,
    }, query, { map: (r) => glLineView(r as unknown as GlLineRow) }),
  }),
];
