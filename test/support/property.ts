import fc from 'fast-check';
import { canonicalHash } from '../../src/events/canonical-hash';
import type { ErpDb } from '../../src/projections/erp-db';

/**
 * Plays each random sequence of actions twice on fresh books and expects the same read models:
 * the determinism half of a domain's property test.
 */
export function expectSameReadModelsTwice<A>(action: fc.Arbitrary<A>, play: (actions: readonly A[]) => { erp: ErpDb }, numRuns: number): void {
  fc.assert(fc.property(fc.array(action, { minLength: 5, maxLength: 30 }), (actions) => {
    const [a, b] = [play(actions), play(actions)];
    const tables = a.erp.registry.tableNames();
    expect(canonicalHash(a.erp.db, { tables })).toBe(canonicalHash(b.erp.db, { tables }));
  }), { numRuns });
}
