/**
 * The transport-fault SPEC of seed 000 §7.1, parsed so a task's fault_profiles are checked when the
 * pack loads. Rules name the n-th request matching a pattern (`*` is one path segment):
 *   lost_response:POST /payment-runs@1,fail_before:POST /payment-runs/*\/submit@1
 * or a seeded share of all writes: flaky-writes:seed=3,rate=0.1
 */
export const FAULT_KINDS = ['fail_before', 'lost_response', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type FaultRule =
  | { kind: FaultKind; method: string; pattern: string; nth: number }
  | { kind: 'flaky_writes'; seed: number; rate: number };

const RULE = /^(fail_before|lost_response|slow):(GET|POST|PUT|PATCH|DELETE) (\/[^\s@]*)@([1-9]\d*)$/;
const FLAKY = /^flaky-writes:seed=(\d+),rate=(0(?:\.\d+)?|1(?:\.0+)?)$/;

export function parseFaultSpec(spec: string): FaultRule[] {
  const items: string[] = [];
  // A profile's own parameters (`seed=3,rate=0.1`) contain commas: they join the item before them.
  for (const part of spec.split(',').map((s) => s.trim())) {
    if (/^[a-z_]+=/.test(part) && items.length > 0) items[items.length - 1] += `,${part}`;
    else items.push(part);
  }
  return items.map((item) => {
    const rule = RULE.exec(item);
    if (rule) return { kind: rule[1] as FaultKind, method: rule[2]!, pattern: rule[3]!, nth: Number(rule[4]) };
    const flaky = FLAKY.exec(item);
    if (flaky) return { kind: 'flaky_writes' as const, seed: Number(flaky[1]), rate: Number(flaky[2]) };
    throw new Error(`'${item}' is not a fault rule: write KIND:METHOD /path@N (KIND one of ${FAULT_KINDS.join(', ')}) or flaky-writes:seed=N,rate=R`);
  });
}
