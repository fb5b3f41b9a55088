import { Type } from '@sinclair/typebox';
import { JournalEntryDrafted } from '../../events/contracts/ledger';
import { RecurringEntryCreated, RecurringEntryEnded } from '../../events/contracts/ledger-close';
import type { Queries } from '../../projections';
import type { RecurringEntryRow } from '../../projections/ledger-recurring';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { addMonths, endOfMonth } from '../calendar';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse } from '../decision';
import { MonthInput } from '../master/inputs';
import { fromCents } from '../money';
import { Body, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { JE_CREATE, Lines, Memo } from './journal-entries';
import { AttachmentInput, checkSupport, journalEntryView, parseLines, toAttachment } from './journal-entry-lines';
import { assertAccountsPostable } from './journal';

const tag = 'ledger';
const objectType = 'recurring_entry';

/** The date a recurring entry's month is dated: its day of the month, or the month's last day (day 0). */
export function recurringDate(template: Pick<RecurringEntryRow, 'day'>, period: string): string {
  return template.day === 0 ? endOfMonth(`${period}-01`) : `${period}-${String(template.day).padStart(2, '0')}`;
}

function recurringView(read: Queries, id: string) {
  const t = read.recurringEntries.template(id);
  if (!t) return undefined;
  const drafted = read.journalEntries.ofRecurring(id);
  return {
    ...t,
    lines: t.lines.map((l) => withDecimals(l, ['debit', 'credit'])),
    total: fromCents(t.lines.reduce((s, l) => s + l.debit, 0)),
    entries: drafted.map((e) => ({ id: e.id, period: e.period, status: e.status })),
    links: drafted.map((e) => ({ rel: 'journal_entry', type: 'journal_entry', id: e.id })),
  };
}

export const recurringEntryRoutes: RouteDef[] = [
  defineAction({
    action: 'recurring_entry.create', method: 'POST', path: '/recurring-entries', tag, status: 201, objectType,
    summary: 'Set up a recurring journal entry: the same balanced lines drafted each month from start_period (to end_period)',
    description: 'day is the day of the month each entry is dated (1 to 28), or 0 for the last day; reversing entries reverse on the 1st of the next month.',
    body: Body({
      memo: Memo, lines: Lines, attachments: Opt(Type.Array(AttachmentInput, { maxItems: 50 })),
      day: Opt(Type.Integer({ minimum: 0, maximum: 28 })), start_period: MonthInput, end_period: Opt(MonthInput), reversing: Opt(Type.Boolean()),
    }),
    permission: JE_CREATE, emits: [RecurringEntryCreated],
    decide: ({ body }, ctx) => {
      const lines = parseLines(ctx.read, body.lines);
      if (isRefusal(lines)) return lines;
      if (body.end_period && body.end_period < body.start_period) return refuse('invalid_request', `end_period ${body.end_period} is before start_period ${body.start_period}.`, 422);
      const unsupported = checkSupport(ctx.read, ctx.actor, body.attachments ?? []);
      if (unsupported) return unsupported;
      const id = ctx.nextId('RJE');
      return emit(RecurringEntryCreated, {
        id, memo: body.memo, lines, attachments: (body.attachments ?? []).map(toAttachment), day: body.day ?? 0,
        start_period: body.start_period, end_period: body.end_period ?? null, reversing: body.reversing ?? false,
      }, objectType, id);
    },
    view: recurringView,
  }),
  defineAction({
    action: 'recurring_entry.generate', method: 'POST', path: '/recurring-entries/{id}/generate', tag, status: 201, objectType: 'journal_entry',
    summary: "Draft this month's entry of a recurring entry (one per month); it then goes through submit, approve and post",
    body: Body({ period: MonthInput }),
    permission: JE_CREATE, emits: [JournalEntryDrafted],
    decide: ({ params, body }, ctx) => {
      const t = ctx.read.recurringEntries.template(params.id!);
      if (!t) return refuse('not_found', `No recurring entry ${params.id}.`);
      if (t.status !== 'active') return refuse('invalid_state', `Recurring entry ${t.id} has ended.`);
      if (body.period < t.start_period || (t.end_period && body.period > t.end_period)) {
        return refuse('invalid_request', `Recurring entry ${t.id} runs from ${t.start_period}${t.end_period ? ` to ${t.end_period}` : ''}, not in ${body.period}.`, 422);
      }
      const earlier = ctx.read.journalEntries.fromRecurring(t.id, body.period).find((e) => e.status !== 'cancelled');
      if (earlier) return refuse('already_exists', `${earlier.id} is already ${t.id}'s entry for ${body.period} (${earlier.status}).`);
      const bad = assertAccountsPostable(ctx.read, t.lines.map((l) => l.account));
      if (bad) return bad;
      const id = ctx.nextId('JE');
      const date = recurringDate(t, body.period);
      return emit(JournalEntryDrafted, {
        id, date, memo: `${t.memo}, ${body.period}`, lines: t.lines, attachments: t.attachments,
        reverse_on: t.reversing ? addMonths(`${body.period}-01`, 1) : null, recurring: { template: t.id, period: body.period },
      }, 'journal_entry', id);
    },
    view: journalEntryView,
  }),
  defineAction({
    action: 'recurring_entry.end', method: 'POST', path: '/recurring-entries/{id}/end', tag, objectType,
    summary: 'End a recurring entry, with a reason: it drafts no more entries',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: JE_CREATE, emits: [RecurringEntryEnded],
    decide: ({ params, body }, ctx) => {
      const t = ctx.read.recurringEntries.template(params.id!);
      if (!t) return refuse('not_found', `No recurring entry ${params.id}.`);
      if (t.status !== 'active') return refuse('invalid_state', `Recurring entry ${t.id} has already ended.`);
      return emit(RecurringEntryEnded, { id: t.id, reason: body.reason, note: body.note ?? '' }, objectType, t.id);
    },
    view: recurringView,
  }),
  defineQuery({
    path: '/recurring-entries', tag, summary: 'Recurring journal entries, by status', permission: null,
    query: ListQuery({ status: Opt(Type.Union([Type.Literal('active'), Type.Literal('ended')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'recurring_entries', { status: query.status }, query, {
      map: (r) => ({ ...r, lines: (r.lines as RecurringEntryRow['lines']).map((l) => withDecimals(l, ['debit', 'credit'])) }),
    }),
  }),
  defineQuery({
    path: '/recurring-entries/{id}', tag, summary: 'A recurring entry with its lines and the entries it has drafted', permission: null, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => recurringView(ctx.read, params.id!),
  }),
];
