import { Type } from '@sinclair/typebox';
import {
  CustomerCreditHoldPlaced, CustomerCreditHoldReleased, CustomerCreditLimitChanged, DUNNING_LEVELS, DunningActionRecorded, PromiseToPayRecorded,
} from '../../events/contracts/receivables';
import { defineAction, type RouteDef } from '../action';
import { daysBetween } from '../calendar';
import { emit, refuse } from '../decision';
import { toCents } from '../money';
import { agingBucket, AGING_BUCKETS } from '../reports/ap-aging';
import { CREDIT_HOLD_RELEASE } from '../sales/permissions';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { CREDIT_MANAGE, PROMISE_RECORD } from './permissions';
import { tag } from './shared';
import { accountView, collectionDocView } from './views';

const LevelInput = Type.Union(DUNNING_LEVELS.map((l) => Type.Literal(l)), { description: `One of ${DUNNING_LEVELS.join(', ')}` });
const ChannelInput = Type.Union([Type.Literal('email'), Type.Literal('call'), Type.Literal('letter')]);

/**
 * Collections (seed 000 C4): dunning actions by aging bucket, the customers' promises to pay, and
 * credit holds on a customer's account, which put every new order of it on credit hold. Only the
 * credit manager releases a credit hold (credit_hold.release, a hard control).
 */
