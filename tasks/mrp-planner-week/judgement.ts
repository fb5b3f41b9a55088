import type { ErpClient } from '../../src/client/http-client';
import type { PolicyContext } from '../../src/task-pack/code';
import { cents, get, post } from '../shared/http';

/**
 * The planner's week as the handbook says it (planning.md), one switch per clause or part, so each
 * negative control changes exactly one judgement.
 */
export interface Judgement {
  /** MRP-1.1: lead-time notes are applied to the item records. */
  applyNotes: boolean;
  /** MRP-1.1/before: they are applied before the run (misread: after it). */
  notesBeforeRun: boolean;
  /** MRP-1.1/vendor: only a note from the item's preferred vendor counts (misread: any vendor's). */
  preferredVendorOnly: boolean;
  /** MRP-1.2/firm: only firm planned orders are released (misread: every planned order). */
  firmOnly: boolean;
  /** MRP-1.2/as_planned: released at the run's quantity (misread: rounded up to this many). */
  roundUpTo: number | null;
  /** MRP-1.3: a late planned purchase order is sent and expedited. */
  expediteLate: boolean;
  /** MRP-1.4/expedite and /defer: which action messages are worked with the vendor. */
  workExpedites: boolean;
  workDefers: boolean;
  /** MRP-1.4/once: a line already asked is not asked again (misread: every message gets a request). */
  askOnce: boolean;
  /** MRP-2.1 broken: a forecast week the planner thinks too high is trimmed. */
  trimForecast: boolean;
}

export const HANDBOOK: Judgement = {
  applyNotes: true, notesBeforeRun: true, preferredVendorOnly: true, firmOnly: true, roundUpTo: null,
  expediteLate: true, workExpedites: true, workDefers: true, askOnce: true, trimForecast: false,
};

const RUN = { horizon_weeks: 8, firm_days: 5, defer_days: 10 };
const LIMIT_CENTS = 500_000;
const NOTE = /lead time for (\S+) \(.*?\) is now (\d+) calendar days/i;

interface Message { id: string; from_address: string; subject: string; body?: string }
interface Suggestion {
  id: string; kind: string; item: string; qty: number; need_date: string; vendor: string | null; firm: boolean; late: boolean;
  order_type: string | null; order_id: string | null; order_line: number | null; status: string;
}
interface VendorRequest { po: string; line: number; kind: string }

async function all<T>(client: ErpClient, path: string, query: Record<string, string | number | boolean> = {}): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await get<{ items: T[] }>(client, path, { ...query, limit: 500, offset });
    out.push(...page.items);
    if (page.items.length < 500) return out;
  }
}

/** The vendors' lead-time notes in the mailbox: item, days, sender's address, message. */
async function leadTimeNotes(client: ErpClient): Promise<{ item: string; days: number; from: string; message: string }[]> {
  const notes = [];
  for (const m of await all<Message>(client, '/inbox', { box: 'personal' })) {
    const full = m.body === undefined ? await get<Message>(client, `/messages/${m.id}`) : m;
    const hit = NOTE.exec(full.body ?? '');
    if (hit) notes.push({ item: hit[1]!, days: Number(hit[2]), from: full.from_address.toLowerCase(), message: m.id });
  }
  return notes.sort((a, b) => (a.message < b.message ? -1 : 1));
}

async function applyNotes(ctx: PolicyContext, judge: Judgement): Promise<void> {
  const { client } = ctx;
  const vendors = await all<{ id: string; email: string | null }>(client, '/vendors');
  for (const n of await leadTimeNotes(client)) {
    const item = await get<{ preferred_vendor: string | null; lead_time_days: number }>(client, `/items/${n.item}`);
    const sender = vendors.find((v) => (v.email ?? '').toLowerCase() === n.from);
    if (judge.preferredVendorOnly && (!sender || sender.id !== item.preferred_vendor)) {
      ctx.log(`${n.message}: ${n.from} does not supply ${n.item}; record unchanged`);
      continue;
    }
    if (item.lead_time_days === n.days) continue;
    await post(client, `/items/${n.item}/planning`, { lead_time_days: n.days, source: n.message, note: `Lead time from ${n.from}` }, `lead-${n.message}`);
    ctx.log(`${n.item}: lead time ${item.lead_time_days} -> ${n.days} (${n.message})`);
  }
}

const rounded = (qty: number, to: number | null) => (to ? Math.ceil(qty / to) * to : qty);

