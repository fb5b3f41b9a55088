import { registerSubledger } from '../ledger/subledgers';

// AR: every AR movement dated on or before the date: the open amounts of invoices less cash and
// credit held on customers' accounts. Each movement rides in the event whose journal posts it to AR.
registerSubledger('ar', (read, _account, asOf) => read.receivables.arBalanceAsOf(asOf));
