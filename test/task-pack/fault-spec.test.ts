import { parseFaultSpec } from '../../src/task-pack/fault-spec';

describe('a fault SPEC', () => {
  it('lists rules naming the n-th request matching a pattern', () => {
    expect(parseFaultSpec('lost_response:POST /payment-runs@1,fail_before:POST /payment-runs/*/submit@2')).toEqual([
      { kind: 'lost_response', method: 'POST', pattern: '/payment-runs', nth: 1 },
      { kind: 'fail_before', method: 'POST', pattern: '/payment-runs/*/submit', nth: 2 },
    ]);
  });

  it('may be a seeded profile whose parameters hold a comma', () => {
    expect(parseFaultSpec('flaky-writes:seed=3,rate=0.1')).toEqual([{ kind: 'flaky_writes', seed: 3, rate: 0.1 }]);
    expect(parseFaultSpec('slow:PUT /x@1, flaky-writes:seed=0,rate=1')).toHaveLength(2);
  });

  it.each(['lose:POST /x@1', 'lost_response:POST /x', 'lost_response:POST /x@0', 'flaky-writes:seed=1,rate=2', ''])('refuses %p', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/is not a fault rule/);
  });
});
