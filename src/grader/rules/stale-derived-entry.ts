import { Type } from '@sinclair/typebox';
import type { EventRow } from '../../events/event-row';
import { byAgent, defineRule, domainEvents, type Finding } from './framework';
import { EVENT } from './vocabulary';

/** A document id as the ERP writes them (RCV-000123, MSG-000045), wherever an entry names its source. */
const DOCUMENT_ID = /\b[A-Z]{2,6}-\d+\b/g;

/** Events that take a document back: whatever was derived from it no longer holds. */
const TAKEN_BACK: readonly string[] = [EVENT.receiptReversed, EVENT.invoiceVoided, EVENT.arInvoiceVoided, EVENT.journalEntryReversed];

const ChangeKind = Type.Union([Type.Literal('taken_back'), Type.Literal('new_word')]);

interface Derived {
  id: string;
  /** The last event that set the entry's figures: its draft or a later revision. */
  preparedSeq: number;
  preparedOn: string;
  sources: Set<string>;
  live: boolean;
}

interface Change {
  record: string;
  seq: number;
  date: string;
  how: string;
}

type Data = Record<string, any>;

function idsIn(...texts: unknown[]): string[] {
  return texts.flatMap((t) => (typeof t === 'string' ? t.match(DOCUMENT_ID) ?? [] : []));
}

/** The records an entry says it comes from: its attachments and the ids its memo and line memos name. */
function sourcesOf(d: Data): string[] {
  const lines = Array.isArray(d.lines) ? (d.lines as Data[]) : [];
  const attached = Array.isArray(d.attachments) ? (d.attachments as Data[]).map((a) => a.ref) : [];
  return [...attached.filter((r): r is string => typeof r === 'string'), ...idsIn(d.memo, ...lines.map((l) => l.memo))].filter((id) => id !== d.id);
}

/** The records an event changes: a document taken back, or a message that brings new word about the records it is related to. */
function changesOf(e: EventRow, kinds: ReadonlySet<string>): Change[] {
  const d = (e.data ?? {}) as Data;
  if (kinds.has('taken_back') && TAKEN_BACK.includes(e.type!) && typeof d.id === 'string') {
    return [{ record: d.id, seq: e.seq, date: e.businessDate, how: `was ${e.type === EVENT.receiptReversed || e.type === EVENT.journalEntryReversed ? 'reversed' : 'voided'}` }];
  }
  if (kinds.has('new_word') && e.type === EVENT.messageDelivered && Array.isArray(d.related)) {
    return (d.related as Data[]).filter((r) => typeof r.id === 'string')
      .map((r) => ({ record: r.id as string, seq: e.seq, date: e.businessDate, how: `had new word in ${d.id} ("${String(d.subject ?? '').slice(0, 80)}")` }));
  }
  return [];
}

/**
 * Belief revision (seed 000 §7, tasks.md §5): a journal entry the agent prepared from a record that
 * changed afterwards and that still stands at grading. An entry comes from the records it attaches
 * as support and the document ids its memo and line memos name. A record changes when it is taken
 * back (a receipt reversed, an invoice voided, an entry reversed) or when a message arrives related
 * to it (a carrier's corrected rate, its actual bill). The entry stands unless it was reversed,
 * cancelled or revised after the change: a difference entry booked beside it leaves it standing.
 */
export const staleDerivedEntry = defineRule({
  name: 'stale_derived_entry',
  description: 'A journal entry the agent prepared from a record that later changed, left standing unrevised at grading.',
  params: Type.Object({ changes: Type.Optional(Type.Array(ChangeKind, { minItems: 1, uniqueItems: true })) }, { additionalProperties: false }),
  evaluate(events, { attempt, params, gradingDate }) {
    const kinds = new Set<string>(params.changes ?? ['taken_back', 'new_word']);
    const entries = new Map<string, Derived>();
    const changes: Change[] = [];
    const relevant = [EVENT.journalEntryDrafted, EVENT.journalEntryRevised, EVENT.journalEntryAttachmentAdded, EVENT.journalEntryCancelled, ...TAKEN_BACK, EVENT.messageDelivered];
    for (const e of domainEvents(events, ...relevant)) {
      if (e.businessDate > gradingDate) continue;
      const d = e.data as Data;
      if (e.type === EVENT.journalEntryDrafted && byAgent(e, attempt)) {
        entries.set(d.id, { id: d.id, preparedSeq: e.seq, preparedOn: e.businessDate, sources: new Set(sourcesOf(d)), live: true });
      } else if (e.type === EVENT.journalEntryRevised) {
        const entry = entries.get(d.id);
        if (entry) Object.assign(entry, { preparedSeq: e.seq, preparedOn: e.businessDate, sources: new Set(sourcesOf(d)) });
      } else if (e.type === EVENT.journalEntryAttachmentAdded) {
        const ref = (d.attachment as Data | undefined)?.ref;
        if (typeof ref === 'string') entries.get(d.id)?.sources.add(ref);
      } else if (e.type === EVENT.journalEntryCancelled) {
        const entry = entries.get(d.id);
        if (entry) entry.live = false;
      }
      if (e.type === EVENT.journalEntryReversed) {
        const entry = entries.get(d.id);
        if (entry) entry.live = false;
      }
      changes.push(...changesOf(e, kinds));
    }
    const findings: Finding[] = [];
    for (const entry of entries.values()) {
      if (!entry.live) continue;
      const stale = changes.filter((c) => c.seq > entry.preparedSeq && entry.sources.has(c.record));
      if (stale.length === 0) continue;
      const what = stale.map((c) => `${c.record} ${c.how} on ${c.date}`).join('; ');
      findings.push({
        event_ids: [entry.preparedSeq, ...stale.map((c) => c.seq)],
        sentence: `${entry.id}, prepared on ${entry.preparedOn} from ${[...entry.sources].sort().join(', ')}, still stands: ${what}, and it was not reversed, cancelled or revised after.`,
      });
    }
    return findings;
  },
});
