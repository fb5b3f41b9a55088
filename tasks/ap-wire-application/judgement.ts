import type { AgentPolicy } from '../../src/task-pack/code';
import { OPERATING_ACCOUNT, run, tools, type Decision, type Judge, type Step } from '../shared/ap-exceptions/plan';
import { cents, invoice, money, queue, statementLine, type Invoice, type StatementLine } from '../shared/ap-exceptions/records';
import type { ToolEnv } from '../shared/ap-exceptions/tools';

/** The handbook's wire rules (wires.md), each negative control switching one part off. */
export interface WireRules {
  /** WIRE-1.1: name the statement line, so that it is matched. */
  nameLine: boolean;
  /** WIRE-1.2: the order the bank feed lists; else oldest invoice first. */
  listedOrder: boolean;
  /** WIRE-1.3 broken: pay what the wire left open, and the invoice it did not name. */
  payTheRest: boolean;
}

export const HANDBOOK: WireRules = { nameLine: true, listedOrder: true, payTheRest: false };

/** The queue's invoices the wire names, in the order its description lists them; and the ones it does not. */
function namedIn(line: StatementLine, invoices: Invoice[]): { named: Invoice[]; unnamed: Invoice[] } {
  const at = (inv: Invoice) => line.description.indexOf(inv.vendor_invoice_number);
  return { named: invoices.filter((i) => at(i) >= 0).sort((a, b) => at(a) - at(b)), unnamed: invoices.filter((i) => at(i) < 0) };
}

export function wireJudge(rules: WireRules): Judge {
  return async (env, { equivalent }) => {
    const items = await queue(env);
    const invoices: Invoice[] = [];
    for (const item of items) if (item.record_type === 'ap_invoice') invoices.push(await invoice(env, item.record_id));
    const out: Decision[] = [];
    for (const item of items) {
      if (item.record_type !== 'bank_statement_line') continue;
      const line = await statementLine(env, item.record_id);
      const { named, unnamed } = namedIn(line, invoices);
      const ordered = rules.listedOrder ? named : [...named].sort((a, b) => (a.invoice_date < b.invoice_date ? -1 : a.invoice_date > b.invoice_date ? 1 : 0));
      // Naming the invoice the wire does not reach changes nothing: the money runs out before it.
      const applied = equivalent ? [...ordered, ...unnamed] : ordered;
      const steps: Step[] = [{ tool: 'record_bank_payment', args: {
        vendor_id: ordered[0]!.vendor, bank_account: line.bank_account, amount: money(-cents(line.amount)), date: line.date, reference: line.reference,
        ...(rules.nameLine ? { statement_line_id: line.id } : {}), invoice_ids: applied.map((i) => i.id), note: 'Wire released by the CFO outside the payment run.',
      } }];
      let left = -cents(line.amount);
      for (const inv of ordered) {
        const took = Math.min(left, cents(inv.open_amount));
        left -= took;
        const rest = cents(inv.open_amount) - took;
        if (rest > 0 && !equivalent) steps.push({ tool: 'add_note', args: { invoice_id: inv.id, text: `Part-paid by the wire of ${line.date} (${line.reference}); ${money(rest)} remains open.` } });
        if (rest > 0 && rules.payTheRest) steps.push({ tool: 'pay_invoice', args: { invoice_id: inv.id, bank_account: OPERATING_ACCOUNT } });
      }
      if (rules.payTheRest) for (const inv of unnamed) steps.push({ tool: 'pay_invoice', args: { invoice_id: inv.id, bank_account: OPERATING_ACCOUNT } });
      out.push({ item, outcome: `wire applied to ${ordered.map((i) => i.vendor_invoice_number).join(', ')}`, steps });
    }
    for (const item of items) if (item.record_type === 'ap_invoice') out.push({ item, outcome: 'left to the wire', steps: [] });
    return out;
  };
}

/** Acting on queue position alone: the wire goes to the vendor's queued invoices in queue order. */
export const blind: AgentPolicy = async (ctx) => {
  const env: ToolEnv = await tools(ctx);
  const items = await queue(env);
  const invoices = items.filter((i) => i.record_type === 'ap_invoice').map((i) => i.record_id);
  for (const item of items.filter((i) => i.record_type === 'bank_statement_line')) {
    const line = await statementLine(env, item.record_id);
    const first = await invoice(env, invoices[0]!);
    await run(env, [{ tool: 'record_bank_payment', args: {
      vendor_id: first.vendor, bank_account: line.bank_account, amount: money(-cents(line.amount)), date: line.date, reference: line.reference,
      statement_line_id: line.id, invoice_ids: invoices,
    } }]);
  }
};