export const collectionRoutes: RouteDef[] = [
  defineAction({
    action: 'dunning.record', method: 'POST', path: '/dunning-actions', tag, status: 201, objectType: 'dunning_action',
    summary: 'Record a dunning action (reminder, second notice, final notice, collections) on a customer\'s past-due invoices (default all of them)',
    body: Body({ customer: IdInput, level: LevelInput, channel: Opt(ChannelInput), invoices: Opt(Type.Array(IdInput, { minItems: 1, maxItems: 500 })), message: Opt(IdInput), note: Opt(NoteInput) }),
    permission: CREDIT_MANAGE, emits: [DunningActionRecorded],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      if (body.message && !ctx.read.messages.message(body.message)) return refuse('not_found', `No message ${body.message}.`);
      const open = ctx.read.receivables.openInvoices(body.customer);
      const chosen = body.invoices ? body.invoices.map((id) => open.find((i) => i.id === id) ?? id) : open.filter((i) => i.due_date < ctx.today);
      const missing = chosen.find((i) => typeof i === 'string');
      if (missing) return refuse('not_found', `${body.customer} has no open invoice ${missing}.`);
      const invoices = (chosen as typeof open).map((i) => {
        const days = daysBetween(i.due_date, ctx.today);
        return { invoice: i.id, open_amount: i.open_amount, due_date: i.due_date, days_past_due: Math.max(0, days), bucket: agingBucket(days) };
      });
      const notDue = invoices.find((i) => i.days_past_due === 0);
      if (notDue) return refuse('invalid_request', `${notDue.invoice} is not past due.`, 422);
      if (invoices.length === 0) return refuse('invalid_state', `${body.customer} has nothing past due.`);
      const oldest = AGING_BUCKETS.filter((b) => invoices.some((i) => i.bucket === b)).pop()!;
      const id = ctx.nextId('DUN');
      return emit(DunningActionRecorded, {
        id, customer: body.customer, level: body.level, channel: body.channel ?? 'email', bucket: oldest, invoices,
        total_overdue: invoices.reduce((s, i) => s + i.open_amount, 0), message: body.message ?? null, note: body.note ?? '',
      }, 'dunning_action', id);
    },
    view: (read, id) => collectionDocView(read, 'dunning', id),
  }),
  defineAction({
    action: 'promise.record', method: 'POST', path: '/promises-to-pay', tag, status: 201, objectType: 'promise_to_pay',
    summary: 'Record a customer\'s promise to pay an amount by a date (in answer to a dunning action, or not)',
    body: Body({ customer: IdInput, promise_date: DateInput, amount: MoneyInput, invoices: Opt(Type.Array(IdInput, { maxItems: 500 })), dunning: Opt(IdInput), note: Opt(NoteInput) }),
    permission: PROMISE_RECORD, emits: [PromiseToPayRecorded],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      if (body.promise_date < ctx.today) return refuse('invalid_request', `A promise is to pay from today (${ctx.today}) on.`, 422);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A promise is for a positive amount.', 422);
      if (body.dunning) {
        const d = ctx.read.collections.dunningAction(body.dunning);
        if (!d || d.customer !== body.customer) return refuse('not_found', `${body.customer} has no dunning action ${body.dunning}.`);
      }
      for (const inv of body.invoices ?? []) if (ctx.read.receivables.invoice(inv)?.customer !== body.customer) return refuse('not_found', `${body.customer} has no invoice ${inv}.`);
      const id = ctx.nextId('PTP');
      return emit(PromiseToPayRecorded, {
        id, customer: body.customer, promise_date: body.promise_date, amount, invoices: body.invoices ?? [], dunning: body.dunning ?? null, note: body.note ?? '',
      }, 'promise_to_pay', id);
    },
    view: (read, id) => collectionDocView(read, 'promise', id),
  }),
  defineAction({
    action: 'credit_hold.place', method: 'POST', path: '/customers/{id}/credit-hold', tag, status: 201, objectType: 'customer',
    summary: 'Put a customer\'s account on credit hold with a reason: its new orders are entered on credit hold',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: CREDIT_MANAGE, emits: [CustomerCreditHoldPlaced],
    decide: ({ params, body }, ctx) => {
      if (!ctx.read.customers.customer(params.id!)) return refuse('not_found', `No customer ${params.id}.`);
      const open = ctx.read.collections.openCreditHold(params.id!);
      if (open) return refuse('already_exists', `${params.id} is already on credit hold (${open.id}).`);
      return emit(CustomerCreditHoldPlaced, { id: ctx.nextId('CH'), customer: params.id!, reason: body.reason, note: body.note ?? '' }, 'customer', params.id!);
    },
    view: (read, id) => accountView(read, id),
  }),
  defineAction({
    action: 'credit_hold.release', method: 'POST', path: '/credit-holds/{id}/release', tag, objectType: 'credit_hold',
    summary: 'Release a customer\'s credit hold with a note (the credit manager only)',
    body: Body({ note: Type.String({ minLength: 1, maxLength: 4000 }) }),
    permission: CREDIT_HOLD_RELEASE, emits: [CustomerCreditHoldReleased],
    decide: ({ params, body }, ctx) => {
      const hold = ctx.read.collections.creditHold(params.id!);
      if (!hold) return refuse('not_found', `No credit hold ${params.id}.`);
      if (hold.status !== 'open') return refuse('invalid_state', `${hold.id} was already released on ${hold.released_date}.`);
      return emit(CustomerCreditHoldReleased, { id: hold.id, customer: hold.customer, note: body.note }, 'credit_hold', hold.id);
    },
    view: (read, id) => {
      const hold = read.collections.creditHold(id);
      return hold && { ...hold, links: [{ rel: 'customer', type: 'customer', id: hold.customer }] };
    },
  }),
  defineAction({
    action: 'credit_limit.change', method: 'POST', path: '/customers/{id}/credit-limit', tag, objectType: 'customer',
    summary: 'Change a customer\'s credit limit, with a reason',
    body: Body({ credit_limit: MoneyInput, reason: ReasonInput, note: Opt(NoteInput) }),
    permission: CREDIT_MANAGE, emits: [CustomerCreditLimitChanged],
    decide: ({ params, body }, ctx) => {
      const c = ctx.read.customers.customer(params.id!);
      if (!c) return refuse('not_found', `No customer ${params.id}.`);
      const limit = toCents(body.credit_limit);
      if (limit < 0) return refuse('invalid_request', 'A credit limit cannot be negative.', 422);
      if (limit === c.credit_limit) return refuse('invalid_state', `${c.id}'s limit is already ${body.credit_limit}.`);
      return emit(CustomerCreditLimitChanged, { customer: c.id, credit_limit: limit, previous: c.credit_limit, reason: body.reason, note: body.note ?? '' }, 'customer', c.id);
    },
    view: (read, id) => accountView(read, id),
  }),
];
