import { Api, type InProcessMode } from '../api/pipeline';
import { allRoutes } from '../api/routes';
import { canonicalHash } from '../events/canonical-hash';
import { createAppRegistry } from '../projections';
import { ErpDb } from '../projections/erp-db';
import { buildCompany } from './company';

/** A company built one way: its canonical hash and how many events it wrote. */
export interface BuiltCompany {
  mode: InProcessMode;
  hash: string;
  events: number;
}

/** Builds `company` for `seed` in memory with in-process callers taking `mode`'s path. */
export function buildCompanyWith(company: string, seed: number, mode: InProcessMode): BuiltCompany {
  const erp = ErpDb.open(':memory:', createAppRegistry(), { fast: true });
  try {
    buildCompany(company, seed, new Api(erp, allRoutes(), { inProcess: mode }));
    return { mode, hash: canonicalHash(erp.db), events: erp.store.lastSeq() };
  } finally {
    erp.close();
  }
}

/**
 * The fast in-process path (batched commits, bodies built on first read) and the path every HTTP
 * request takes (one commit per request, the response rendered and parsed) must build the same
 * company: the same events and read models, so the same canonical hash.
 */
export function compareInProcessPaths(company: string, seed: number): { equal: boolean; batched: BuiltCompany; perRequest: BuiltCompany } {
  const batched = buildCompanyWith(company, seed, 'batched');
  const perRequest = buildCompanyWith(company, seed, 'per-request');
  return { equal: batched.hash === perRequest.hash && batched.events === perRequest.events, batched, perRequest };
}
