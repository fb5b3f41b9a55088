import type { ErpClient } from '../../src/client/http-client';
import type { PolicyContext } from '../../src/task-pack/code';
import { money } from '../shared/draw';
import { cents, get, post } from '../shared/http';
import { accrualCents, ACCRUED_LIABILITIES, CARRIER_ADDRESS, FREIGHT_IN, parseSchedule, scheduleSubject, type Lane } from './lanes';

/**
 * The handbook's freight accruals (freight.md) as switches, so that each negative control turns
 * exactly one judgement off.
 */
export interface Judgement {
  /** FRT-1.2/month: the schedule of the month accrued (misread: the last one before it). */
  schedule: 'October 2026' | 'September 2026';
  /** FRT-1.1 broken: prepaid shippers' receipts accrued too, at the lowest lane rate. */
  accruePrepaid: boolean;
  /** FRT-1.3: entries dated the last day of the month (broken: the day they are booked). */
  entryDate: 'month_end' | 'today';
  /** FRT-2.1/reverse: accruals whose source changed are revised at all. */
  revise: boolean;
  /** FRT-2.1/date: the reversal is dated the last day of the month (broken: the day it is made). */
  reversalDate: 'month_end' | 'today';
  /** FRT-2.2: a changed accrual is corrected by reversing it (broken: a difference entry beside it). */
  correctBy: 'reversal' | 'difference';
  /** FRT-2.3 broken: every accrual is reversed and booked again, changed or not. */
  reviseAll: boolean;
  /** FRT-1.2/actual: a delivery MVF billed at its actual charge is accrued at that charge (misread: at the lane rate still). */
  actualReplacesRate: boolean;
  /** FRT-1.3: each accrual attaches its receipt and MVF's mail (misread: the receipt alone). */
  attachMail: boolean;
  /** FRT-1.3: one entry per receipt (misread: the accrual booked as two entries of half each). */
  entriesPerReceipt: 1 | 2;
}

export const HANDBOOK: Judgement = {
  schedule: 'October 2026', accruePrepaid: false, entryDate: 'month_end', revise: true, reversalDate: 'month_end', correctBy: 'reversal', reviseAll: false, actualReplacesRate: true, attachMail: true, entriesPerReceipt: 1,
};

const MONTH = { first: '2026-10-01', last: '2026-10-31' };

interface Receipt { id: string; po: string; vendor: string; date: string; status: string; total: number }
interface Entry { id: string; date: string; memo: string; status: string; total: number }
interface Mail { id: string; subject: string; from_address: string; sent_date: string }

async function all<T>(client: ErpClient, path: string, query: Record<string, string | number | boolean> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await get<{ items: T[]; total: number }>(client, path, { ...query, limit: 1000, offset });
    items.push(...page.items);
    if (items.length >= page.total || page.items.length === 0) return items;
  }
}

const carrierMail = async (client: ErpClient) => (await all<Mail>(client, '/inbox', { box: 'accounting' })).filter((m) => m.from_address === CARRIER_ADDRESS);
const body = async (client: ErpClient, id: string) => (await get<{ body: string }>(client, `/messages/${id}`)).body;

/** What the books need to know about the month: the schedule used, its lanes, the receipts, who shipped them. */
async function facts(client: ErpClient, judge: Judgement) {
  const mail = await carrierMail(client);
  const schedule = mail.find((m) => m.subject === scheduleSubject(judge.schedule));
  if (!schedule) throw new Error(`No MVF schedule for ${judge.schedule} in the accounting box.`);
  const lanes = parseSchedule(await body(client, schedule.id));
  const names = new Map((await all<{ id: string; name: string }>(client, '/vendors')).map((v) => [v.id, v.name]));
  const receipts = (await all<Receipt>(client, '/receipts')).filter((r) => r.date >= MONTH.first && r.date <= MONTH.last).sort((a, b) => a.id.localeCompare(b.id));
  const laneOf = (r: Receipt): Lane | undefined => lanes.find((l) => l.shippers.includes(names.get(r.vendor) ?? ''));
  return { mail, schedule, lanes, receipts, names, laneOf };
}

async function book(client: ErpClient, judge: Judgement, today: string, key: string, memo: string, amount: number, support: { kind: string; ref: string; description: string }[], reverse = false) {
  const [debit, credit] = reverse ? [ACCRUED_LIABILITIES, FREIGHT_IN] : [FREIGHT_IN, ACCRUED_LIABILITIES];
  const entry = (await post(client, '/journal-entries', {
    date: judge.entryDate === 'month_end' ? MONTH.last : today, memo,
    lines: [{ account: debit, debit: money(amount), ...(debit === FREIGHT_IN ? { department: 'PUR' } : {}) }, { account: credit, credit: money(amount), ...(credit === FREIGHT_IN ? { department: 'PUR' } : {}) }],
    attachments: support,
  }, key)).body as { id: string };
  await post(client, `/journal-entries/${entry.id}/submit`, { note: 'Freight accrual with the receipt and MVF\'s mail attached.' }, `submit-${entry.id}`);
  return entry.id;
}

