import { Type } from '@sinclair/typebox';
import {
  JournalEntryApproved, JournalEntryAttachmentAdded, JournalEntryCancelled, JournalEntryDrafted, JournalEntryPosted,
  JournalEntryReturned, JournalEntryReversed, JournalEntryRevised, JournalEntrySubmitted,
} from '../../events/contracts/ledger';
import type { JournalEntryRow, JournalEntryStatus } from '../../projections/ledger-journal-entries';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { formatCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { AttachmentInput, checkSupport, journalEntryView, journalOfLines, JournalLineInput, parseLines, reversalDate, toAttachment } from './journal-entry-lines';
import { assertPeriodOpen } from './journal';

export const JE_CREATE = 'journal_entry.create';
export const JE_APPROVE = 'journal_entry.approve';
export const JE_POST = 'journal_entry.post';

export const Lines = Type.Array(JournalLineInput, { minItems: 2, maxItems: 500 });
export const Memo = Type.String({ minLength: 1, maxLength: 400 });
const AutoReverseOn = Type.Union([DateInput, Type.Null()], { description: 'A reversing entry: the day its reversal posts, in a later month (usually the 1st of the next); null for none' });

/** The entry, or a refusal when it is missing or not in one of the states the action starts from. */
function entryIn(ctx: DecideContext, id: string, states: readonly JournalEntryStatus[], action: string): JournalEntryRow | Refusal {
  const entry = ctx.read.journalEntries.entry(id);
  if (!entry) return refuse('not_found', `No journal entry ${id}.`);
  if (states.includes(entry.status)) return entry;
  if (entry.status === 'posted' || entry.status === 'reversed') {
    return refuse('posted_document_immutable', `Journal entry ${id} is ${entry.status}; it cannot be ${action}. Correct it with a reversal.`);
  }
  return refuse('invalid_state', `Journal entry ${id} is ${entry.status}; only an entry that is ${states.join(' or ')} can be ${action}.`);
}

const view = journalEntryView;
const tag = 'ledger';
const objectType = 'journal_entry';

export const journalEntryRoutes: RouteDef[] = [
  defineAction({
    action: 'journal_entry.create', method: 'POST', path: '/journal-entries', tag, status: 201, objectType,
    summary: 'Draft a manual journal entry (balanced lines, optional supporting attachments, optionally reversing in a later month)',
    body: Body({
      date: Opt(DateInput), memo: Memo, lines: Lines, attachments: Opt(Type.Array(AttachmentInput, { maxItems: 50 })), auto_reverse_on: Opt(AutoReverseOn),
      entry_date: Opt(Type.String({ format: 'date', description: "Same as date: the seed's ERP names it so" })),
    }),
    permission: JE_CREATE, emits: [JournalEntryDrafted],
    decide: ({ body }, ctx) => {
      if (body.date && body.entry_date && body.date !== body.entry_date) return refuse('invalid_request', `date ${body.date} and entry_date ${body.entry_date} disagree; give one.`, 422);
      const lines = parseLines(ctx.read, body.lines);
      if (isRefusal(lines)) return lines;
      const attachments = body.attachments ?? [];
      const unsupported = checkSupport(ctx.read, ctx.actor, attachments);
      if (unsupported) return unsupported;
      const date = body.date ?? body.entry_date ?? ctx.today;
      const reverseOn = body.auto_reverse_on ? reversalDate(date, body.auto_reverse_on) : null;
      if (isRefusal(reverseOn)) return reverseOn;
      const id = ctx.nextId('JE');
      return emit(JournalEntryDrafted, { id, date, memo: body.memo, lines, attachments: attachments.map(toAttachment), reverse_on: reverseOn }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.revise', method: 'POST', path: '/journal-entries/{id}/revise', tag, objectType,
    summary: 'Replace the date, memo and lines (and whether and when it reverses) of a draft or returned entry',
    body: Body({ date: Opt(DateInput), memo: Opt(Memo), lines: Lines, auto_reverse_on: Opt(AutoReverseOn) }),
    permission: JE_CREATE, emits: [JournalEntryRevised],
    decide: ({ params, body }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['draft', 'returned'], 'revised');
      if (isRefusal(entry)) return entry;
      const lines = parseLines(ctx.read, body.lines);
      if (isRefusal(lines)) return lines;
      const date = body.date ?? entry.date;
      const requested = body.auto_reverse_on === undefined ? entry.reverse_on : body.auto_reverse_on;
      const reverseOn = requested ? reversalDate(date, requested) : null;
      if (isRefusal(reverseOn)) return reverseOn;
      return emit(JournalEntryRevised, { id: entry.id, date, memo: body.memo ?? entry.memo, lines, reverse_on: reverseOn }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.attach', method: 'POST', path: '/journal-entries/{id}/attachments', tag, objectType,
    summary: 'Attach supporting evidence by reference (a message, a report, a receipt)',
    body: AttachmentInput,
    permission: JE_CREATE, emits: [JournalEntryAttachmentAdded],
    decide: ({ params, body }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['draft', 'returned', 'submitted', 'approved'], 'given attachments');
      if (isRefusal(entry)) return entry;
      const unsupported = checkSupport(ctx.read, ctx.actor, [body]);
      if (unsupported) return unsupported;
      return emit(JournalEntryAttachmentAdded, { id: entry.id, attachment: toAttachment(body) }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.submit', method: 'POST', path: '/journal-entries/{id}/submit', tag, objectType,
    summary: 'Submit a draft or returned entry for approval',
    body: Body({ note: Opt(NoteInput) }),
    permission: JE_CREATE, emits: [JournalEntrySubmitted],
    decide: ({ params, body }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['draft', 'returned'], 'submitted');
      if (isRefusal(entry)) return entry;
      return emit(JournalEntrySubmitted, { id: entry.id, note: body.note ?? '' }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.approve', method: 'POST', path: '/journal-entries/{id}/approve', tag, objectType,
    summary: 'Approve a submitted entry, within your journal_entry approval limit; a preparer may approve only up to the handbook threshold',
    body: Body({ note: Opt(NoteInput) }),
    permission: JE_APPROVE, emits: [JournalEntryApproved],
    decide: ({ params, body }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['submitted'], 'approved');
      if (isRefusal(entry)) return entry;
      const threshold = ctx.read.ledger.preparerMayApproveUpTo();
      if (entry.created_by === ctx.actor.id && entry.total > threshold) {
        return refuse('preparer_cannot_approve', `You prepared ${entry.id}; above ${formatCents(threshold)} its preparer cannot approve it.`);
      }
      const limit = ctx.read.org.approvalLimit(ctx.actor.id, 'journal_entry', null);
      if (limit === null || entry.total > limit) {
        return refuse('over_limit', `${entry.id} totals ${formatCents(entry.total)}; your journal entry approval limit is ${limit === null ? 'none' : formatCents(limit)}.`);
      }
      return emit(JournalEntryApproved, { id: entry.id, note: body.note ?? '' }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.return', method: 'POST', path: '/journal-entries/{id}/return', tag, objectType,
    summary: 'Return a submitted or approved entry to its preparer, with a reason (missing support, wrong account)',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: JE_APPROVE, emits: [JournalEntryReturned],
    decide: ({ params, body }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['submitted', 'approved'], 'returned');
      if (isRefusal(entry)) return entry;
      return emit(JournalEntryReturned, { id: entry.id, reason: body.reason, note: body.note ?? '' }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.post', method: 'POST', path: '/journal-entries/{id}/post', tag, objectType,
    summary: 'Post an approved entry to the general ledger on its date; a reversing entry posts its reversal too, on its auto_reverse_on date',
    body: Body({}),
    permission: JE_POST, emits: [JournalEntryPosted],
    decide: ({ params }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['approved'], 'posted');
      if (isRefusal(entry)) return entry;
      const closed = assertPeriodOpen(ctx, entry.date);
      if (closed) return closed;
      const lines = ctx.read.journalEntries.lines(entry.id);
      const journal = journalOfLines(ctx.read, entry.id, entry.date, `${entry.id}: ${entry.memo}`, lines, false);
      if (isRefusal(journal)) return journal;
      if (!entry.reverse_on) return emit(JournalEntryPosted, { id: entry.id, journal }, objectType, entry.id);
      const reversalClosed = assertPeriodOpen(ctx, entry.reverse_on);
      if (reversalClosed) return reversalClosed;
      const reversal = journalOfLines(ctx.read, entry.id, entry.reverse_on, `Reversal of ${entry.id}: ${entry.memo}`, lines, true);
      if (isRefusal(reversal)) return reversal;
      return emit(JournalEntryPosted, { id: entry.id, journal, reversal_journal: reversal }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.reverse', method: 'POST', path: '/journal-entries/{id}/reverse', tag, objectType,
    summary: 'Reverse a posted entry: its lines swapped, posted on the given date (default today), with a reason',
    body: Body({ date: Opt(DateInput), reason: ReasonInput, note: Opt(NoteInput) }),
    permission: JE_POST, emits: [JournalEntryReversed],
    decide: ({ params, body }, ctx) => {
      const entry = ctx.read.journalEntries.entry(params.id!);
      if (!entry) return refuse('not_found', `No journal entry ${params.id}.`);
      if (entry.status !== 'posted') return refuse('invalid_state', `Journal entry ${entry.id} is ${entry.status}; only a posted entry can be reversed.`);
      const date = body.date ?? ctx.today;
      if (date < entry.date) return refuse('invalid_request', `A reversal cannot be dated before the entry it reverses (${entry.date}).`, 422);
      const closed = assertPeriodOpen(ctx, date);
      if (closed) return closed;
      const journal = journalOfLines(ctx.read, entry.id, date, `Reversal of ${entry.id}: ${entry.memo}`, ctx.read.journalEntries.lines(entry.id), true);
      if (isRefusal(journal)) return journal;
      return emit(JournalEntryReversed, { id: entry.id, date, reason: body.reason, note: body.note ?? '', journal }, objectType, entry.id);
    },
    view,
  }),
  defineAction({
    action: 'journal_entry.cancel', method: 'POST', path: '/journal-entries/{id}/cancel', tag, objectType,
    summary: 'Cancel an entry that was never posted, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: JE_CREATE, emits: [JournalEntryCancelled],
    decide: ({ params, body }, ctx) => {
      const entry = entryIn(ctx, params.id!, ['draft', 'returned', 'submitted'], 'cancelled');
      if (isRefusal(entry)) return entry;
      return emit(JournalEntryCancelled, { id: entry.id, reason: body.reason, note: body.note ?? '' }, objectType, entry.id);
    },
    view,
  }),
  defineQuery({
    path: '/journal-entries', tag, summary: 'List manual journal entries by status, period or preparer', permission: null,
    query: ListQuery({
      status: Opt(Type.Union(['draft', 'submitted', 'returned', 'approved', 'posted', 'reversed', 'cancelled'].map((s) => Type.Literal(s)))),
      period: Opt(IdInput),
      created_by: Opt(IdInput),
      recurring_template: Opt(IdInput),
    }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'journal_entries', { status: query.status, period: query.period, created_by: query.created_by, recurring_template: query.recurring_template }, query, {
      map: (r) => withDecimals(r as unknown as JournalEntryRow, ['total']),
    }),
  }),
  defineQuery({
    path: '/journal-entries/{id}', tag, summary: 'A journal entry with its lines, attachments, status history and postings', permission: null, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => journalEntryView(ctx.read, params.id!),
  }),
];
