import type { Api } from '../api/pipeline';
import { previousBusinessDay, type WorkCalendar } from '../domain/calendar';
import type { Db } from '../events/database';
import { CONTROL_TIES } from '../grader/ledger/control-ties';
import { hasLedger, tieControl, trialBalance } from '../grader/ledger/trial-balance';
import { formatCents } from '../grader/checks/context';

/** One property a generated company must have before any task plants anything (seed 000 environment §2). */
export interface HealthCheck {
  name: string;
  ok: boolean;
  detail: string;
}


/**
 * Open documents nobody will move: each query lists the ids of one kind, with the reason. Every open
 * document must have a next actor (an approver who exists, a vendor who will ship, a bank that
 * clears by the next business day) and a parent that is still open.
 */
function orphans(db: Db, lastBusinessDay: string): string[] {
  const kinds: [string, string][] = [
    ['approval request assigned to no staff user', `SELECT a.id FROM approval_requests a WHERE a.status = 'pending' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.assigned_to AND u.kind = 'staff')`],
    ['requisition submitted with no pending approval request', `SELECT r.id FROM requisitions r WHERE r.status = 'submitted' AND NOT EXISTS (SELECT 1 FROM approval_requests a WHERE a.document_id = r.id AND a.status = 'pending')`],
    ['purchase order approved but never sent', `SELECT id FROM purchase_orders WHERE status = 'approved' AND approved_date < :last_business_day`],
    ['open purchase order to a vendor that is not active', `SELECT p.id FROM purchase_orders p JOIN vendors v ON v.id = p.vendor WHERE p.status IN ('sent', 'acknowledged', 'partially_received') AND v.status <> 'active'`],
    ['delivery announced against a purchase order that is no longer open', `SELECT d.id FROM deliveries d JOIN purchase_orders p ON p.id = d.po WHERE d.status = 'announced' AND p.status NOT IN ('sent', 'acknowledged', 'partially_received')`],
    ['unpaid invoice of a vendor with no verified bank account', `SELECT i.id FROM ap_invoices i WHERE i.open_amount > 0 AND i.status NOT IN ('void', 'rejected') AND NOT EXISTS (SELECT 1 FROM vendor_bank_accounts b WHERE b.vendor = i.vendor AND b.status = 'verified')`],
    ['invoice matched to a purchase order that does not exist', `SELECT i.id FROM ap_invoices i WHERE i.po IS NOT NULL AND NOT EXISTS (SELECT 1 FROM purchase_orders p WHERE p.id = i.po)`],
    ['payment run left unreleased', `SELECT id FROM payment_runs WHERE status IN ('draft', 'submitted', 'approved') AND created_date < :last_business_day`],
    ['released payment the bank has not cleared by the next business day', `SELECT id FROM payments WHERE status = 'released' AND date < :last_business_day`],
    ['journal entry left unposted', `SELECT id FROM journal_entries WHERE status IN ('draft', 'submitted', 'approved') AND created_date < :last_business_day`],
    ['purchase order left a draft', `SELECT id FROM purchase_orders WHERE status = 'draft' AND created_date < :last_business_day`],
    ['work order completed but never closed', `SELECT id FROM work_orders WHERE status = 'completed' AND completed_date < :last_business_day`],
    ['order allocated but not shipped by the last business day', `SELECT DISTINCT a.sales_order AS id FROM allocations a JOIN sales_orders s ON s.id = a.sales_order
      WHERE a.qty > 0 AND s.open_holds = 0 AND s.lifecycle = 'released' AND a.last_date < :last_business_day`],
    ['order free of holds but never released', `SELECT id FROM sales_orders WHERE lifecycle = 'entered' AND open_holds = 0 AND created_date < :last_business_day`],
    ['shipment not billed by the last business day', `SELECT id FROM shipments WHERE status = 'shipped' AND ship_date < :last_business_day`],
    ['customer deposit on the statement with no cash receipt', `SELECT id FROM bank_statement_lines WHERE kind = 'deposit' AND status = 'unmatched' AND date < :last_business_day`],
    ['customer payment the bank has not shown by the next business day', `SELECT id FROM customer_payments WHERE statement_line IS NULL AND date < :last_business_day`],
    ['return received or inspected and left there a fortnight', `SELECT id FROM rmas WHERE status IN ('received', 'inspected') AND created_date < date(:last_business_day, '-14 days')`],
  ];
  const found: string[] = [];
  for (const [what, sql] of kinds) {
    const ids = (db.prepare(sql).all(sql.includes(':last_business_day') ? { last_business_day: lastBusinessDay } : {}) as { id: string }[]).map((r) => r.id);
    if (ids.length) found.push(`${ids.length} ${what} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`);
  }
  return found;
}

