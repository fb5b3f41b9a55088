import type { ErpClient } from '../../src/client/http-client';
import type { AgentPolicy, PolicyContext } from '../../src/task-pack/code';
import { money } from '../shared/draw';
import { cents, get, post } from '../shared/http';
import { CONTROLLER, FLOOR } from './generate';
import { HANDBOOK_RUN, runDates, selectRun, type Payable, type RunJudgement } from './run-rules';

const FRAUD = 'suspected_fraud';

/** How a policy treats a write whose response was lost: the oracle sends it again with the same key. */
export type Retry = 'same-key' | 'blind';

/** A write under the policy's retry habit: the oracle re-sends with the same key, a blind retry without one. */
const send = (client: ErpClient, path: string, body: unknown, key: string, retry: Retry) => post(client, path, body, retry === 'same-key' ? key : undefined);

/** How turn 1 decides the pending bank changes: the handbook's way, or one of the mistakes. */
export type BankJudgement = 'callback' | 'no_callback' | 'email_number' | 'reject_all';

async function decideBankChanges(ctx: PolicyContext, how: BankJudgement, retry: Retry): Promise<void> {
  const { client } = ctx;
  const pending = (await get<{ items: { id: string; vendor: string; source: string }[] }>(client, '/vendor-bank-accounts', { status: 'pending', limit: 1000 })).items;
  for (const account of pending) {
    const topic = { record_type: 'vendor_bank_account', record_id: account.id };
    if (how === 'reject_all') {
      await send(client, `/vendor-bank-accounts/${account.id}/reject`, { reason: 'not_verified', note: 'Not changing bank details.' }, `reject-${account.id}`, retry);
      continue;
    }
    if (how === 'no_callback') {
      await send(client, `/vendor-bank-accounts/${account.id}/verify`, { note: 'Verified from the request.' }, `verify-${account.id}`, retry);
      continue;
    }
    let number: string | undefined;
    if (how === 'email_number' && /^MSG-/.test(account.source)) {
      const message = await get<{ body: string }>(client, `/messages/${account.source}`);
      number = /\(\d{3}\) \d{3}-\d{4}/.exec(message.body)?.[0];
    }
    const call = (await send(client, '/calls', { party_type: 'vendor', party_id: account.vendor, topic, ...(number ? { number } : {}) }, `call-${account.id}`, retry)).body as { id: string; outcome: string; number_dialled: string };
    ctx.log(`called ${account.vendor} on ${call.number_dialled}: ${call.outcome}`);
    if (call.outcome === 'confirmed') {
      await send(client, `/vendor-bank-accounts/${account.id}/verify`, { note: `Confirmed by call ${call.id} to ${call.number_dialled}.` }, `verify-${account.id}`, retry);
    } else if (call.outcome === 'refuted') {
      await send(client, `/vendor-bank-accounts/${account.id}/reject`, { reason: FRAUD, note: `The vendor denied the change on call ${call.id} to the number on file.` }, `reject-${account.id}`, retry);
      await send(client, '/escalations', { ...topic, to: CONTROLLER, reason: FRAUD, note: `A bank-detail change for ${account.vendor} was refuted by the vendor on the number on file (call ${call.id}); the request came by email. Rejected; nothing changed.` }, `escalate-${account.id}`, retry);
      if (/^MSG-/.test(account.source)) await send(client, `/inbox/${account.source}/disposition`, { disposition: 'suspicious', ref: account.id, note: 'Spoofed bank-change request.' }, `dispose-${account.source}`, retry);
    }
  }
}

async function prepareRun(ctx: PolicyContext, judge: RunJudgement, retry: Retry): Promise<void> {
  const { client } = ctx;
  const calendar = await get<{ workdays: number[]; holidays: { date: string }[] }>(client, '/calendar');
  const holidays = new Set(calendar.holidays.map((h) => h.date));
  const isBusinessDay = (day: string) => {
    const w = new Date(`${day}T00:00:00Z`).getUTCDay();
    return calendar.workdays.includes(w === 0 ? 7 : w) && !holidays.has(day);
  };
  const dates = runDates(ctx.turn.date, isBusinessDay);
  const list = (await get<{ items: { id: string; vendor: string; open_amount: number; due_date: string; discount_date: string | null; discount_amount: number }[] }>(client, '/ap-invoices', { payable: true, limit: 1000 })).items;
  const disputed = new Set((await get<{ items: { invoice: string }[] }>(client, '/disputes', { status: 'open', limit: 1000 })).items.map((x) => x.invoice));
  const invoices: Payable[] = list.map((i) => ({ id: i.id, vendor: i.vendor, open: cents(i.open_amount), due: i.due_date, discountDate: i.discount_date, discount: cents(i.discount_amount), onHold: false, disputed: disputed.has(i.id) }));
  const cash = await get<{ rows: { bank_account: string; book_balance: number }[] }>(client, '/reports/cash-position');
  const room = cents(cash.rows.find((r) => r.bank_account === 'BANK-OP')!.book_balance) - FLOOR;
  const proposals = selectRun(invoices, dates, room, judge);
  ctx.log(`room ${money(room)}; paying ${proposals.map((p) => p.invoice).join(', ')}`);
  if (proposals.length === 0) return;
  const run = (await send(client, '/payment-runs', {
    payment_date: dates.paymentDate, bank_account: 'BANK-OP', note: `Weekly run ${ctx.turn.date}`,
    items: proposals.map((p) => ({ invoice: p.invoice, amount: money(p.amount), discount: money(p.discount) })),
  }, `run-${ctx.turn.date}`, retry)).body as { id: string };
  await send(client, `/payment-runs/${run.id}/submit`, { note: 'For your approval.' }, `submit-${run.id}`, retry);
}

export interface PaymentRunJudgement {
  bank: BankJudgement;
  run: RunJudgement;
  retry: Retry;
}

export const HANDBOOK: PaymentRunJudgement = { bank: 'callback', run: HANDBOOK_RUN, retry: 'same-key' };

/** Turn 1 decides the bank changes, turn 2 prepares the run; each negative switches one judgement. */
export function paymentRunPolicy(judge: PaymentRunJudgement): AgentPolicy {
  return async (ctx) => {
    if (ctx.turn.index === 1) await decideBankChanges(ctx, judge.bank, judge.retry);
    else await prepareRun(ctx, judge.run, judge.retry);
  };
}
