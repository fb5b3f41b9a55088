import { Type } from '@sinclair/typebox';
import type { Queries } from '../../projections';
import { addDays } from '../calendar';
import { BANK_READ } from '../ledger/bank';
import { fromCents } from '../money';
import { DateInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/**
 * Money expected in over the horizon, by source, in cents: receivables registers customer
 * invoices falling due (src/domain/receivables/expected-receipts.ts).
 */
export type ExpectedReceipts = (read: Queries, from: string, to: string) => { source: string; amount: number }[];
const receiptSources: ExpectedReceipts[] = [];

export function registerExpectedReceipts(source: ExpectedReceipts): void {
  receiptSources.push(source);
}

/**
 * Book balance of each company bank account, from the cash subledger, against the minimum
 * balance treasury keeps it above, with its reconciliation position; and over the next `days`,
 * the AP falling due and the receipts expected.
 */
export const cashPosition = defineReport({
  id: 'cash-position',
  summary: 'Book balance of each company bank account as of a date (default today) beside its minimum balance, unmatched statement lines and uncleared book items; AP due and receipts expected over the next days (default 30)',
  params: ReportParams({ as_of: Opt(DateInput), days: Opt(Type.Integer({ minimum: 0, maximum: 366 })) }),
  permission: BANK_READ,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const through = addDays(asOf, params.days ?? 30);
    let total = 0;
    const rows = ctx.read.cash.bankAccounts().map((b) => {
      const book = ctx.read.cash.bookBalance(b.id, asOf);
      const position = ctx.read.cash.statementPosition(b.id, asOf);
      total += book;
      return {
        bank_account: b.id, name: b.name, bank_name: b.bank_name, masked_number: b.masked_number, gl_account: b.gl_account,
        book_balance: fromCents(book),
        minimum_balance: fromCents(b.minimum_balance),
        above_minimum: fromCents(book - b.minimum_balance),
        below_minimum: book < b.minimum_balance,
        statement_net: fromCents(position.statement_net),
        unmatched_statement_lines: position.unmatched_statement_lines,
        uncleared_book_items: position.uncleared_book_items,
        uncleared_book_amount: fromCents(position.uncleared_book_amount),
      };
    });
    let apDue = 0;
    for (const item of ctx.read.payables.openItemsAsOf(asOf)) {
      if (item.invoice === null) continue;
      if (ctx.read.payables.invoice(item.invoice)!.due_date <= through) apDue += item.amount;
    }
    const receipts = receiptSources.flatMap((s) => s(ctx.read, asOf, through));
    const expected = receipts.reduce((s, r) => s + r.amount, 0);
    return {
      as_of: asOf, rows, total_book_balance: fromCents(total),
      horizon: {
        through, ap_due: fromCents(apDue), expected_receipts: fromCents(expected), receipts_by_source: receipts.map((r) => ({ source: r.source, amount: fromCents(r.amount) })),
        projected_balance: fromCents(total - apDue + expected),
      },
    };
  },
});