/**
 * A company that makes things (it has bills of materials) completes work orders every month of its
 * history before the current one, so usage, WIP and stock value come from production.
 */
function productionByMonth(db: Db, current: string): HealthCheck | undefined {
  if ((db.prepare('SELECT COUNT(*) AS n FROM boms').get() as { n: number }).n === 0) return undefined;
  const months = (db.prepare(`SELECT substr(date, 1, 7) AS m, COUNT(*) AS n, SUM(qty) AS q FROM wo_completions WHERE substr(date, 1, 7) < ? GROUP BY m ORDER BY m`).all(current) as { m: string; n: number; q: number }[]);
  const periods = (db.prepare('SELECT period FROM periods WHERE period < ? ORDER BY period').all(current) as { period: string }[]).map((p) => p.period);
  const idle = periods.filter((p) => !months.some((m) => m.m === p));
  return {
    name: 'production every month',
    ok: periods.length > 0 && idle.length === 0,
    detail: idle.length ? `no work order completed in ${idle.join(', ')}` : `${months.reduce((s, m) => s + m.n, 0)} completions, ${Math.round(months.reduce((s, m) => s + m.q, 0))} units, ${periods[0]} to ${periods[periods.length - 1]}`,
  };
}

/**
 * What a company must be like when its history ends: books that balance and tie to their
 * subledgers (WIP and inventory among them), every month before the current one closed, AP and AR
 * aging with both current and overdue items, production every month where the company makes
 * things, and no open document that nobody will move.
 */
export function companyHealth(api: Api): HealthCheck[] {
  const db = api.erp.db;
  const today = api.today();
  const checks: HealthCheck[] = [];
  if (!hasLedger(db)) return [{ name: 'ledger', ok: false, detail: 'The company has no general ledger.' }];

  const tb = trialBalance(db, today);
  checks.push({ name: 'trial balance', ok: tb.debits === tb.credits, detail: `debits ${formatCents(tb.debits)}, credits ${formatCents(tb.credits)}` });
  for (const tie of CONTROL_TIES) {
    const r = tieControl(db, tie, today);
    checks.push({ name: `control tie ${tie.kind}`, ok: r.ties, detail: `ledger ${formatCents(r.gl_cents!)}, subledger ${formatCents(r.subledger_cents!)}` });
  }

  const month = today.slice(0, 7);
  const open = (db.prepare(`SELECT period FROM periods WHERE status <> 'closed' AND period < ? ORDER BY period`).all(month) as { period: string }[]).map((p) => p.period);
  const first = (db.prepare(`SELECT MIN(period) AS p FROM periods`).get() as { p: string | null }).p;
  checks.push({ name: 'periods before the current month closed', ok: open.length === 0 && first !== null, detail: open.length ? `open: ${open.join(', ')}` : `every period from ${first} to before ${month} is closed` });

  // The AP aging report's buckets, read from the read models so the check writes nothing to the log.
  let current = 0;
  let overdue = 0;
  for (const item of api.read.payables.openItemsAsOf(today)) {
    if (item.invoice === null) continue;
    if (api.read.payables.invoice(item.invoice)!.due_date < today) overdue += item.amount;
    else current += item.amount;
  }
  checks.push({ name: 'AP aging has current and overdue items', ok: current > 0 && overdue > 0, detail: `current ${formatCents(current)}, overdue ${formatCents(overdue)}` });

  // The AR aging report's buckets, from the AR subledger: customers who owe now and customers who are late.
  let arCurrent = 0;
  let arOverdue = 0;
  for (const item of api.read.receivables.openItemsAsOf(today)) {
    if (item.invoice === null) continue;
    if (api.read.receivables.invoice(item.invoice)!.due_date < today) arOverdue += item.amount;
    else arCurrent += item.amount;
  }
  checks.push({ name: 'AR aging has current and overdue items', ok: arCurrent > 0 && arOverdue > 0, detail: `current ${formatCents(arCurrent)}, overdue ${formatCents(arOverdue)}` });

  const production = productionByMonth(db, month);
  if (production) checks.push(production);

  const company = api.read.clock.company();
  const calendar: WorkCalendar = { workdays: company?.workdays ?? [1, 2, 3, 4, 5], isHoliday: (d) => api.read.clock.isHoliday(d) };
  const found = orphans(db, previousBusinessDay(today, calendar));
  checks.push({ name: 'no open document orphaned', ok: found.length === 0, detail: found.length ? found.join('; ') : 'every open document has a next actor' });
  return checks;
}
