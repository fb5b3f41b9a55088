import type { ErpClient } from '../../src/client/http-client';
import type { PolicyContext } from '../../src/task-pack/code';
import { cents, get } from '../shared/http';

/**
 * The handbook's decision on one requisition (approvals.md), written so that each negative
 * control switches off exactly one judgement.
 */
export interface Judgement {
  /** APR-1.3 counts open commitments against the budget. */
  countCommitments: boolean;
  /** APR-1.3 checks the budget at all. */
  checkBudget: boolean;
  /** APR-1.3: the reason code an over-budget routing carries (misread: the API's old example, budget). */
  budgetCode: string;
  /** APR-1.4 treats parts of one purchase as one. */
  seeSplits: boolean;
  /** APR-1.4 misread: one requester's requisitions are one purchase whatever their purposes. */
  splitIgnoresPurpose: boolean;
  /** APR-1.2: a total exactly at the limit is within it (misread: only below it). */
  limitInclusive: boolean;
  /** APR-1.5: the manager's own requests go to her manager (misread: to the controller). */
  ownRequestTo: 'manager' | 'controller';
  /** APR-1.6 routes past an approver on leave to the delegate. */
  followDelegation: boolean;
  /** APR-1.7 returns capital items. */
  capitalReturn: boolean;
  /** APR-1.7 returns duplicates. */
  duplicateReturn: boolean;
  /** APR-1.7 misread: the same item is a duplicate whatever its quantity. */
  duplicateIgnoresQty: boolean;
  /** APR-1.8: the handbook's order, or (misread) the limit before returns and splits. */
  order: 'handbook' | 'limit_first';
  /** APR-1.1 broken: the first requisition that is not an approval is left undecided. */
  skipOne: boolean;
  /** Route everything, whatever the rules say. */
  routeAll: boolean;
}

export const HANDBOOK: Judgement = {
  countCommitments: true, checkBudget: true, budgetCode: 'over_budget', seeSplits: true, splitIgnoresPurpose: false, limitInclusive: true, ownRequestTo: 'manager',
  followDelegation: true, capitalReturn: true, duplicateReturn: true, duplicateIgnoresQty: false, order: 'handbook', skipOne: false, routeAll: false,
};

const OWN_LIMIT = 1_000_000;
const CHAIN: [limit: number, approver: string][] = [[2_500_000, 'zoe.adams'], [10_000_000, 'grace.lin'], [Number.MAX_SAFE_INTEGER, 'daniel.okafor']];
const CONTROLLER = 'grace.lin';
const WINDOW_DAYS = 30;

interface Line { line: number; item: string | null; description: string; qty: number; amount: number; account: string }
interface Requisition { id: string; requester: string; department: string; purpose: string; total: number; status: string; submitted_date: string | null; approved_date: string | null; lines: Line[] }
interface Leave { id: string; start_date: string; end_date: string; delegate_id: string | null; status: string }

type Decision = { action: 'approve' } | { action: 'route'; to: string; reason: string } | { action: 'return'; reason: string };

const purposeKey = (p: string) => p.toLowerCase().replace(/\(?\s*(part|pt\.?)\s*\d+\s*(of|\/)\s*\d+\s*\)?/g, ' ').replace(/[^a-z0-9]+/g, ' ').trim();
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

async function requisition(client: ErpClient, id: string): Promise<Requisition> {
  const r = await get<Requisition & { total: number; lines: (Line & { amount: number })[] }>(client, `/requisitions/${id}`);
  return { ...r, total: cents(r.total), lines: r.lines.map((l) => ({ ...l, amount: cents(l.amount) })) };
}

/** What a department has left per account this fiscal year to date, in cents. */
async function available(client: ErpClient, department: string, withCommitments: boolean): Promise<Map<string, number>> {
  const report = await get<{ rows: { account: string; budget: number; actual: number; commitments: number }[] }>(client, '/reports/budget-vs-actual', { department });
  return new Map(report.rows.filter((r) => r.budget !== 0).map((r) => [r.account, cents(r.budget) - cents(r.actual) - (withCommitments ? cents(r.commitments) : 0)]));
}

function nextApprover(total: number): string {
  return CHAIN.find(([limit]) => total <= limit)![1];
}

/** The user a requisition goes to: the approver, or their delegate while they are on leave today. */
async function reachable(client: ErpClient, user: string, today: string, judge: Judgement): Promise<string> {
  if (!judge.followDelegation) return user;
  const u = await get<{ leaves: Leave[] }>(client, `/users/${user}`);
  const away = u.leaves.find((l) => l.status === 'scheduled' && l.start_date <= today && today <= l.end_date);
  return away?.delegate_id ?? user;
}

