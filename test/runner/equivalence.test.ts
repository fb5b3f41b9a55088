import { compareInProcessPaths } from '../../src/runner/equivalence';

describe('a company built by in-process callers', () => {
  // The other seeds and companies: `npm run check:equivalence`.
  it.each([['halvorsen', 0], ['northgate', 0]])('%s seed %i has the same canonical hash by the batched path as by the request-per-commit path of HTTP', (company, seed) => {
    const r = compareInProcessPaths(company as string, seed as number);
    expect(r.batched.events).toBeGreaterThan(0);
    expect(r.batched.hash).toBe(r.perRequest.hash);
    expect(r.batched.events).toBe(r.perRequest.events);
  }, 300_000);
});
