import type { RouteDef } from '../action';
import { accountRoutes } from './accounts';
import { bankRoutes } from './bank';
import { depositRoutes } from './deposits';
import { journalEntryRoutes } from './journal-entries';
import { periodRoutes } from './periods';

export { assertPeriodOpen, JournalBuilder, reverseJournal } from './journal';
export { registerSubledger } from './subledgers';

export const ledgerRoutes: RouteDef[] = [...accountRoutes, ...periodRoutes, ...bankRoutes, ...depositRoutes, ...journalEntryRoutes];
