import type { AgentPolicy, PolicyContext } from '../../src/task-pack/code';
import { money } from '../shared/draw';
import { cents, get } from '../shared/http';
import { decideBankChanges, HANDBOOK_BANK, type BankJudgement } from './bank-changes';
import { FLOOR } from './generate';
import { candidates, HANDBOOK_RUN, runDates, selectRun, type Payable, type Proposal, type RunJudgement } from './run-rules';
import { send, type Retry } from './send';

/** How turn 2 prepares the run, beyond which invoices it selects (run-rules.ts). */
export interface RunHabits {
  /** PAY-1.1: the run's payment date, the next business day; or (the mistake) today. */
  paymentDate: 'next_business_day' | 'today';
  /** PAY-1.1: the company account the run pays from. */
  bankAccount: string;
  /** PAY-1.1: submit the run for approval (misread: leave it a draft for the controller to find). */
  submit: boolean;
  /** PAY-2.3 broken: release the holds other users placed on invoices that fall due, then select. */
  releaseHolds: boolean;
  /** PAY-2.4 broken: put what is left above the floor into the first invoice that did not fit, as a part payment. */
  partPayMisfit: boolean;
  /** TRE-1.3 broken: hold the invoices left out for the floor, so that nobody pays them by mistake. */
  holdMisfits: boolean;
}

export const HANDBOOK_HABITS: RunHabits = { paymentDate: 'next_business_day', bankAccount: 'BANK-OP', submit: true, releaseHolds: false, partPayMisfit: false, holdMisfits: false };

interface Listed { id: string; vendor: string; open_amount: number; due_date: string; discount_date: string | null; discount_amount: number }

/** Releases every open hold on an invoice that is approved and would fall due: what PAY-2.3 forbids. */
async function releaseHolds(ctx: PolicyContext, retry: Retry): Promise<void> {
  const holds = (await get<{ items: { id: string; invoice: string }[] }>(ctx.client, '/holds', { status: 'open', limit: 1000 })).items;
  for (const h of holds) {
    const inv = await get<{ lifecycle: string }>(ctx.client, `/ap-invoices/${h.invoice}`);
    if (inv.lifecycle !== 'approved') continue;
    await send(ctx.client, `/holds/${h.id}/release`, { note: 'Released for the payment run.' }, `release-${h.id}`, retry);
  }
}

async function prepareRun(ctx: PolicyContext, judge: RunJudgement, habits: RunHabits, retry: Retry): Promise<void> {
  const { client } = ctx;
  if (habits.releaseHolds) await releaseHolds(ctx, retry);
  const calendar = await get<{ workdays: number[]; holidays: { date: string }[] }>(client, '/calendar');
  const holidays = new Set(calendar.holidays.map((h) => h.date));
  const isBusinessDay = (day: string) => {
    const w = new Date(`${day}T00:00:00Z`).getUTCDay();
    return calendar.workdays.includes(w === 0 ? 7 : w) && !holidays.has(day);
  };
  const dates = runDates(ctx.turn.date, isBusinessDay);
  // Approved and not on hold; disputes are the judgement's to weigh (PAY-2.3), so they are listed too.
  const list = (await get<{ items: Listed[] }>(client, '/ap-invoices', { status: 'approved', limit: 1000 })).items;
  const disputed = new Set((await get<{ items: { invoice: string }[] }>(client, '/disputes', { status: 'open', limit: 1000 })).items.map((x) => x.invoice));
  const invoices: Payable[] = list.map((i) => ({ id: i.id, vendor: i.vendor, open: cents(i.open_amount), due: i.due_date, discountDate: i.discount_date, discount: cents(i.discount_amount), onHold: false, disputed: disputed.has(i.id) }));
  const cash = await get<{ rows: { bank_account: string; book_balance: number }[] }>(client, '/reports/cash-position');
  // TRE-1.1 measures the operating account, whichever account a mistaken run pays from.
  const room = cents(cash.rows.find((r) => r.bank_account === 'BANK-OP')!.book_balance) - FLOOR;
  const proposals: Proposal[] = selectRun(invoices, dates, room, judge);
  const misfits = candidates(invoices, dates, judge).filter((c) => !proposals.some((p) => p.invoice === c.invoice));
  const left = room - proposals.reduce((s, p) => s + p.amount, 0);
  if (habits.partPayMisfit && misfits[0] && left > 0) proposals.push({ ...misfits[0], amount: left, discount: 0 });
  if (habits.holdMisfits) {
    for (const m of misfits) await send(client, `/ap-invoices/${m.invoice}/holds`, { reason: 'other', note: 'Left out of this run for the cash floor.' }, `hold-${m.invoice}`, retry);
  }
  ctx.log(`room ${money(room)}; paying ${proposals.map((p) => p.invoice).join(', ')}`);
  if (proposals.length === 0) return;
  const run = (await send(client, '/payment-runs', {
    payment_date: habits.paymentDate === 'today' ? dates.today : dates.paymentDate, bank_account: habits.bankAccount, note: `Weekly run ${ctx.turn.date}`,
    items: proposals.map((p) => ({ invoice: p.invoice, amount: money(p.amount), discount: money(p.discount) })),
  }, `run-${ctx.turn.date}`, retry)).body as { id: string };
  if (habits.submit) await send(client, `/payment-runs/${run.id}/submit`, { note: 'For your approval.' }, `submit-${run.id}`, retry);
}

export interface PaymentRunJudgement {
  bank: BankJudgement;
  run: RunJudgement;
  habits: RunHabits;
  retry: Retry;
}

export const HANDBOOK: PaymentRunJudgement = { bank: HANDBOOK_BANK, run: HANDBOOK_RUN, habits: HANDBOOK_HABITS, retry: 'same-key' };

/** The handbook's judgement with some of its parts changed: how each negative control is written. */
export function changed(parts: { bank?: Partial<BankJudgement>; run?: Partial<RunJudgement>; habits?: Partial<RunHabits>; retry?: Retry }): PaymentRunJudgement {
  return { bank: { ...HANDBOOK.bank, ...parts.bank }, run: { ...HANDBOOK.run, ...parts.run }, habits: { ...HANDBOOK.habits, ...parts.habits }, retry: parts.retry ?? HANDBOOK.retry };
}

/** Turn 1 decides the bank changes (or the turn the judgement says), turn 2 prepares the run; each negative switches one judgement. */
export function paymentRunPolicy(judge: PaymentRunJudgement): AgentPolicy {
  return async (ctx) => {
    if (ctx.turn.index === judge.bank.decideOnTurn) await decideBankChanges(ctx, judge.bank, judge.retry);
    if (ctx.turn.index === 2) await prepareRun(ctx, judge.run, judge.habits, judge.retry);
  };
}
