import { Api, type InProcessMode } from '../api/pipeline';
import { allRoutes } from '../api/routes';
import { canonicalHash } from '../events/canonical-hash';
import { createAppRegistry } from '../projections';
import { BUILD_STORAGE, ErpDb } from '../projections/erp-db';
import { buildCompany } from './company';

/** A company built one way: its canonical hash and how many events it wrote. */
export interface BuiltCompany {
  mode: InProcessMode;
  hash: string;
  events: number;
}

/**
 * Builds `company` for `seed` in memory with in-process callers taking `mode`'s path: `batched` on
 * the storage of a build (BUILD_STORAGE), `per-request` on a server's (every write at once, every
 * read from SQLite).
 */
export function buildCompanyWith(company: string, seed: number, mode: InProcessMode): BuiltCompany {
  const erp = ErpDb.open(':memory:', createAppRegistry(), mode === 'batched' ? BUILD_STORAGE : { fast: true });
  try {
    buildCompany(company, seed, new Api(erp, allRoutes(), { inProcess: mode }));
    return { mode, hash: canonicalHash(erp.db), events: erp.store.lastSeq() };
  } finally {
    erp.close();
  }
}

/**
 * The fast in-process path (batched commits, bodies built on first read, tables in memory, writes
 * queued) and the path every HTTP request takes (one commit per request, the response rendered and
 * parsed, tables read from SQLite) must build the same company: the same events and read models,
 * so the same canonical hash.
 */
export function compareInProcessPaths(company: string, seed: number): { equal: boolean; batched: BuiltCompany; perRequest: BuiltCompany } {
  const batched = buildCompanyWith(company, seed, 'batched');
  const perRequest = buildCompanyWith(company, seed, 'per-request');
  return { equal: batched.hash === perRequest.hash && batched.events === perRequest.events, batched, perRequest };
}
