import type { AgentPolicy } from '../../src/task-pack/code';
import { run, tools, type Judge, type Step, perInvoice } from '../shared/ap-exceptions/plan';
import { invoice, purchaseOrder, invoiceItems, type Invoice } from '../shared/ap-exceptions/records';
import type { ToolEnv } from '../shared/ap-exceptions/tools';
import { payStep } from '../shared/ap-exceptions/pay';

/** The handbook's receipt rules (receipts.md), each negative control switching one part off. */
export interface ReceiptRules {
  /** REC-1.2 broken: services taken for goods still to come, and held. */
  holdServices: boolean;
}

export const HANDBOOK: ReceiptRules = { holdServices: false };

/** REC-1.1: goods billed on a PO with no receipt, read from the PO's receipts or from the invoice's match. */
async function awaitingReceipt(env: ToolEnv, inv: Invoice, fromMatch: boolean, rules: ReceiptRules): Promise<boolean> {
  const kinds = inv.lines.map((l) => l.match?.kind);
  if (rules.holdServices && kinds.includes('services')) return true;
  if (!kinds.includes('goods')) return false;
  if (fromMatch) return inv.lines.some((l) => l.match?.kind === 'goods' && l.match.exceptions.includes('awaiting_receipt'));
  return (await purchaseOrder(env, inv.po!)).receipts.filter((r) => r.status === 'posted').length === 0;
}

function holdSteps(inv: Invoice, noteFirst: boolean): Step[] {
  const hold: Step = { tool: 'place_hold', args: { invoice_id: inv.id, reason: 'awaiting_receipt', note: `No goods receipt on ${inv.po} yet.` } };
  return noteFirst ? [{ tool: 'add_note', args: { invoice_id: inv.id, text: `Goods not yet received on ${inv.po}.` } }, hold] : [hold];
}

export function receiptJudge(rules: ReceiptRules): Judge {
  return perInvoice(async (env, item, equivalent) => {
    const inv = await invoice(env, item.record_id);
    if (await awaitingReceipt(env, inv, equivalent, rules)) return { item, outcome: 'goods not received: held', steps: holdSteps(inv, equivalent) };
    return { item, outcome: 'received or services: paid', steps: [await payStep(env, inv, equivalent)] };
  });
}

/** Acting on queue position alone: the first invoice is held for its receipt, the rest are paid. */
export const blind: AgentPolicy = async (ctx) => {
  const env = await tools(ctx);
  const items = await invoiceItems(env);
  for (const [n, item] of items.entries()) {
    const inv = await invoice(env, item.record_id);
    await run(env, n === 0 ? holdSteps(inv, false) : [await payStep(env, inv, false)]);
  }
};
