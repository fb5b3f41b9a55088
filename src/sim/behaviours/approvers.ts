import { budgetCells, fiscalYearStart } from '../../domain/reports/budget-vs-actual';
import type { Queries } from '../../projections';
import type { ApprovalRequestRow, RequisitionRow } from '../../projections/purchasing-requisitions';
import { registerBehaviour } from '../behaviour-registry';
import type { SimContext } from '../simulator';

/** What an approver does with a request it will not approve. */
export type ApproverRule =
  | { action: 'reject'; reason?: string; note?: string }
  | { action: 'route'; to: string; reason?: string; note?: string }
  | { action: 'wait' };

/** One approver's rules (world.actors.approvers.approvers[userId]); see docs/simulation.md. */
export interface ApproverProfile {
  /** Check the department's budget, open commitments included (default true). */
  budget_check?: boolean;
  /** Compare the request with the department's whole budget (default) or each account's. */
  budget_level?: 'department' | 'account';
  /** Above the approver's limit, or no limit at all. Default: reject with over_limit. */
  over_limit?: ApproverRule;
  /** Not enough budget left. Default: reject with over_budget. */
  over_budget?: ApproverRule;
  /** The approver's own requisition. Default: reject with own_request. */
  own_request?: ApproverRule;
}

export interface ApproversWorld {
  approvers: Record<string, ApproverProfile>;
}

type Decision = { action: 'approve' } | ApproverRule;

/**
 * Whether the department's budget for the fiscal year to date, less actuals and open
 * commitments, covers the requisition. A department with no budget in the range is not checked.
 */
export function budgetAllows(read: Queries, req: RequisitionRow, level: 'department' | 'account', today: string): boolean {
  const to = today.slice(0, 7);
  const from = fiscalYearStart(read, to);
  // Cheap first: a department (or, by account, the request's accounts) with no budget is not checked.
  const budgeted = read.finance.budgets(req.department, from, to).filter((b) => b.amount !== 0);
  if (budgeted.length === 0) return true;
  if (level === 'account') {
    const accounts = new Set(read.requisitions.lines(req.id).map((l) => l.account));
    if (!budgeted.some((b) => accounts.has(b.account))) return true;
  }
  const cells = budgetCells(read, { department: req.department, from, to });
  if (!cells.some((c) => c.budget !== 0)) return true;
  const available = (account?: string) => cells.filter((c) => account === undefined || c.account === account).reduce((s, c) => s + c.budget - c.actual - c.commitments, 0);
  if (level === 'department') return req.total <= available();
  const needed = new Map<string, number>();
  for (const l of read.requisitions.lines(req.id)) needed.set(l.account, (needed.get(l.account) ?? 0) + l.amount);
  return [...needed.entries()].every(([account, amount]) => amount <= available(account));
}

function decide(read: Queries, user: string, profile: ApproverProfile, req: RequisitionRow, today: string): Decision {
  if (req.requester === user) return profile.own_request ?? { action: 'reject', reason: 'own_request' };
  const limit = read.org.approvalLimit(user, 'requisition', req.department);
  if (limit === null || req.total > limit) return profile.over_limit ?? { action: 'reject', reason: 'over_limit' };
  if (profile.budget_check !== false && !budgetAllows(read, req, profile.budget_level ?? 'department', today)) {
    return profile.over_budget ?? { action: 'reject', reason: 'over_budget' };
  }
  return { action: 'approve' };
}

function act(ctx: SimContext, user: string, request: ApprovalRequestRow, decision: Decision): void {
  const client = ctx.as(user);
  const path = `/requisitions/${request.document_id}`;
  const key = `approver-${request.id}`;
  if (decision.action === 'approve') client.post(`${path}/approve`, {}, key);
  else if (decision.action === 'reject') client.post(`${path}/reject`, { reason: decision.reason ?? 'rejected', note: decision.note ?? '' }, key);
  else if (decision.action === 'route') client.post(`${path}/route`, { to: decision.to, reason: decision.reason ?? 'routed', note: decision.note ?? '' }, key);
}

/**
 * Seed 000 environment §8: on each business day every configured approver decides the
 * requisition approval requests that reached its queue before today (the next business day),
 * unless it is on leave that day: then they wait. It reads only structured data.
 */
registerBehaviour('approvers', 'decide-requisitions', (ctx) => {
  const world = ctx.world.actors.approvers as ApproversWorld | undefined;
  if (!world?.approvers || !ctx.businessDay) return;
  for (const user of Object.keys(world.approvers).sort()) {
    if (ctx.read.org.leaveOn(user, ctx.date)) continue;
    for (const request of ctx.read.requisitions.pendingFor(user)) {
      if (request.document_type !== 'requisition' || request.created_date >= ctx.date) continue;
      const req = ctx.read.requisitions.requisition(request.document_id);
      if (!req) continue;
      act(ctx, user, request, decide(ctx.read, user, world.approvers[user]!, req, ctx.date));
    }
  }
});
