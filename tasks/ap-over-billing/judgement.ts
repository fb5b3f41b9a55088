import type { AgentPolicy } from '../../src/task-pack/code';
import { run, tools, type Judge, type Step, perInvoice } from '../shared/ap-exceptions/plan';
import { payStep } from '../shared/ap-exceptions/pay';
import { cents, invoice, money, purchaseOrder, invoiceItems, type Invoice, type PurchaseOrder } from '../shared/ap-exceptions/records';
import type { ToolEnv } from '../shared/ap-exceptions/tools';

/** The handbook's matching rules (matching.md), each negative control switching one part off. */
export interface MatchingRules {
  /** MAT-1.2: pay only the units received. */
  shortPay: boolean;
  /** MAT-1.2: a debit memo for the units not received. */
  memo: boolean;
  /** MAT-1.3 broken: settle a price variance with a memo for the difference and pay the rest. */
  memoPriceDifference: boolean;
  /** MAT-1.3: how far a unit price may differ from the PO's before the invoice is held (2%; misread, any difference). */
  toleranceBp: number;
}

export const HANDBOOK: MatchingRules = { shortPay: true, memo: true, memoPriceDifference: false, toleranceBp: 200 };

interface LineCheck { poLine: number; billedQty: number; receivedQty: number; poPrice: number; billedPrice: number; billedAmount: number }

function lineChecks(inv: Invoice, po: PurchaseOrder): LineCheck[] {
  return inv.lines.filter((l) => l.po_line !== null).map((l) => {
    const p = po.lines.find((x) => x.line === l.po_line)!;
    return { poLine: l.po_line!, billedQty: l.qty, receivedQty: p.received_qty, poPrice: cents(p.unit_price), billedPrice: cents(l.unit_price), billedAmount: cents(l.amount) };
  });
}

/** MAT-1.2: the received units at PO price, and a memo for the rest (by line, or by amount). */
async function shortPay(env: ToolEnv, inv: Invoice, lines: LineCheck[], rules: MatchingRules, equivalent: boolean): Promise<Step[]> {
  const over = lines.filter((l) => l.billedQty > l.receivedQty);
  const payCents = lines.reduce((s, l) => s + (l.billedQty > l.receivedQty ? Math.round(l.receivedQty * l.poPrice) : l.billedAmount), 0);
  const memoCents = over.reduce((s, l) => s + Math.round((l.billedQty - l.receivedQty) * l.poPrice), 0);
  if (!rules.shortPay) return [await payStep(env, inv, equivalent, cents(inv.open_amount))];
  const pay = await payStep(env, inv, equivalent, payCents);
  if (!rules.memo) return [pay];
  const note = `Billed ${over.map((l) => `${l.billedQty} units on PO line ${l.poLine}, ${l.receivedQty} received`).join('; ')}.`;
  const memo: Step = equivalent
    ? { tool: 'create_debit_memo', args: { invoice_id: inv.id, amount: money(memoCents), reason: 'units_not_received', note } }
    : { tool: 'create_debit_memo', args: { invoice_id: inv.id, lines: over.map((l) => ({ po_line: l.poLine, qty: l.billedQty - l.receivedQty })), reason: 'units_not_received', note } };
  return equivalent ? [pay, memo] : [memo, pay];
}

export function matchingJudge(rules: MatchingRules): Judge {
  return perInvoice(async (env, item, equivalent) => {
    const inv = await invoice(env, item.record_id);
    const lines = lineChecks(inv, await purchaseOrder(env, inv.po!));
    const offPrice = lines.filter((l) => Math.abs(l.billedPrice - l.poPrice) * 10000 > l.poPrice * rules.toleranceBp);
    if (lines.some((l) => l.billedQty > l.receivedQty)) {
      return { item, outcome: 'billed beyond receipts: short-paid with a debit memo', steps: await shortPay(env, inv, lines, rules, equivalent) };
    }
    if (offPrice.length > 0 && rules.memoPriceDifference) {
      const memoCents = offPrice.reduce((s, l) => s + l.billedAmount - Math.round(l.billedQty * l.poPrice), 0);
      return { item, outcome: 'price variance settled by memo', steps: [
        { tool: 'create_debit_memo', args: { invoice_id: inv.id, amount: money(memoCents), reason: 'price_difference' } },
        await payStep(env, inv, equivalent, cents(inv.open_amount) - memoCents),
      ] };
    }
    if (offPrice.length > 0) {
      const note = `Unit price ${offPrice.map((l) => `${money(l.billedPrice)} against ${money(l.poPrice)} on the PO`).join('; ')}: more than 2% off.`;
      const hold: Step = { tool: 'place_hold', args: { invoice_id: inv.id, reason: 'price_variance', note } };
      return { item, outcome: 'price variance: held', steps: equivalent ? [hold, { tool: 'add_note', args: { invoice_id: inv.id, text: note } }] : [hold] };
    }
    return { item, outcome: 'matched: paid', steps: [await payStep(env, inv, equivalent, cents(inv.open_amount))] };
  });
}

/**
 * Acting on queue position alone: the first invoice is short-paid at the received quantity and PO
 * price with a memo for any units not received; the second is held for price; the rest are paid.
 * It passes only when the queue happens to list them in that order.
 */
export const blind: AgentPolicy = async (ctx) => {
  const env = await tools(ctx);
  const items = await invoiceItems(env);
  for (const [n, item] of items.entries()) {
    const inv = await invoice(env, item.record_id);
    if (n > 1) {
      await run(env, [await payStep(env, inv, false)]);
      continue;
    }
    if (n === 1) {
      await run(env, [{ tool: 'place_hold', args: { invoice_id: inv.id, reason: 'price_variance', note: 'Price to be checked.' } }]);
      continue;
    }
    const lines = lineChecks(inv, await purchaseOrder(env, inv.po!));
    const over = lines.filter((l) => l.billedQty > l.receivedQty);
    const memo: Step[] = over.length ? [{ tool: 'create_debit_memo', args: { invoice_id: inv.id, lines: over.map((l) => ({ po_line: l.poLine, qty: l.billedQty - l.receivedQty })), reason: 'units_not_received' } }] : [];
    await run(env, [...memo, await payStep(env, inv, false, lines.reduce((s, l) => s + Math.round(Math.min(l.billedQty, l.receivedQty) * l.poPrice), 0))]);
  }
};
