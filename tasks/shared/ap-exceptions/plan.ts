import type { AgentPolicy, PolicyContext } from '../../../src/task-pack/code';
import { invoiceItems, queue, type QueueItem } from './records';
import { ToolEnv } from './tools';

/** One tool call a decision makes, with the Idempotency-Key it is sent under. */
export interface Step {
  tool: string;
  args: Record<string, unknown>;
}

/** What the handbook says to do with one queue item, and the calls that do it. */
export interface Decision {
  item: QueueItem;
  outcome: string;
  steps: Step[];
}

/**
 * A family's judgement: reads the queue and decides every item. `equivalent` asks for other calls
 * with the same effect (hold before flag, an account named by id, a memo by amount), so that a
 * second valid solution can be checked against the same grader.
 */
export type Judge = (env: ToolEnv, options: { equivalent: boolean }) => Promise<Decision[]>;

/** A judge that decides each invoice of the queue on its own, in queue order. */
export function perInvoice(decide: (env: ToolEnv, item: QueueItem, equivalent: boolean) => Promise<Decision>): Judge {
  return async (env, { equivalent }) => {
    const out: Decision[] = [];
    for (const item of await invoiceItems(env)) out.push(await decide(env, item, equivalent));
    return out;
  };
}

export const OPERATING_ACCOUNT = 'BANK-OP';
/** Every reason code a hold may carry. */
export const HOLD_CODES = ['price_variance', 'quantity_variance', 'awaiting_receipt', 'duplicate', 'tax', 'bank_details_unverified', 'non_po_approval', 'disputed', 'other'] as const;

const keyOf = (step: Step, n: number) => `${step.tool}-${String(step.args.invoice_id ?? step.args.statement_line_id ?? 'x')}-${n}`;

export async function run(env: ToolEnv, steps: readonly Step[]): Promise<void> {
  for (const [n, step] of steps.entries()) await env.call(step.tool, step.args, keyOf(step, n));
}

/** Opens the tool surface for a turn, logging every write to the turn's stdout. */
export const tools = (ctx: PolicyContext) => ToolEnv.open(ctx.client, ctx.log);

/** The order a batched solution makes its calls in: notes and flags, then holds, then money. */
const BATCH_ORDER = ['add_note', 'flag_duplicate', 'place_hold', 'create_debit_memo', 'pay_invoice', 'record_bank_payment'];

export type SolveMode = 'reference' | 'reverse' | 'equivalent' | 'thorough' | 'batched';

/**
 * A valid solution from a family's judgement. `reference` works the queue in order; `reverse` from
 * the end; `equivalent` with other calls of the same effect; `thorough` reads everything first and
 * leaves a working note on every item; `batched` decides everything, then makes all calls of one
 * tool before the next. `rewrite` changes each call the judgement makes (a negative control's habit).
 */
export function solve(judge: Judge, mode: SolveMode, rewrite: (step: Step) => Step = (step) => step): AgentPolicy {
  return async (ctx) => {
    const env = await tools(ctx);
    if (mode === 'thorough') await readAround(env);
    const decisions = (await judge(env, { equivalent: mode === 'equivalent' })).map((d) => ({ ...d, steps: d.steps.map(rewrite) }));
    if (mode === 'batched') {
      const all = decisions.flatMap((d) => d.steps);
      await run(env, [...all].sort((a, b) => BATCH_ORDER.indexOf(a.tool) - BATCH_ORDER.indexOf(b.tool)));
      return;
    }
    for (const d of mode === 'reverse' ? [...decisions].reverse() : decisions) {
      if (mode === 'thorough' && d.item.record_type === 'ap_invoice') {
        await env.call('add_note', { invoice_id: d.item.record_id, text: `Worked from the AP queue: ${d.outcome}.` });
      }
      await run(env, d.steps);
      ctx.log(`${d.item.record_id}: ${d.outcome}`);
    }
  };
}

/** Extra reads a careful clerk makes: the bank feed, each vendor, its other invoices, the PO and its receipts. */
async function readAround(env: ToolEnv): Promise<void> {
  await env.must('list_bank_feed', { limit: 1000 });
  for (const item of await queue(env)) {
    if (item.record_type !== 'ap_invoice') continue;
    const inv = await env.must('get_invoice', { invoice_id: item.record_id });
    await env.must('get_vendor', { vendor_id: inv.vendor });
    await env.must('search_invoices', { vendor: inv.vendor, limit: 1000 });
    if (inv.source_message) await env.must('get_invoice_document', { message_id: inv.source_message });
    if (!inv.po) continue;
    const po = await env.must('get_purchase_order', { po_id: inv.po });
    for (const r of po.receipts as { id: string }[]) await env.must('get_receipt', { receipt_id: r.id });
  }
}
