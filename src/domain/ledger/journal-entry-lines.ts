import { Type, type Static } from '@sinclair/typebox';
import type { Journal, JournalEntryLine } from '../../events/contracts/ledger';
import type { Queries } from '../../projections';
import type { JournalEntryLineRow, JournalEntryRow } from '../../projections/ledger-journal-entries';
import { visibleMessage } from '../comms/visibility';
import { withDecimals } from '../decimal-view';
import { isRefusal, refuse, type Actor, type Refusal } from '../decision';
import { addMonths } from '../calendar';
import { toCents } from '../money';
import { Body, IdInput, MoneyInput, Opt } from '../schemas';
import { assertAccountsPostable, JournalBuilder } from './journal';

export const JournalLineInput = Body({
  account: Type.String({ pattern: '^[0-9]{4,6}$' }),
  debit: Opt(MoneyInput),
  credit: Opt(MoneyInput),
  department: Opt(IdInput),
  party_type: Opt(Type.Union([Type.Literal('vendor'), Type.Literal('customer'), Type.Literal('employee')])),
  party_id: Opt(IdInput),
  memo: Opt(Type.String({ maxLength: 400 })),
});

export const AttachmentInput = Body({
  kind: Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 80, description: 'message, report, receipt, file, …' }),
  ref: IdInput,
  description: Opt(Type.String({ maxLength: 400 })),
});

export function toAttachment(a: Static<typeof AttachmentInput>) {
  return { kind: a.kind, ref: a.ref, description: a.description ?? '' };
}

/**
 * Support must be real: a message attached as support is one the preparer can read, an entry is
 * one that exists. Other kinds (a file, a schedule, a report) are references the approver judges.
 */
export function checkSupport(read: Queries, actor: Actor, attachments: readonly Static<typeof AttachmentInput>[]): Refusal | undefined {
  for (const a of attachments) {
    if (a.kind === 'message' && !visibleMessage(read, actor, a.ref)) return refuse('not_found', `No message ${a.ref} that you can read to attach as support.`);
    if (a.kind === 'journal_entry' && !read.journalEntries.entry(a.ref)) return refuse('not_found', `No journal entry ${a.ref} to attach as support.`);
  }
  return undefined;
}

/**
 * The reversal date of a reversing entry: a day in a later month than the entry's own, so that
 * the accrual and its reversal fall in different periods (usually the first of the next month).
 */
export function reversalDate(entryDate: string, requested: string): string | Refusal {
  const next = addMonths(`${entryDate.slice(0, 7)}-01`, 1);
  if (requested < next) return refuse('invalid_request', `A reversing entry dated ${entryDate} reverses in a later month: on ${next} or after, not ${requested}.`, 422);
  return requested;
}

/** Request lines as cents, or a refusal naming the first line that cannot be posted as given. */
export function parseLines(read: Queries, input: readonly Static<typeof JournalLineInput>[]): JournalEntryLine[] | Refusal {
  const lines: JournalEntryLine[] = [];
  for (const [i, l] of input.entries()) {
    const debit = l.debit === undefined ? 0 : toCents(l.debit);
    const credit = l.credit === undefined ? 0 : toCents(l.credit);
    if (debit < 0 || credit < 0) return refuse('invalid_request', `Line ${i + 1}: amounts are positive; put a credit in credit.`, 422);
    if ((debit > 0) === (credit > 0)) return refuse('invalid_request', `Line ${i + 1} needs either a debit or a credit.`, 422);
    if (l.department && !read.org.department(l.department)) return refuse('not_found', `Line ${i + 1}: no department ${l.department}.`);
    if ((l.party_type === undefined) !== (l.party_id === undefined)) return refuse('invalid_request', `Line ${i + 1}: party_type and party_id go together.`, 422);
    if (l.party_type && !partyExists(read, l.party_type, l.party_id!)) return refuse('not_found', `Line ${i + 1}: no ${l.party_type} ${l.party_id}.`);
    lines.push({ account: l.account, debit, credit, department: l.department ?? null, party_type: l.party_type ?? null, party_id: l.party_id ?? null, memo: l.memo ?? '' });
  }
  const bad = assertAccountsPostable(read, lines.map((l) => l.account));
  if (bad) return bad;
  const built = journalOfLines(read, 'check', '1970-01-01', '', lines, false);
  return isRefusal(built) ? built : lines;
}

function partyExists(read: Queries, type: 'vendor' | 'customer' | 'employee', id: string): boolean {
  if (type === 'vendor') return read.vendors.vendor(id) !== undefined;
  if (type === 'customer') return read.customers.customer(id) !== undefined;
  return read.org.user(id) !== undefined;
}

/** The entry's lines as a journal; `swap` builds its reversal. */
export function journalOfLines(read: Queries, entryId: string, date: string, memo: string, lines: readonly JournalEntryLine[], swap: boolean): Journal | Refusal {
  const builder = new JournalBuilder(date, memo);
  for (const l of lines) {
    const refs = { document_id: entryId, department: l.department, party_type: l.party_type, party_id: l.party_id };
    const [debit, credit] = swap ? [l.credit, l.debit] : [l.debit, l.credit];
    if (debit > 0) builder.debit(l.account, debit, refs);
    if (credit > 0) builder.credit(l.account, credit, refs);
  }
  return builder.build(read);
}

export function journalEntryView(read: Queries, id: string) {
  const entry = read.journalEntries.entry(id);
  if (!entry) return undefined;
  return {
    ...withDecimals(entry as JournalEntryRow, ['total']),
    lines: read.journalEntries.lines(id).map((l) => withDecimals(l as JournalEntryLineRow, ['debit', 'credit'])),
    links: [
      ...(entry.recurring_template ? [{ rel: 'recurring_entry', type: 'recurring_entry', id: entry.recurring_template }] : []),
      ...(entry.posted_event ? [{ rel: 'posting', type: 'event', id: String(entry.posted_event) }] : []),
      ...(entry.reversal_event ? [{ rel: 'reversal', type: 'event', id: String(entry.reversal_event) }] : []),
      ...entry.attachments.map((a) => ({ rel: 'support', type: a.kind, id: a.ref })),
    ],
  };
}
