import { stateValues } from '../../../src/grader/checks/state-values';
import type { CheckOf } from '../../../src/task-pack/schema';
import { base, checkContext, table } from '../../support/grading';

const check: CheckOf<'state_values'> = { ...base, id: 'vals', type: 'state_values', projection: 'pay', key: ['invoice'], columns: ['amount', 'account'], numeric: ['amount'] };
const reference = table(['invoice', 'amount', 'account'], [['INV-1', '1108.80', 'BA-1'], ['INV-2', '250', 'BA-2'], ['INV-3', '99.99', 'BA-3'], ['INV-4', '10', 'BA-4']]);
const run = (agent: ReturnType<typeof table>, over: Partial<CheckOf<'state_values'>> = {}) =>
  stateValues({ ...check, ...over }, checkContext({ agentTables: new Map([['pay', agent]]), referenceTables: new Map([['pay', reference]]) }));

describe('values equal to the reference, and a row the reference does not have', () => {
  it('passes with accuracy 1, numbers compared as numbers and the extra row left to state_set', () => {
    const out = run(table(['invoice', 'amount', 'account'], [['INV-1', '1108.8', 'BA-1'], ['INV-2', '250.00', 'BA-2'], ['INV-3', '99.99', 'BA-3'], ['INV-4', '10', 'BA-4'], ['INV-9', '5', 'BA-9']]));
    expect(out).toMatchObject({ passed: true, accuracy: 1, detail: '4 of 4 reference rows of pay match (100.0%).' });
  });
});

describe('a reference row the agent does not have, under only_common', () => {
  const agent = table(['invoice', 'amount', 'account'], [['INV-1', '1108.80', 'BA-1'], ['INV-2', '250', 'BA-9']]);

  it('is left to the state_set check: only the rows both have are compared', () => {
    const out = run(agent, { only_common: true });
    expect(out).toMatchObject({ passed: false, accuracy: 0.5, detail: '1 of 2 rows both have of pay match (50.0%, needed 100.0%).' });
    expect(out.differing).toEqual([expect.objectContaining({ key: { invoice: 'INV-2' }, kind: 'changed', columns: ['account'] })]);
  });

  it('passes when every row both have agrees, and with no row in common', () => {
    expect(run(table(['invoice', 'amount', 'account'], [['INV-1', '1108.8', 'BA-1']]), { only_common: true })).toMatchObject({ passed: true, detail: '1 of 1 row both have of pay match (100.0%).' });
    expect(run(table(['invoice', 'amount', 'account'], []), { only_common: true }).passed).toBe(true);
  });
});

describe('a value off by a cent', () => {
  const agent = table(['invoice', 'amount', 'account'], [['INV-1', '1108.81', 'BA-1'], ['INV-2', '250', 'BA-2'], ['INV-3', '99.99', 'BA-3'], ['INV-4', '10', 'BA-4']]);

  it('fails without tolerance and names the differing column', () => {
    const out = run(agent);
    expect(out.passed).toBe(false);
    expect(out.accuracy).toBe(0.75);
    expect(out.differing).toEqual([expect.objectContaining({ key: { invoice: 'INV-1' }, kind: 'changed', columns: ['amount'] })]);
    expect(out.detail).toBe('3 of 4 reference rows of pay match (75.0%, needed 100.0%).');
  });

  it('passes within a tolerance of 0.01', () => {
    expect(run(agent, { tolerance: 0.01 }).passed).toBe(true);
  });

  it('passes when min_accuracy allows one row in four to differ', () => {
    expect(run(agent, { min_accuracy: 0.75 }).passed).toBe(true);
  });

  it('fails anyway when that row is a must-match key', () => {
    const out = run(agent, { min_accuracy: 0.75, must_match_keys: ['INV-1'] });
    expect(out.passed).toBe(false);
    expect(out.detail).toContain('1 must-match key did not match');
  });

  it('fails as a task bug when a must-match key is not in the reference', () => {
    expect(run(agent, { min_accuracy: 0.5, must_match_keys: [{ invoice: 'INV-77' }] }).detail).toBe('must_match_keys names 1 key the reference of pay does not have.');
  });
});

describe('text values', () => {
  const agent = table(['invoice', 'amount', 'account'], [['INV-1', '1108.80', 'ba-1 '], ['INV-2', '250', 'BA-2'], ['INV-3', '99.99', 'BA-3'], ['INV-4', '10', 'BA-4']]);

  it('differ in case unless normalised', () => {
    expect(run(agent).passed).toBe(false);
    expect(run(agent, { normalize: ['lower'] }).passed).toBe(true);
  });
});

describe('rows the agent lacks or has twice', () => {
  it('are missing and duplicate rows, and neither matches', () => {
    const agent = table(['invoice', 'amount', 'account'], [['INV-1', '1108.80', 'BA-1'], ['INV-2', '250', 'BA-2'], ['INV-2', '250', 'BA-2'], ['INV-3', '99.99', 'BA-3']]);
    const out = run(agent);
    expect(out.differing!.map((d) => [d.key.invoice, d.kind])).toEqual([['INV-2', 'duplicate'], ['INV-4', 'missing']]);
    expect(out.accuracy).toBe(0.5);
  });
});

describe('a reference whose key is not unique', () => {
  it('fails as a task bug', () => {
    const out = stateValues(check, checkContext({ agentTables: new Map([['pay', reference]]), referenceTables: new Map([['pay', table(['invoice', 'amount', 'account'], [['INV-1', '1', 'a'], ['INV-1', '2', 'b']])]]) }));
    expect(out.detail).toBe('The reference of pay has 1 key on more than one row: the key does not identify a row.');
  });
});