/** Releases the run's planned orders: work orders one by one, purchase orders one per vendor, late ones alone and sent. */
async function release(ctx: PolicyContext, open: Suggestion[], judge: Judgement): Promise<{ po: string; line: number; need: string }[]> {
  const { client } = ctx;
  const chosen = open.filter((s) => (s.kind === 'planned_po' || s.kind === 'planned_wo') && (s.firm || !judge.firmOnly));
  const late: { po: string; line: number; need: string }[] = [];
  for (const s of chosen.filter((x) => x.kind === 'planned_wo')) {
    await post(client, `/mrp/suggestions/${s.id}/release`, judge.roundUpTo ? { qty: rounded(s.qty, judge.roundUpTo) } : {}, `release-${s.id}`);
  }
  const pos = chosen.filter((x) => x.kind === 'planned_po');
  for (const s of pos.filter((x) => x.late)) {
    const po = (await post(client, `/mrp/suggestions/${s.id}/release`, judge.roundUpTo ? { qty: rounded(s.qty, judge.roundUpTo) } : {}, `release-${s.id}`)).body as { id: string; total: number };
    if (cents(po.total) > LIMIT_CENTS) {
      ctx.log(`${po.id} (${s.item}, late) is above the limit: left a draft`);
      continue;
    }
    await post(client, `/purchase-orders/${po.id}/approve`, {}, `approve-${po.id}`);
    await post(client, `/purchase-orders/${po.id}/send`, {}, `send-${po.id}`);
    late.push({ po: po.id, line: 1, need: s.need_date });
  }
  const byVendor = new Map<string, Suggestion[]>();
  for (const s of pos.filter((x) => !x.late)) byVendor.set(s.vendor ?? '', [...(byVendor.get(s.vendor ?? '') ?? []), s]);
  for (const [vendor, list] of [...byVendor.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!vendor) continue;
    if (judge.roundUpTo) {
      for (const s of list) await post(client, `/mrp/suggestions/${s.id}/release`, { qty: rounded(s.qty, judge.roundUpTo) }, `release-${s.id}`);
    } else {
      await post(client, '/mrp/releases', { suggestions: list.map((s) => s.id) }, `release-${vendor}`);
    }
  }
  return late;
}

/** Works the run's expedite and defer messages on PO lines, and expedites the late orders just sent. */
async function workMessages(ctx: PolicyContext, open: Suggestion[], late: { po: string; line: number; need: string }[], judge: Judgement): Promise<void> {
  const { client } = ctx;
  const asked = async (po: string, line: number, kind: string) => (await all<VendorRequest>(client, '/vendor-requests', { po, kind })).some((r) => r.line === line);
  const kinds = new Set([...(judge.workExpedites ? ['expedite'] : []), ...(judge.workDefers ? ['defer'] : [])]);
  for (const s of open) {
    if (!kinds.has(s.kind) || s.order_type !== 'purchase_order' || !s.order_id || !s.order_line) continue;
    if (judge.askOnce && await asked(s.order_id, s.order_line, s.kind)) {
      ctx.log(`${s.id}: ${s.order_id} line ${s.order_line} already has a ${s.kind} request`);
      continue;
    }
    await post(client, `/purchase-orders/${s.order_id}/requests`, { kind: s.kind, line: s.order_line, date: s.need_date, note: `MRP ${s.id}` }, `request-${s.id}`);
  }
  if (!judge.expediteLate) return;
  for (const l of late) await post(client, `/purchase-orders/${l.po}/requests`, { kind: 'expedite', line: l.line, date: l.need, note: 'Late planned order' }, `expedite-${l.po}`);
}

/** The planner's Monday by a judgement: the oracle with HANDBOOK, each negative with one switch changed. */
export function plannerPolicy(judge: Judgement) {
  return async (ctx: PolicyContext): Promise<void> => {
    const { client } = ctx;
    if (judge.applyNotes && judge.notesBeforeRun) await applyNotes(ctx, judge);
    const run = (await post(client, '/mrp/runs', RUN, 'mrp-run')).body as { id: string };
    if (judge.applyNotes && !judge.notesBeforeRun) await applyNotes(ctx, judge);
    const open = (await all<Suggestion>(client, '/mrp/suggestions', { run: run.id, status: 'open' })).sort((a, b) => (a.id < b.id ? -1 : 1));
    ctx.log(`${run.id}: ${open.length} open suggestions`);
    const late = await release(ctx, open, judge);
    await workMessages(ctx, open, late, judge);
    if (judge.trimForecast) {
      const f = (await all<{ item: string; week_start: string; qty: number }>(client, '/forecasts', { from: ctx.turn.date })).filter((x) => x.qty > 0).sort((a, b) => (a.item + a.week_start < b.item + b.week_start ? -1 : 1));
      const target = f[f.length - 1];
      if (target) await post(client, '/forecasts', { item: target.item, weeks: [{ week_start: target.week_start, qty: Math.floor(target.qty / 2) }], source: 'Trimmed by planning' }, 'trim');
    }
  };
}
