import type { SimContext } from '../simulator';
import type { JournalEntryRow } from '../../projections/ledger-journal-entries';
import { managersProfile, must, type EscalationDecision, type JournalEntryManagerProfile } from './payables-profiles';

function ruleFor(rules: readonly EscalationDecision[], user: string, e: { record_type: string; record_id: string; reason: string }) {
  return rules.find((r) => (r.user === undefined || r.user === user) && r.reason === e.reason && (r.record_id === '*' || r.record_id === e.record_id) && (!r.record_type || r.record_type === e.record_type));
}

/**
 * Managers, on the business day after: answer escalations assigned to them with the scenario's
 * decision for that record and reason code (no rule, no answer); approve journal entries submitted
 * with support attached and return those without.
 */
export function managers(ctx: SimContext): void {
  if (!ctx.businessDay) return;
  const profile = managersProfile(ctx);
  const rules = profile.escalations ?? [];
  const named = rules.map((r) => r.user);
  const users = named.includes(undefined) ? ctx.world.users : named.filter((u): u is string => u !== undefined);
  for (const user of [...new Set(users)].sort()) {
    for (const e of ctx.read.escalations.openFor(user)) {
      if (e.created_date >= ctx.date) continue;
      const rule = ruleFor(rules, user, e);
      if (rule) must(ctx.as(user).post(`/escalations/${e.id}/respond`, { decision: rule.decision, note: rule.note ?? '' }), `${user} answering ${e.id}`);
    }
  }
  const je = profile.journal_entries;
  if (je) journalEntryApprover(ctx, je);
}

/** The support kinds the entry lacks: those the profile's rules require of its accounts, else any kind it counts. */
export function missingSupport(entry: Pick<JournalEntryRow, 'attachments'>, accounts: readonly string[], je: JournalEntryManagerProfile): string[] {
  const kinds = new Set(entry.attachments.map((a) => a.kind));
  const required = [...new Set((je.support_rules ?? []).filter((r) => r.accounts.some((a) => accounts.includes(a))).flatMap((r) => r.kinds))].sort();
  if (required.length > 0) return required.filter((k) => !kinds.has(k));
  const counted = [...kinds].some((k) => !je.support_kinds || je.support_kinds.includes(k));
  return counted ? [] : je.support_kinds ?? ['any'];
}

/**
 * The manager's journal-entry queue (seed 000 environment §8): each entry submitted on an earlier
 * day is approved when it carries the support its accounts require (or, when no rule names them,
 * support of a kind the profile counts) and the manager may approve it (not her own, within her
 * journal_entry limit), and returned without that support. Entries she may
 * not approve wait for someone who may.
 */
function journalEntryApprover(ctx: SimContext, je: JournalEntryManagerProfile): void {
  const limit = ctx.read.org.approvalLimit(je.as, 'journal_entry', null);
  for (const entry of ctx.read.journalEntries.withStatus('submitted')) {
    const submitted = [...entry.status_history].reverse().find((s) => s.status === 'submitted');
    if (!submitted || submitted.date >= ctx.date) continue;
    const accounts = ctx.read.journalEntries.lines(entry.id).map((l) => l.account);
    const missing = missingSupport(entry, accounts, je);
    if (missing.length > 0) {
      const note = entry.attachments.length === 0 ? 'No support attached.' : `Support missing: ${missing.join(', ')}.`;
      must(ctx.as(je.as).post(`/journal-entries/${entry.id}/return`, { reason: je.return_reason ?? 'missing_support', note }), `${je.as} returning ${entry.id}`);
    } else if (entry.created_by !== je.as && limit !== null && entry.total <= limit) {
      must(ctx.as(je.as).post(`/journal-entries/${entry.id}/approve`, { note: 'Support reviewed.' }), `${je.as} approving ${entry.id}`);
    }
  }
}
