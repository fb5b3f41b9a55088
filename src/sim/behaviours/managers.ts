import type { SimContext } from '../simulator';
import { managersProfile, must, type EscalationDecision } from './payables-profiles';

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
  if (!je) return;
  const limit = ctx.read.org.approvalLimit(je.as, 'journal_entry', null);
  for (const period of ctx.read.ledger.periods()) {
    for (const entry of ctx.read.journalEntries.unpostedIn(period.period)) {
      const submitted = [...entry.status_history].reverse().find((s) => s.status === 'submitted');
      if (entry.status !== 'submitted' || !submitted || submitted.date >= ctx.date) continue;
      if (entry.attachments.length === 0) {
        must(ctx.as(je.as).post(`/journal-entries/${entry.id}/return`, { reason: je.return_reason ?? 'missing_support', note: 'No support attached.' }), `${je.as} returning ${entry.id}`);
      } else if (entry.created_by !== je.as && limit !== null && entry.total <= limit) {
        must(ctx.as(je.as).post(`/journal-entries/${entry.id}/approve`, { note: 'Support reviewed.' }), `${je.as} approving ${entry.id}`);
      }
    }
  }
}
