import { registerExpectedReceipts } from '../reports/cash-position';

/**
 * Customer invoices open as of the report's date and due by the end of its horizon (overdue ones
 * included, as AP's are): the receipts cash-position expects.
 */
registerExpectedReceipts((read, asOf, through) => {
  let amount = 0;
  for (const item of read.receivables.openItemsAsOf(asOf)) {
    if (item.invoice === null || item.amount <= 0) continue;
    if (read.receivables.invoice(item.invoice)!.due_date <= through) amount += item.amount;
  }
  return amount > 0 ? [{ source: 'receivables', amount }] : [];
});
