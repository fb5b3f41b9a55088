import { BANK_READ } from '../ledger/bank';
import { fromCents } from '../money';
import { DateInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/** Book balance of each company bank account, from the cash subledger, with its reconciliation position. */
export const cashPosition = defineReport({
  id: 'cash-position',
  summary: 'Book balance of each company bank account as of a date (default today), with unmatched statement lines and uncleared book items',
  params: ReportParams({ as_of: Opt(DateInput) }),
  permission: BANK_READ,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    let total = 0;
    const rows = ctx.read.cash.bankAccounts().map((b) => {
      const book = ctx.read.cash.bookBalance(b.id, asOf);
      const position = ctx.read.cash.statementPosition(b.id, asOf);
      total += book;
      return {
        bank_account: b.id, name: b.name, bank_name: b.bank_name, masked_number: b.masked_number, gl_account: b.gl_account,
        book_balance: fromCents(book),
        statement_net: fromCents(position.statement_net),
        unmatched_statement_lines: position.unmatched_statement_lines,
        uncleared_book_items: position.uncleared_book_items,
        uncleared_book_amount: fromCents(position.uncleared_book_amount),
      };
    });
    return { as_of: asOf, rows, total_book_balance: fromCents(total) };
  },
});
