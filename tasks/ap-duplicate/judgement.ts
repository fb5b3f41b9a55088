import type { AgentPolicy } from '../../src/task-pack/code';
import { run, tools, type Judge, type Step, perInvoice } from '../shared/ap-exceptions/plan';
import { payStep } from '../shared/ap-exceptions/pay';
import { invoiceItems, invoice, type Invoice } from '../shared/ap-exceptions/records';
import type { ToolEnv } from '../shared/ap-exceptions/tools';

/** The handbook's duplicate rules (duplicates.md), each negative control switching one off. */
export interface DuplicateRules {
  /** DUP-1.1: compare numbers normalised (misread: as printed). */
  normalize: boolean;
  /** DUP-1.2: flag the duplicate against its original. */
  flag: boolean;
  /** DUP-1.2: hold it with reason code duplicate. */
  hold: boolean;
  /** Treat the same vendor and total as a duplicate, whatever the number (what DUP-1.3 forbids). */
  sameAmountIsDuplicate: boolean;
}

export const HANDBOOK: DuplicateRules = { normalize: true, flag: true, hold: true, sameAmountIsDuplicate: false };

/** DUP-1.1: letters and digits only, no leading INV, no leading zeros. */
export function normalizeNumber(printed: string): string {
  const compact = printed.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const stripped = (compact.startsWith('INV') ? compact.slice(3) : compact).replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}

/** The earlier invoice this one repeats (DUP-1.2), found by the view's list or by a search. */
async function originalOf(env: ToolEnv, inv: Invoice, bySearch: boolean, rules: DuplicateRules): Promise<string | undefined> {
  if (rules.sameAmountIsDuplicate) {
    // A true duplicate is still flagged against its original; the mistake is taking the same total alone for one.
    const real = await originalOf(env, inv, bySearch, { ...rules, sameAmountIsDuplicate: false });
    if (real) return real;
    const same = (await env.must('search_invoices', { vendor: inv.vendor, limit: 1000 })).items as Invoice[];
    return same.filter((o) => o.id !== inv.id && o.total === inv.total).map((o) => o.id).sort()[0];
  }
  if (!rules.normalize) {
    const same = (await env.must('search_invoices', { vendor: inv.vendor, limit: 1000 })).items as Invoice[];
    return same.filter((o) => o.id < inv.id && o.total === inv.total && o.vendor_invoice_number === inv.vendor_invoice_number).map((o) => o.id).sort()[0];
  }
  if (!bySearch) return inv.possible_duplicates.filter((d) => d.same_total && d.id < inv.id).map((d) => d.id).sort()[0];
  const hits = (await env.must('search_invoices', { vendor: inv.vendor, number: inv.vendor_invoice_number, limit: 1000 })).items as Invoice[];
  return hits.filter((o) => o.id < inv.id && o.total === inv.total && normalizeNumber(o.vendor_invoice_number) === normalizeNumber(inv.vendor_invoice_number)).map((o) => o.id).sort()[0];
}

function duplicateSteps(inv: Invoice, original: string, rules: DuplicateRules, holdFirst: boolean): Step[] {
  const flag: Step[] = rules.flag ? [{ tool: 'flag_duplicate', args: { invoice_id: inv.id, original_invoice_id: original, note: `Repeats ${original}.` } }] : [];
  const hold: Step[] = rules.hold ? [{ tool: 'place_hold', args: { invoice_id: inv.id, reason: 'duplicate', note: `Duplicate of ${original}: same vendor, invoice number and total.` } }] : [];
  const note: Step = { tool: 'add_note', args: { invoice_id: inv.id, text: `Duplicate of ${original}: same vendor, invoice number and total. Not to be paid.` } };
  return holdFirst ? [...hold, ...flag, note] : [...flag, ...hold, note];
}

export function duplicateJudge(rules: DuplicateRules): Judge {
  return perInvoice(async (env, item, equivalent) => {
    const inv = await invoice(env, item.record_id);
    const original = await originalOf(env, inv, equivalent, rules);
    if (original) return { item, outcome: `duplicate of ${original}: held`, steps: duplicateSteps(inv, original, rules, equivalent) };
    return { item, outcome: 'not a duplicate: paid', steps: [await payStep(env, inv, equivalent)] };
  });
}

/**
 * Acting on queue position alone: the first invoice is taken for the duplicate and handled as one
 * (flagged against its original, or, when it has none, against the vendor's latest other invoice of
 * the same total), the rest are paid. It passes only when the seed happened to put the duplicate first.
 */
export const blind: AgentPolicy = async (ctx) => {
  const env = await tools(ctx);
  const items = await invoiceItems(env);
  for (const [n, item] of items.entries()) {
    const inv = await invoice(env, item.record_id);
    if (n > 0) {
      await run(env, [await payStep(env, inv, false)]);
      continue;
    }
    const same = ((await env.must('search_invoices', { vendor: inv.vendor, limit: 1000 })).items as Invoice[]).filter((o) => o.id !== inv.id && o.total === inv.total);
    const original = (await originalOf(env, inv, false, HANDBOOK)) ?? same.map((o) => o.id).sort().pop();
    await run(env, original ? duplicateSteps(inv, original, HANDBOOK, false) : [{ tool: 'place_hold', args: { invoice_id: inv.id, reason: 'duplicate' } }]);
  }
};