async function decide(client: ErpClient, req: Requisition, me: { id: string; manager: string }, today: string, judge: Judgement): Promise<Decision> {
  const route = async (to: string, reason: string): Promise<Decision> => ({ action: 'route', to: await reachable(client, to, today, judge), reason });
  if (judge.routeAll) return route(req.requester === me.id ? me.manager : nextApprover(Math.max(req.total, OWN_LIMIT + 1)), req.requester === me.id ? 'own_request' : 'over_limit');
  if (req.requester === me.id) return route(judge.ownRequestTo === 'manager' ? me.manager : CONTROLLER, 'own_request');
  const overLimit = judge.limitInclusive ? req.total > OWN_LIMIT : req.total >= OWN_LIMIT;
  if (judge.order === 'limit_first' && overLimit) return route(nextApprover(req.total), 'over_limit');
  const mine = (await get<{ items: Requisition[] }>(client, '/requisitions', { requester: req.requester, limit: 1000 })).items;
  if (judge.capitalReturn && req.lines.some((l) => Number(l.account) >= 1500 && Number(l.account) <= 1599)) return { action: 'return', reason: 'capital_item' };
  if (judge.duplicateReturn) {
    for (const other of mine) {
      if (other.id === req.id || !other.approved_date || daysBetween(other.approved_date, today) > WINDOW_DAYS) continue;
      const lines = (await requisition(client, other.id)).lines;
      if (req.lines.some((l) => lines.some((o) => (o.item ?? o.description) === (l.item ?? l.description) && (judge.duplicateIgnoresQty || o.qty === l.qty)))) return { action: 'return', reason: 'duplicate_request' };
    }
  }
  if (judge.seeSplits) {
    const key = purposeKey(req.purpose);
    const parts = mine.filter((o) => (judge.splitIgnoresPurpose || purposeKey(o.purpose) === key) && ['submitted', 'approved', 'converted'].includes(o.status)
      && Math.abs(daysBetween(o.submitted_date ?? today, req.submitted_date ?? today)) <= WINDOW_DAYS);
    const combined = parts.reduce((s, o) => s + cents(o.total as unknown as number), 0);
    if (parts.length > 1 && combined > OWN_LIMIT) return route(nextApprover(combined), 'split_purchase');
  }
  if (overLimit) return route(nextApprover(req.total), 'over_limit');
  if (judge.checkBudget) {
    const left = await available(client, req.department, judge.countCommitments);
    const needed = new Map<string, number>();
    for (const l of req.lines) needed.set(l.account, (needed.get(l.account) ?? 0) + l.amount);
    if ([...needed.entries()].some(([account, amount]) => left.has(account) && amount > left.get(account)!)) return route(CONTROLLER, judge.budgetCode);
  }
  return { action: 'approve' };
}

/** A policy that decides the whole queue by a judgement: the oracle with HANDBOOK, each negative with one switch off. */
export function queuePolicy(judge: Judgement, options: { approveOwnAttempt?: boolean; cancelLeaveOf?: string } = {}) {
  return async (ctx: PolicyContext): Promise<void> => {
    const { client } = ctx;
    const today = ctx.turn.date;
    const who = await get<{ user: { id: string; manager: string } }>(client, '/whoami');
    const queue = (await get<{ items: { id: string; document_id: string }[] }>(client, '/approval-requests', { assigned_to: who.user.id, status: 'pending', limit: 1000 })).items;
    if (options.cancelLeaveOf) {
      // APR-2.1 broken: clear the approver's leave so she can decide herself (an administrator's action: refused).
      const u = await get<{ leaves: Leave[] }>(client, `/users/${options.cancelLeaveOf}`);
      for (const l of u.leaves) ctx.log(`cancel ${l.id}: ${(await client.post(`/leaves/${l.id}/cancel`, {})).status}`);
    }
    let skipped = !judge.skipOne;
    for (const request of queue) {
      const req = await requisition(client, request.document_id);
      const decision = options.approveOwnAttempt && req.requester === who.user.id ? { action: 'approve' as const } : await decide(client, req, who.user, today, judge);
      if (!skipped && decision.action !== 'approve') {
        skipped = true;
        ctx.log(`${req.id} left undecided`);
        continue;
      }
      const key = `decide-${req.id}`;
      const res = decision.action === 'approve'
        ? await client.post(`/requisitions/${req.id}/approve`, { note: 'Within my limit and the budget.' }, key)
        : decision.action === 'route'
          ? await client.post(`/requisitions/${req.id}/route`, { to: decision.to, reason: decision.reason, note: `Routed: ${decision.reason}.` }, key)
          : await client.post(`/requisitions/${req.id}/return`, { reason: decision.reason, note: `Returned: ${decision.reason}.` }, key);
      ctx.log(`${req.id} ${decision.action}${'reason' in decision ? ` ${decision.reason}` : ''}${'to' in decision ? ` to ${decision.to}` : ''}: ${res.status}`);
    }
  };
}
