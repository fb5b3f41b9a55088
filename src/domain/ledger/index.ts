import type { RouteDef } from '../action';
import { accountRoutes } from './accounts';
import { bankRoutes } from './bank';
import { bankReconciliationRoutes } from './bank-reconciliation';
import { depositRoutes } from './deposits';
import { fixedAssetRoutes } from './fixed-assets';
import { journalEntryRoutes } from './journal-entries';
import { periodRoutes } from './periods';
import { prepaidRoutes } from './prepaids';
import { recurringEntryRoutes } from './recurring-entries';
import { treasuryRoutes } from './treasury';

export { assertPeriodOpen, JournalBuilder, reverseJournal } from './journal';
export { registerSubledger } from './subledgers';
export { registerCloseCheck, type CloseCheck } from './close-checks';

export const ledgerRoutes: RouteDef[] = [...accountRoutes, ...periodRoutes, ...bankRoutes, ...depositRoutes, ...journalEntryRoutes, ...recurringEntryRoutes, ...treasuryRoutes,
  ...bankReconciliationRoutes, ...fixedAssetRoutes, ...prepaidRoutes];
