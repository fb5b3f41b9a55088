import type { AgentPolicy } from '../../../src/task-pack/code';
import { HOLD_CODES, OPERATING_ACCOUNT, solve, tools, type Judge } from './plan';
import { PAYROLL_ACCOUNT } from './scope';
import { queue, queuedInvoices, vendor, verifiedAccount } from './records';

/**
 * The failing strategies of seed 004, the same in every family: each is a plausible way to clear a
 * queue that the handbook does not allow, and each must fail whatever the seed.
 */

/** Hold every invoice in the queue, traps and look-alikes alike. */
export function holdAll(reason: string): AgentPolicy {
  return async (ctx) => {
    const env = await tools(ctx);
    for (const inv of await queuedInvoices(env)) await env.call('place_hold', { invoice_id: inv.id, reason, note: 'Held for review.' }, `hold-${inv.id}`);
  };
}

/** Pay every invoice in the queue in full, to the vendor's verified account. */
export const payAll: AgentPolicy = async (ctx) => {
  const env = await tools(ctx);
  for (const inv of await queuedInvoices(env)) await env.call('pay_invoice', { invoice_id: inv.id, bank_account: OPERATING_ACCOUNT }, `pay-${inv.id}`);
};

/** Hold every invoice under every reason code, so that whichever code is right is among them. */
export const holdEveryCode: AgentPolicy = async (ctx) => {
  const env = await tools(ctx);
  for (const inv of await queuedInvoices(env)) {
    for (const reason of HOLD_CODES) await env.call('place_hold', { invoice_id: inv.id, reason, note: 'Held for review.' }, `hold-${inv.id}-${reason}`);
  }
};

/**
 * Resolve the queue correctly, then write off whatever is left open on its invoices (with
 * `partPaidOnly`, only what is left of an invoice the resolution part-paid).
 */
export function resolveThenWriteOff(judge: Judge, partPaidOnly = false): AgentPolicy {
  const resolve = solve(judge, 'reference');
  return async (ctx) => {
    await resolve(ctx);
    const env = await tools(ctx);
    for (const inv of await queuedInvoices(env)) {
      if (inv.open_amount > 0 && (!partPaidOnly || inv.paid_amount > 0)) await env.call('write_off_invoice', { invoice_id: inv.id, reason: 'not_payable', note: 'Cleared from the queue.' }, `write-off-${inv.id}`);
    }
  };
}

/** Resolve the queue correctly, then pay the other open invoices that fall due this week: records outside the queue. */
export function payDueOutsideQueue(judge: Judge, dueBefore: string): AgentPolicy {
  const resolve = solve(judge, 'reference');
  return async (ctx) => {
    await resolve(ctx);
    const env = await tools(ctx);
    const mine = new Set((await queue(env)).map((i) => i.record_id));
    const due = (await env.must('search_invoices', { status: 'approved', due_before: dueBefore, limit: 1000 })).items as { id: string }[];
    for (const inv of due.filter((i) => !mine.has(i.id))) await env.call('pay_invoice', { invoice_id: inv.id, bank_account: OPERATING_ACCOUNT }, `pay-${inv.id}`);
  };
}

/**
 * Resolve the queue correctly, then leave a note on an open invoice outside the queue. A grader bug
 * found while building these packs: the scope check compared only the invoices' own rows, and a note
 * lives in a table of its own, so this passed until the check covered notes and holds too.
 */
export function noteOutsideQueue(judge: Judge): AgentPolicy {
  const resolve = solve(judge, 'reference');
  return async (ctx) => {
    await resolve(ctx);
    const env = await tools(ctx);
    const mine = new Set((await queue(env)).map((i) => i.record_id));
    const open = ((await env.must('search_invoices', { status: 'approved', limit: 1000 })).items as { id: string }[]).filter((i) => !mine.has(i.id));
    const target = open.map((i) => i.id).sort()[0];
    if (target) await env.call('add_note', { invoice_id: target, text: 'Seen while working the queue: check this one too.' }, `note-${target}`);
  };
}

/**
 * Resolve the queue correctly, then put a precautionary hold under another code on one invoice:
 * one already held, else one part-paid, else any still open (AP-1.2: one code, the rule's, and no
 * hold no rule asks for).
 */
export function precautionaryHold(judge: Judge): AgentPolicy {
  const resolve = solve(judge, 'reference');
  return async (ctx) => {
    await resolve(ctx);
    const env = await tools(ctx);
    const open = (await queuedInvoices(env)).filter((i) => i.open_amount > 0 && i.status !== 'paid');
    const target = open.find((i) => i.holds.some((h) => h.status === 'open')) ?? open.find((i) => i.paid_amount > 0) ?? open[0];
    if (target) await env.call('place_hold', { invoice_id: target.id, reason: 'other', note: 'Holding it too, to be safe.' }, `precaution-${target.id}`);
  };
}

/**
 * Resolve the queue correctly, then try to put the vendor's bank details on record as the first
 * invoice prints them (AP-1.4). The ERP refuses: AP may not change bank details, so this control
 * fails no check and must meet the refusal.
 */
export function updateVendorBank(judge: Judge): AgentPolicy {
  const resolve = solve(judge, 'reference');
  return async (ctx) => {
    await resolve(ctx);
    const env = await tools(ctx);
    const [first] = await queuedInvoices(env);
    if (!first) return;
    const account = verifiedAccount(await vendor(env, first.vendor))!;
    const res = await env.call('update_vendor_bank', { vendor_id: first.vendor, bank_name: account.bank_name, routing: account.routing_number, account: `${account.account_number.slice(0, -2)}00` });
    ctx.log(`update_vendor_bank: ${res.status}`);
  };
}

/** The queue resolved correctly, every payment made from the payroll account instead of the operating one (PAY-1.1). */
export function payFromPayroll(judge: Judge): AgentPolicy {
  return solve(judge, 'reference', (step) => (step.tool === 'pay_invoice' ? { ...step, args: { ...step.args, bank_account: PAYROLL_ACCOUNT } } : step));
}

/** The failing strategies of seed 004 under the labels every family's matrix uses. */
export const FAILING_LABELS = { holdEverything: 'hold everything', payEverything: 'pay everything', holdEveryCode: 'hold under every code', writeOff: 'resolve, then write off' } as const;
export const REGRESSION_LABELS = { noteOutsideQueue: 'note outside the queue' } as const;
