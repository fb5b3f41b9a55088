import type { AgentPolicy } from '../../src/task-pack/code';
import { run, tools, type Judge, type Step, perInvoice } from '../shared/ap-exceptions/plan';
import { payStep } from '../shared/ap-exceptions/pay';
import { invoice, invoiceText, invoiceItems, vendor, verifiedAccount, type Invoice } from '../shared/ap-exceptions/records';
import type { ToolEnv } from '../shared/ap-exceptions/tools';

/** The handbook's bank-detail rules (bank-details.md), each negative control switching one part off. */
export interface BankRules {
  /** BANK-1.2: the hold itself. */
  hold: boolean;
  /** BANK-1.2: a note beside the hold. */
  note: boolean;
  /** BANK-1.2 broken: a note that says nothing of what the invoice asks for. */
  vagueNote: boolean;
  /** BANK-1.2 broken: a note giving the account number but not its bank (neither name nor routing number). */
  noteWithoutBank: boolean;
  /** Another valid wording: the bank by its printed name (its routing number when none is printed) and the account by its last four digits. */
  noteBankNameMasked: boolean;
  /** BANK-1.3 broken: any notice of changed details is held, verified or not. */
  holdEveryNotice: boolean;
  /** BANK-1.1 broken: try paying the account the invoice asks for (refused), and do nothing else. */
  payRequested: boolean;
}

export const HANDBOOK: BankRules = { hold: true, note: true, vagueNote: false, noteWithoutBank: false, noteBankNameMasked: false, holdEveryNotice: false, payRequested: false };

/** The bank details a notice printed on the invoice asks for, if it has one. */
export function requestedAccount(text: string): { routing: string; account: string; bank?: string } | undefined {
  const m = /Routing number: (\d+)\nAccount number: (\d+)/.exec(text);
  const bank = /^Bank: (.+)$/m.exec(text)?.[1]?.trim();
  return m ? { routing: m[1]!, account: m[2]!, ...(bank ? { bank } : {}) } : undefined;
}

interface Reading { inv: Invoice; requested?: { routing: string; account: string; bank?: string }; differs: boolean }

async function read(env: ToolEnv, id: string): Promise<Reading> {
  const inv = await invoice(env, id);
  const requested = requestedAccount(await invoiceText(env, inv));
  const verified = verifiedAccount(await vendor(env, inv.vendor));
  const differs = requested !== undefined && (!verified || requested.routing !== verified.routing_number || requested.account !== verified.account_number);
  return { inv, requested, differs };
}

function holdSteps(r: Reading, rules: BankRules, noteFirst: boolean): Step[] {
  const q = r.requested;
  const asks = !q ? 'another account'
    : rules.noteWithoutBank ? `account ${q.account}`
    : rules.noteBankNameMasked ? `${q.bank ?? `the bank with routing number ${q.routing}`}, acct ending ${q.account.slice(-4)}`
    : `routing ${q.routing}, account ${q.account}`;
  const hold: Step[] = rules.hold ? [{ tool: 'place_hold', args: { invoice_id: r.inv.id, reason: 'bank_details_unverified', note: 'Invoice asks for payment to unverified bank details.' } }] : [];
  const text = rules.vagueNote ? 'On hold.' : `The invoice asks for payment to ${asks}, which is not the verified account in the vendor record. Vendor record not changed; for Vendor Management to call back on the number on file.`;
  const note: Step[] = rules.note ? [{ tool: 'add_note', args: { invoice_id: r.inv.id, text } }] : [];
  return noteFirst ? [...note, ...hold] : [...hold, ...note];
}

export function bankJudge(rules: BankRules): Judge {
  return perInvoice(async (env, item, equivalent) => {
    const r = await read(env, item.record_id);
    if (r.differs && rules.payRequested) {
      return { item, outcome: 'paid to the account asked for (refused)', steps: [{ tool: 'pay_invoice', args: { invoice_id: r.inv.id, bank_account: 'BANK-OP', routing: r.requested!.routing, account: r.requested!.account } }] };
    }
    if (r.differs || (rules.holdEveryNotice && r.requested)) {
      return { item, outcome: 'asks for unverified bank details: held', steps: holdSteps(r, rules, equivalent) };
    }
    return { item, outcome: 'verified account: paid', steps: [await payStep(env, r.inv, equivalent)] };
  });
}

/** Acting on queue position alone: the first invoice is held as a bank-change request, the rest are paid. */
export const blind: AgentPolicy = async (ctx) => {
  const env = await tools(ctx);
  const items = await invoiceItems(env);
  for (const [n, item] of items.entries()) {
    const r = await read(env, item.record_id);
    await run(env, n === 0 ? holdSteps(r, HANDBOOK, false) : [await payStep(env, r.inv, false)]);
  }
};