/** Turn 1: one accrual per receipt of the month from a shipper on the schedule, submitted for approval. */
async function accrue(ctx: PolicyContext, judge: Judgement): Promise<void> {
  const { client } = ctx;
  const f = await facts(client, judge);
  const lowest = f.lanes.map((l) => l.rate).sort()[0]!;
  for (const r of f.receipts.filter((x) => x.status === 'posted')) {
    const lane = f.laneOf(r);
    if (!lane && !judge.accruePrepaid) continue;
    const amount = accrualCents(cents(r.total), lane?.rate ?? lowest);
    if (amount === 0) continue;
    const support = [
      { kind: 'receipt', ref: r.id, description: `Receipt of ${r.po}` },
      ...(judge.attachMail ? [{ kind: 'message', ref: f.schedule.id, description: `${judge.schedule} schedule, ${lane?.lane ?? 'no'} lane at ${lane?.rate ?? lowest}%` }] : []),
    ];
    const memo = `Freight accrual ${r.id}, ${f.names.get(r.vendor)}, lane ${lane?.lane ?? 'none'}`;
    const half = Math.floor(amount / 2);
    const parts = judge.entriesPerReceipt === 2 && half > 0 ? [half, amount - half] : [amount];
    for (const [i, part] of parts.entries()) {
      const id = await book(client, judge, ctx.turn.date, `accrue-${r.id}${i ? `-${i + 1}` : ''}`, memo, part, support);
      ctx.log(`${r.id}: ${id} ${money(part)}`);
    }
  }
}

/** Turn 2: post what was approved, then bring every accrual whose source changed up to date. */
async function revise(ctx: PolicyContext, judge: Judgement): Promise<void> {
  const { client } = ctx;
  const mine = (await all<Entry>(client, '/journal-entries', { created_by: (await get<{ user: { id: string } }>(client, '/whoami')).user.id }));
  for (const e of mine.filter((x) => x.status === 'approved')) await post(client, `/journal-entries/${e.id}/post`, {}, `post-${e.id}`);
  if (!judge.revise) return;
  const f = await facts(client, judge);
  const corrections = new Map<string, { rate: string; message: string }>();
  const bills = new Map<string, { charge: number; message: string }>();
  for (const m of f.mail.filter((x) => x.sent_date > MONTH.last)) {
    const text = await body(client, m.id);
    for (const c of text.matchAll(/rate for lane (L\d+) is (\d+\.\d{2})%/g)) corrections.set(c[1]!, { rate: c[2]!, message: m.id });
    const bill = /Your (PO-\d+) .*actual charge of \$([\d,]+\.\d{2})/.exec(text);
    if (bill) bills.set(bill[1]!, { charge: cents(Number(bill[2]!.replace(/,/g, ''))), message: m.id });
  }
  const receipts = new Map(f.receipts.map((r) => [r.id, r]));
  const live = (await all<Entry>(client, '/journal-entries', { status: 'posted' })).filter((e) => mine.some((m) => m.id === e.id));
  for (const entry of live) {
    const receipt = receipts.get(/RCV-\d+/.exec(entry.memo)?.[0] ?? '');
    if (!receipt) continue;
    const lane = f.laneOf(receipt);
    const correction = lane && corrections.get(lane.lane);
    const bill = bills.get(receipt.po);
    const changed = receipt.status === 'reversed' || correction !== undefined || bill !== undefined;
    if (!changed && !judge.reviseAll) continue;
    const rate = correction?.rate ?? lane?.rate;
    const figure = receipt.status === 'reversed' ? 0 : bill && judge.actualReplacesRate ? bill.charge : rate ? accrualCents(cents(receipt.total), rate) : 0;
    const was = cents(entry.total);
    const why = receipt.status === 'reversed' ? `${receipt.id} was reversed by the warehouse` : bill ? `MVF billed ${receipt.po} at its actual charge` : correction ? `MVF corrected lane ${lane!.lane} to ${correction.rate}%` : 'rebooked';
    const support = [{ kind: 'receipt', ref: receipt.id, description: `Receipt of ${receipt.po}` },
      { kind: 'message', ref: bill?.message ?? correction?.message ?? f.schedule.id, description: why }];
    const memo = `Freight accrual ${receipt.id}, ${f.names.get(receipt.vendor)}, lane ${lane?.lane ?? 'none'}, revised: ${why}`;
    if (judge.correctBy === 'difference') {
      if (figure !== was) await book(client, judge, ctx.turn.date, `difference-${receipt.id}`, memo, Math.abs(figure - was), support, figure < was);
      continue;
    }
    await post(client, `/journal-entries/${entry.id}/reverse`, { date: judge.reversalDate === 'month_end' ? MONTH.last : ctx.turn.date, reason: 'source_changed', note: why }, `reverse-${entry.id}`);
    if (figure > 0) await book(client, judge, ctx.turn.date, `rebook-${receipt.id}`, memo, figure, support);
    ctx.log(`${entry.id} (${receipt.id}) ${money(was)} -> ${money(figure)}: ${why}`);
  }
}

export function freightPolicy(judge: Judgement) {
  return async (ctx: PolicyContext): Promise<void> => (ctx.turn.index === 1 ? accrue(ctx, judge) : revise(ctx, judge));
}
