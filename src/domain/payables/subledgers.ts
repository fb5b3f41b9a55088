import type { Queries } from '../../projections';
import { registerSubledger } from '../ledger/subledgers';

/**
 * GRNI as of a date: the value at PO price of receipts dated on or before it (net of reversals by
 * then) less what validated invoices dated on or before it took out of GRNI (net of voids).
 */
export function grniBalanceAsOf(read: Queries, asOf: string): number {
  const received = read.receiving.receiptLinesAsOf(asOf).reduce((s, l) => s + l.amount, 0);
  return received - read.payables.grniMatchedAsOf(asOf);
}

// AP: every AP movement dated on or before the date, which is the open amounts of posted invoices
// less credit held on account. Each movement rides in the event whose journal posts it to AP.
registerSubledger('ap', (read, _account, asOf) => read.payables.apBalanceAsOf(asOf));
registerSubledger('grni', (read, _account, asOf) => grniBalanceAsOf(read, asOf));
