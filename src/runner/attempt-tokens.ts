import { Api } from '../api/pipeline';
import { allRoutes } from '../api/routes';
import { createAppRegistry } from '../projections';
import { ErpDb } from '../projections/erp-db';
import { issueTokens, type IssuedTokens } from '../sim/credentials';
import { settleToSingleFile } from './db-file';

/**
 * The attempt's reset: a fresh token for every user the attempt acts as (agent and counterparties),
 * issued through the write path into the attempt's database before anything else runs. The secrets
 * live in the runner's memory for this attempt only: the simulator and the policies get them from
 * there, a command agent its own in its environment. `secretFor` draws them (default: random).
 */
export function issueAttemptTokens(file: string, users: readonly string[], secretFor?: (user: string) => string): IssuedTokens {
  const erp = ErpDb.open(file, createAppRegistry());
  try {
    return issueTokens(new Api(erp, allRoutes()), users, 'attempt', secretFor);
  } finally {
    erp.close();
    settleToSingleFile(file);
  }
}
