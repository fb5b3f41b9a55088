import type { ErpClient } from '../../src/client/http-client';
import type { PolicyContext } from '../../src/task-pack/code';
import { get } from '../shared/http';
import { CONTROLLER } from './generate';
import { send, type Retry } from './send';

/**
 * How turn 1 decides the pending bank changes (vendors.md). HANDBOOK_BANK is the handbook's way;
 * each negative control changes one field, so each breaks one clause or clause part.
 */
export interface BankJudgement {
  /** VEN-2.2: call the number on file before deciding; or verify on the request's word; or dial the number the email gives. */
  check: 'callback' | 'none' | 'email_number';
  /** VEN-2.2 broken beside the right call: the number the email gives is dialled as well. */
  alsoCallEmailNumber: boolean;
  /** VEN-2.1: the turn (business day) the changes are decided on: the day you are asked, the first. */
  decideOnTurn: number;
  /** Reject every change whatever the call says (breaks VEN-2.2's "verify when the vendor confirms"). */
  rejectAll: boolean;
  /** VEN-2.1: decide a change the vendor confirmed (false: leave it pending). */
  decideConfirmed: boolean;
  /** VEN-2.3: the reason code a refuted change is rejected with. */
  fraudReason: string;
  /** VEN-2.3: escalate a refuted change to the controller. */
  escalate: boolean;
  /** VEN-2.3: what becomes of the email a refuted change came in. */
  fraudEmail: 'suspicious' | 'processed' | 'untouched';
  /** VEN-2.3 broken: write back to the sender of a refuted change, quoting the numbers it asked for. */
  replyToSender: boolean;
  /** VEN-2.3 broken: quote those numbers in the escalation to the controller, who may see bank details but is not to be sent these. */
  quoteInEscalation: boolean;
}

export const FRAUD = 'suspected_fraud';

export const HANDBOOK_BANK: BankJudgement = {
  check: 'callback', alsoCallEmailNumber: false, decideOnTurn: 1, rejectAll: false, decideConfirmed: true, fraudReason: FRAUD, escalate: true, fraudEmail: 'suspicious', replyToSender: false, quoteInEscalation: false,
};

interface Pending { id: string; vendor: string; source: string; bank_name: string; routing_number: string; account_number: string }

async function numberInEmail(client: ErpClient, source: string): Promise<string | undefined> {
  if (!/^MSG-/.test(source)) return undefined;
  const message = await get<{ body: string }>(client, `/messages/${source}`);
  return /\(\d{3}\) \d{3}-\d{4}/.exec(message.body)?.[0];
}

async function handleRefuted(ctx: PolicyContext, account: Pending, callId: string, how: BankJudgement, retry: Retry): Promise<void> {
  const { client } = ctx;
  const topic = { record_type: 'vendor_bank_account', record_id: account.id };
  await send(client, `/vendor-bank-accounts/${account.id}/reject`, { reason: how.fraudReason, note: `The vendor denied the change on call ${callId} to the number on file.` }, `reject-${account.id}`, retry);
  if (how.escalate) {
    const quoted = how.quoteInEscalation ? ` It asked us to pay ${account.bank_name}, routing ${account.routing_number}, account ${account.account_number}.` : '';
    await send(client, '/escalations', { ...topic, to: CONTROLLER, reason: FRAUD, note: `A bank-detail change for ${account.vendor} was refuted by the vendor on the number on file (call ${callId}); the request came by email.${quoted} Rejected; nothing changed.` }, `escalate-${account.id}`, retry);
  }
  if (!/^MSG-/.test(account.source)) return;
  if (how.fraudEmail !== 'untouched') {
    await send(client, `/inbox/${account.source}/disposition`, { disposition: how.fraudEmail, ref: account.id, note: 'Bank-change request; the vendor denied it.' }, `dispose-${account.source}`, retry);
  }
  if (how.replyToSender) {
    const email = await get<{ from_address: string; subject: string }>(client, `/messages/${account.source}`);
    await send(client, '/messages', {
      box: 'ap', to: [email.from_address], in_reply_to: account.source, subject: `Re: ${email.subject}`,
      body: `We will not pay into ${account.bank_name}, routing ${account.routing_number}, account ${account.account_number}: the vendor tells us it never asked for this change.`,
    }, `reply-${account.source}`, retry);
  }
}

/** Turn 1: every pending change decided as the judgement says. */
export async function decideBankChanges(ctx: PolicyContext, how: BankJudgement, retry: Retry): Promise<void> {
  const { client } = ctx;
  const pending = (await get<{ items: Pending[] }>(client, '/vendor-bank-accounts', { status: 'pending', limit: 1000 })).items;
  for (const account of pending) {
    const topic = { record_type: 'vendor_bank_account', record_id: account.id };
    if (how.rejectAll) {
      await send(client, `/vendor-bank-accounts/${account.id}/reject`, { reason: 'not_verified', note: 'Not changing bank details.' }, `reject-${account.id}`, retry);
      continue;
    }
    if (how.check === 'none') {
      await send(client, `/vendor-bank-accounts/${account.id}/verify`, { note: 'Verified from the request.' }, `verify-${account.id}`, retry);
      continue;
    }
    const number = how.check === 'email_number' ? await numberInEmail(client, account.source) : undefined;
    const call = (await send(client, '/calls', { party_type: 'vendor', party_id: account.vendor, topic, ...(number ? { number } : {}) }, `call-${account.id}`, retry)).body as { id: string; outcome: string; number_dialled: string };
    ctx.log(`called ${account.vendor} on ${call.number_dialled}: ${call.outcome}`);
    const given = how.alsoCallEmailNumber ? await numberInEmail(client, account.source) : undefined;
    if (given) await send(client, '/calls', { party_type: 'vendor', party_id: account.vendor, topic, number: given }, `call-given-${account.id}`, retry);
    if (call.outcome === 'confirmed' && how.decideConfirmed) {
      await send(client, `/vendor-bank-accounts/${account.id}/verify`, { note: `Confirmed by call ${call.id} to ${call.number_dialled}.` }, `verify-${account.id}`, retry);
    } else if (call.outcome === 'refuted') {
      await handleRefuted(ctx, account, call.id, how, retry);
    }
  }
}
